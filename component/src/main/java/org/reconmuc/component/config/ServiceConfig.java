package org.reconmuc.component.config;

import java.time.Duration;
import java.util.Objects;
/**
 * Everything the service needs to run, already validated. Built by {@link ConfigLoader} from
 * defaults, a properties file, environment variables and command-line flags (in rising order),
 * or in code with {@link #builder()}. {@code secret} is null when none is set
 * ({@link #defaults()}): only a connection to a server needs it, and refuses to start without.
 */
public record ServiceConfig(
        String serverHost,
        int serverPort,
        String domain,
        String secret,
        int historySize,
        int maxStanzaBytes,
        double messagesPerSecond,
        int messageBurst,
        int maxOccupantsPerRoom,
        int largeRoomOccupants,
        int maxFilterEntries,
        int maxTimeSeconds,
        Duration keepaliveInterval,
        Duration reconnectMaxBackoff,
        int maxPendingStanzas,
        long maxQueuedChars,
        double presencesAndIqsPerSecond,
        int presenceAndIqBurst,
        int metricsPort,
        String metricsAddress,
        boolean occupantIds,
        RoomLocking roomLocking,
        String store,
        boolean roomDefaultPersistent,
        RoomCreation roomCreation,
        boolean multicast,
        long requirementsCacheBytes,
        int absentRoomsRemembered,
        int raiMaxSubscribers,
        String rtblService,
        String rtblNode,
        int maxAvatarBytes,
        RoomEventRate roomEventRate) {

    public ServiceConfig {
        Objects.requireNonNull(serverHost, "server-host");
        Objects.requireNonNull(domain, "domain");
        require(secret == null || !secret.isEmpty(), "secret must not be empty (null: not set)");
        require(serverPort > 0 && serverPort < 65536, "server-port must be in 1..65535");
        require(!domain.isBlank(), "domain must not be empty");
        require(historySize >= 0, "history-size must be >= 0");
        require(maxStanzaBytes >= 1024, "max-stanza-bytes must be >= 1024");
        require(messagesPerSecond > 0, "rate-messages-per-second must be > 0");
        require(messageBurst >= 1, "rate-burst must be >= 1");
        require(maxOccupantsPerRoom >= 1, "max-occupants must be >= 1");
        require(largeRoomOccupants >= 0, "large-room-occupants must be >= 0 (0: never)");
        require(maxFilterEntries >= 0, "max-filter-entries must be >= 0");
        require(maxTimeSeconds >= 1, "max-time-seconds must be >= 1");
        require(!keepaliveInterval.isNegative() && !keepaliveInterval.isZero(), "keepalive-seconds must be > 0");
        require(!reconnectMaxBackoff.isNegative() && !reconnectMaxBackoff.isZero(), "reconnect-max-seconds must be > 0");
        require(maxPendingStanzas >= 1, "max-pending-stanzas must be >= 1");
        require(maxQueuedChars >= 1024, "max-queued-chars must be >= 1024");
        require(presencesAndIqsPerSecond > 0, "rate-presences-iqs-per-second must be > 0");
        require(presenceAndIqBurst >= 1, "rate-presences-iqs-burst must be >= 1");
        require(metricsPort >= 0 && metricsPort < 65536, "metrics-port must be in 0..65535 (0: off)");
        Objects.requireNonNull(metricsAddress, "metrics-address");
        require(!metricsAddress.isBlank(), "metrics-address must not be empty (127.0.0.1: this machine only)");
        Objects.requireNonNull(roomLocking, "room locking");
        Objects.requireNonNull(store, "store");
        StoreLocation.parse(store);   // a bad store setting is a configuration error, said at start
        Objects.requireNonNull(roomCreation, "room creation");
        require(requirementsCacheBytes >= 0, "requirements-cache-bytes must be >= 0 (0: no sharing)");
        require(absentRoomsRemembered >= 0, "absent-rooms-remembered must be >= 0 (0: none)");
        require(raiMaxSubscribers >= 0, "rai-max-subscribers must be >= 0 (0: no room activity indicators)");
        require(rtblService == null || validJid(rtblService), "rtbl-service must be the JID of a pubsub service,"
                + " not '" + rtblService + "'");
        Objects.requireNonNull(rtblNode, "rtbl-node");
        require(!rtblNode.isBlank(), "rtbl-node must name a pubsub node");
        require(maxAvatarBytes >= 0, "max-avatar-bytes must be >= 0 (0: no room avatars)");
        Objects.requireNonNull(roomEventRate, "room event rate");
    }

    private static boolean validJid(String jid) {
        try {
            new org.xmpp.packet.JID(jid);
            return !jid.isBlank();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * A room's budget of messages and presences, all its occupants together (Prosody's
     * mod_muc_limits): {@code perSecond} on average after a burst of {@code burst}; 0: no budget.
     */
    public record RoomEventRate(double perSecond, int burst) {
        public static final RoomEventRate OFF = new RoomEventRate(0, 30);

        public RoomEventRate {
            require(perSecond >= 0, "room-events-per-second must be >= 0 (0: no room-wide budget)");
            require(burst >= 1, "room-events-burst must be >= 1");
        }

        public boolean limited() {
            return perSecond > 0;
        }
    }

    /**
     * XEP-0045 §10.1.1: a room created by a join stays locked (others get item-not-found) until its
     * owner accepts the instant room or submits the form; one nobody configures within
     * {@code timeout} is destroyed. Off: rooms open at once, as before.
     */
    public record RoomLocking(boolean enabled, Duration timeout) {
        public static final RoomLocking DEFAULT = new RoomLocking(true, Duration.ofMinutes(5));
        public static final RoomLocking OFF = new RoomLocking(false, DEFAULT.timeout());

        public RoomLocking {
            Objects.requireNonNull(timeout, "room-lock-timeout-seconds");
            require(!timeout.isNegative() && !timeout.isZero(), "room-lock-timeout-seconds must be > 0");
        }
    }

    public static final int DEFAULT_MAX_PENDING_STANZAS = 10_000;
    public static final long DEFAULT_MAX_QUEUED_CHARS = 16L * 1024 * 1024;
    public static final double DEFAULT_PRESENCES_AND_IQS_PER_SECOND = 10.0;
    public static final int DEFAULT_PRESENCE_AND_IQ_BURST = 30;
    /**
     * Where a full presence broadcast stops paying for itself: filling a room of N costs ~N²
     * presences on the XEP-0114 link, and Prosody through the component kept up at 400 occupants
     * but not at 600 (benchmarks/results/2026-11-25-capacity).
     */
    public static final int DEFAULT_LARGE_ROOM_OCCUPANTS = 500;
    /**
     * What a room may keep of the requirement sets its occupants stated, to share equal ones: 4 MiB
     * holds ~30,000 typical sets (a few topics), and a room keeps no more whatever its occupants send.
     */
    public static final long DEFAULT_REQUIREMENTS_CACHE_BYTES = 4L * 1024 * 1024;
    /** Room names one instance of several remembers as not in the store (~100 bytes each). */
    public static final int DEFAULT_ABSENT_ROOMS_REMEMBERED = 10_000;
    /** XEP-0437 subscribers one instance serves: Prosody's muc_rai_max_subscribers default. */
    public static final int DEFAULT_RAI_MAX_SUBSCRIBERS = 1024;
    /** The node both anchors' mod_muc_rtbl read by default, as xmppbl.org publishes it. */
    public static final String DEFAULT_RTBL_NODE = "muc_bans_sha256";
    /**
     * A room's avatar image, decoded: 128 KiB, whose base64 in a vCard (~171 KiB) stays within the
     * servers' 256 KiB stanza limit.
     */
    public static final int DEFAULT_MAX_AVATAR_BYTES = 128 * 1024;

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * Every setting at its documented default (ConfigLoader's), and no component secret: a
     * service must not attach to a server with a secret anyone can read here. Enough for a
     * service in-process (Openfire's plugin, tests); a connection to a server needs
     * {@link Builder#secret} (ExternalComponentConnection refuses to start without one).
     */
    public static ServiceConfig defaults() {
        return builder().build();
    }

    /** Settings from {@link #defaults()}, changed one by one: {@code builder().domain(d).secret(s).build()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these settings, to change some of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** True when a component secret is set (a connection to a server needs one). */
    public boolean hasSecret() {
        return secret != null;
    }

    public ServiceConfig withDomainAndSecret(String newDomain, String newSecret) {
        return toBuilder().domain(newDomain).secret(newSecret).build();
    }

    public StoreLocation storeLocation() {
        return StoreLocation.parse(store);
    }

    @Override
    public String toString() {
        // Never log the secret.
        return "ServiceConfig[server=" + serverHost + ":" + serverPort + ", domain=" + domain
                + ", history-size=" + historySize + ", max-stanza-bytes=" + maxStanzaBytes
                + ", rate=" + messagesPerSecond + "/s burst " + messageBurst
                + ", max-occupants=" + maxOccupantsPerRoom + ", large-room-occupants=" + largeRoomOccupants
                + ", max-filter-entries=" + maxFilterEntries + ", max-time=" + maxTimeSeconds + "s"
                + ", keepalive=" + keepaliveInterval.toSeconds()
                + "s, reconnect-max=" + reconnectMaxBackoff.toSeconds() + "s, max-pending-stanzas=" + maxPendingStanzas
                + ", max-queued-chars=" + maxQueuedChars
                + ", presence/iq rate=" + presencesAndIqsPerSecond + "/s burst " + presenceAndIqBurst
                + ", metrics=" + (metricsPort == 0 ? "off" : metricsAddress + ":" + metricsPort)
                + ", occupant-ids=" + occupantIds
                + ", lock-new-rooms=" + (roomLocking.enabled() ? roomLocking.timeout().toSeconds() + "s" : "off")
                + ", store=" + StoreLocation.parse(store).display()
                + ", room-default-persistent=" + roomDefaultPersistent
                + ", " + roomCreation.describe()
                + ", multicast=" + (multicast ? "where the server offers it" : "off")
                + ", requirements-cache-bytes=" + requirementsCacheBytes
                + ", absent-rooms-remembered=" + absentRoomsRemembered
                + ", rai-max-subscribers=" + raiMaxSubscribers
                + ", rtbl=" + (rtblService == null ? "off" : rtblService + " node " + rtblNode)
                + ", max-avatar-bytes=" + maxAvatarBytes
                + ", room-events=" + (roomEventRate.limited()
                        ? roomEventRate.perSecond() + "/s burst " + roomEventRate.burst() : "no room-wide budget")
                + ", secret=" + (secret == null ? "not set" : "set") + "]";
    }

    /**
     * Settings one by one, each starting at its default ({@link #defaults()}); {@link #build()}
     * checks them all, as the record does. The secret starts unset.
     */
    public static final class Builder {
        private String serverHost = "127.0.0.1";
        private int serverPort = 5347;
        private String domain = "reconmuc.localhost";
        private String secret;
        private int historySize = 100;
        private int maxStanzaBytes = 256 * 1024;
        private double messagesPerSecond = 10.0;
        private int messageBurst = 20;
        private int maxOccupantsPerRoom = 10_000;
        private int largeRoomOccupants = DEFAULT_LARGE_ROOM_OCCUPANTS;
        private int maxFilterEntries = 32;
        private int maxTimeSeconds = 86_400;
        private Duration keepaliveInterval = Duration.ofSeconds(30);
        private Duration reconnectMaxBackoff = Duration.ofSeconds(30);
        private int maxPendingStanzas = DEFAULT_MAX_PENDING_STANZAS;
        private long maxQueuedChars = DEFAULT_MAX_QUEUED_CHARS;
        private double presencesAndIqsPerSecond = DEFAULT_PRESENCES_AND_IQS_PER_SECOND;
        private int presenceAndIqBurst = DEFAULT_PRESENCE_AND_IQ_BURST;
        private int metricsPort;
        private String metricsAddress = "127.0.0.1";
        private boolean occupantIds = true;
        private RoomLocking roomLocking = RoomLocking.DEFAULT;
        private String store = "none";
        private boolean roomDefaultPersistent;
        private RoomCreation roomCreation = RoomCreation.DEFAULT;
        private boolean multicast = true;
        private long requirementsCacheBytes = DEFAULT_REQUIREMENTS_CACHE_BYTES;
        private int absentRoomsRemembered = DEFAULT_ABSENT_ROOMS_REMEMBERED;
        private int raiMaxSubscribers = DEFAULT_RAI_MAX_SUBSCRIBERS;
        private String rtblService;
        private String rtblNode = DEFAULT_RTBL_NODE;
        private int maxAvatarBytes = DEFAULT_MAX_AVATAR_BYTES;
        private RoomEventRate roomEventRate = RoomEventRate.OFF;

        private Builder() {
        }

        private Builder(ServiceConfig c) {
            serverHost = c.serverHost;
            serverPort = c.serverPort;
            domain = c.domain;
            secret = c.secret;
            historySize = c.historySize;
            maxStanzaBytes = c.maxStanzaBytes;
            messagesPerSecond = c.messagesPerSecond;
            messageBurst = c.messageBurst;
            maxOccupantsPerRoom = c.maxOccupantsPerRoom;
            largeRoomOccupants = c.largeRoomOccupants;
            maxFilterEntries = c.maxFilterEntries;
            maxTimeSeconds = c.maxTimeSeconds;
            keepaliveInterval = c.keepaliveInterval;
            reconnectMaxBackoff = c.reconnectMaxBackoff;
            maxPendingStanzas = c.maxPendingStanzas;
            maxQueuedChars = c.maxQueuedChars;
            presencesAndIqsPerSecond = c.presencesAndIqsPerSecond;
            presenceAndIqBurst = c.presenceAndIqBurst;
            metricsPort = c.metricsPort;
            metricsAddress = c.metricsAddress;
            occupantIds = c.occupantIds;
            roomLocking = c.roomLocking;
            store = c.store;
            roomDefaultPersistent = c.roomDefaultPersistent;
            roomCreation = c.roomCreation;
            multicast = c.multicast;
            requirementsCacheBytes = c.requirementsCacheBytes;
            absentRoomsRemembered = c.absentRoomsRemembered;
            raiMaxSubscribers = c.raiMaxSubscribers;
            rtblService = c.rtblService;
            rtblNode = c.rtblNode;
            maxAvatarBytes = c.maxAvatarBytes;
            roomEventRate = c.roomEventRate;
        }

        /** The XMPP server's component port to attach to. */
        public Builder server(String host, int port) {
            this.serverHost = host;
            this.serverPort = port;
            return this;
        }

        public Builder domain(String value) {
            this.domain = value;
            return this;
        }

        /** The component secret the server expects (XEP-0114); null: none. */
        public Builder secret(String value) {
            this.secret = value;
            return this;
        }

        public Builder historySize(int value) {
            this.historySize = value;
            return this;
        }

        public Builder maxStanzaBytes(int value) {
            this.maxStanzaBytes = value;
            return this;
        }

        /** Per-occupant message rate and burst. */
        public Builder messageRate(double perSecond, int burst) {
            this.messagesPerSecond = perSecond;
            this.messageBurst = burst;
            return this;
        }

        public Builder maxOccupantsPerRoom(int value) {
            this.maxOccupantsPerRoom = value;
            return this;
        }

        /** Above this many occupants a room shows only moderators among newcomers, unless its owner chose (0: never). */
        public Builder largeRoomOccupants(int value) {
            this.largeRoomOccupants = value;
            return this;
        }

        public Builder maxFilterEntries(int value) {
            this.maxFilterEntries = value;
            return this;
        }

        public Builder maxTimeSeconds(int value) {
            this.maxTimeSeconds = value;
            return this;
        }

        public Builder keepaliveInterval(Duration value) {
            this.keepaliveInterval = value;
            return this;
        }

        public Builder reconnectMaxBackoff(Duration value) {
            this.reconnectMaxBackoff = value;
            return this;
        }

        public Builder maxPendingStanzas(int value) {
            this.maxPendingStanzas = value;
            return this;
        }

        public Builder maxQueuedChars(long value) {
            this.maxQueuedChars = value;
            return this;
        }

        public Builder presencesAndIqsPerSecond(double value) {
            this.presencesAndIqsPerSecond = value;
            return this;
        }

        public Builder presenceAndIqBurst(int value) {
            this.presenceAndIqBurst = value;
            return this;
        }

        public Builder metricsPort(int value) {
            this.metricsPort = value;
            return this;
        }

        /** Where the metrics endpoint listens: 127.0.0.1 (this machine), 0.0.0.0 (a container's scraper), a host's address. */
        public Builder metricsAddress(String value) {
            this.metricsAddress = value;
            return this;
        }

        public Builder occupantIds(boolean value) {
            this.occupantIds = value;
            return this;
        }

        public Builder roomLocking(RoomLocking value) {
            this.roomLocking = value;
            return this;
        }

        public Builder store(String value) {
            this.store = value;
            return this;
        }

        public Builder roomDefaultPersistent(boolean value) {
            this.roomDefaultPersistent = value;
            return this;
        }

        public Builder roomCreation(RoomCreation value) {
            this.roomCreation = value;
            return this;
        }

        /**
         * Send a room's broadcast once through the server's XEP-0033 multicast service where it
         * offers one that works (see {@code transport.ServerMulticast}); false: a copy each, always.
         */
        public Builder multicast(boolean value) {
            this.multicast = value;
            return this;
        }

        /** Bytes of requirement sets a room keeps to share equal ones among its occupants (0: none kept). */
        public Builder requirementsCacheBytes(long value) {
            this.requirementsCacheBytes = value;
            return this;
        }

        /**
         * Several instances: room names remembered as not in the shared store, so stanzas for them
         * (other than joins) are refused without asking it again (0: none remembered).
         */
        public Builder absentRoomsRemembered(int value) {
            this.absentRoomsRemembered = value;
            return this;
        }

        /** Sessions this instance sends room activity indicators (XEP-0437) to at most (0: none). */
        public Builder raiMaxSubscribers(int value) {
            this.raiMaxSubscribers = value;
            return this;
        }

        /**
         * A real-time block list (XEP-0060 node of SHA-256 hashes of bare JIDs, as xmppbl.org
         * publishes them) the service follows; a null service: none.
         */
        public Builder rtbl(String service, String node) {
            this.rtblService = service;
            this.rtblNode = node;
            return this;
        }

        /** The largest room avatar (XEP-0486) an owner may set, in bytes of image (0: none). */
        public Builder maxAvatarBytes(int value) {
            this.maxAvatarBytes = value;
            return this;
        }

        /** Each room's budget of messages and presences, all its occupants together. */
        public Builder roomEventRate(RoomEventRate value) {
            this.roomEventRate = value;
            return this;
        }

        /** The settings, checked (IllegalArgumentException naming the setting that is wrong). */
        public ServiceConfig build() {
            return new ServiceConfig(serverHost, serverPort, domain, secret, historySize, maxStanzaBytes,
                    messagesPerSecond, messageBurst, maxOccupantsPerRoom, largeRoomOccupants, maxFilterEntries, maxTimeSeconds,
                    keepaliveInterval, reconnectMaxBackoff, maxPendingStanzas, maxQueuedChars,
                    presencesAndIqsPerSecond, presenceAndIqBurst, metricsPort, metricsAddress, occupantIds, roomLocking, store,
                    roomDefaultPersistent, roomCreation, multicast, requirementsCacheBytes, absentRoomsRemembered,
                    raiMaxSubscribers, rtblService, rtblNode, maxAvatarBytes,
                    roomEventRate);
        }
    }
}
