package org.reconmuc.component.config;

import java.time.Duration;
import java.util.Objects;
import org.reconmuc.component.store.StoreLocation;

/**
 * Everything the service needs to run, already validated. Built by {@link ConfigLoader} from
 * defaults, a properties file, environment variables and command-line flags (in rising order).
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
        int maxFilterEntries,
        int maxTimeSeconds,
        Duration keepaliveInterval,
        Duration reconnectMaxBackoff,
        int maxPendingStanzas,
        long maxQueuedChars,
        double presencesAndIqsPerSecond,
        int presenceAndIqBurst,
        int metricsPort,
        boolean occupantIds,
        RoomLocking roomLocking,
        String store,
        boolean roomDefaultPersistent) {

    public ServiceConfig {
        Objects.requireNonNull(serverHost, "server-host");
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(secret, "secret");
        require(serverPort > 0 && serverPort < 65536, "server-port must be in 1..65535");
        require(!domain.isBlank(), "domain must not be empty");
        require(historySize >= 0, "history-size must be >= 0");
        require(maxStanzaBytes >= 1024, "max-stanza-bytes must be >= 1024");
        require(messagesPerSecond > 0, "rate-messages-per-second must be > 0");
        require(messageBurst >= 1, "rate-burst must be >= 1");
        require(maxOccupantsPerRoom >= 1, "max-occupants must be >= 1");
        require(maxFilterEntries >= 0, "max-filter-entries must be >= 0");
        require(maxTimeSeconds >= 1, "max-time-seconds must be >= 1");
        require(!keepaliveInterval.isNegative() && !keepaliveInterval.isZero(), "keepalive-seconds must be > 0");
        require(!reconnectMaxBackoff.isNegative() && !reconnectMaxBackoff.isZero(), "reconnect-max-seconds must be > 0");
        require(maxPendingStanzas >= 1, "max-pending-stanzas must be >= 1");
        require(maxQueuedChars >= 1024, "max-queued-chars must be >= 1024");
        require(presencesAndIqsPerSecond > 0, "rate-presences-iqs-per-second must be > 0");
        require(presenceAndIqBurst >= 1, "rate-presences-iqs-burst must be >= 1");
        require(metricsPort >= 0 && metricsPort < 65536, "metrics-port must be in 0..65535 (0: off)");
        Objects.requireNonNull(roomLocking, "room locking");
        Objects.requireNonNull(store, "store");
        StoreLocation.parse(store);   // a bad store setting is a configuration error, said at start
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

    /** The settings before the store had its own (memory only, rooms temporary until configured). */
    public ServiceConfig(String serverHost, int serverPort, String domain, String secret, int historySize,
                         int maxStanzaBytes, double messagesPerSecond, int messageBurst, int maxOccupantsPerRoom,
                         int maxFilterEntries, int maxTimeSeconds, Duration keepaliveInterval,
                         Duration reconnectMaxBackoff, int maxPendingStanzas, long maxQueuedChars,
                         double presencesAndIqsPerSecond, int presenceAndIqBurst, int metricsPort, boolean occupantIds) {
        this(serverHost, serverPort, domain, secret, historySize, maxStanzaBytes, messagesPerSecond, messageBurst,
                maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval, reconnectMaxBackoff,
                maxPendingStanzas, maxQueuedChars, presencesAndIqsPerSecond, presenceAndIqBurst, metricsPort,
                occupantIds, RoomLocking.DEFAULT, "none", false);
    }

    /** The settings before flow control, flood control and metrics had their own (their defaults). */
    public ServiceConfig(String serverHost, int serverPort, String domain, String secret, int historySize,
                         int maxStanzaBytes, double messagesPerSecond, int messageBurst, int maxOccupantsPerRoom,
                         int maxFilterEntries, int maxTimeSeconds, Duration keepaliveInterval,
                         Duration reconnectMaxBackoff) {
        this(serverHost, serverPort, domain, secret, historySize, maxStanzaBytes, messagesPerSecond, messageBurst,
                maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval, reconnectMaxBackoff,
                DEFAULT_MAX_PENDING_STANZAS, DEFAULT_MAX_QUEUED_CHARS, DEFAULT_PRESENCES_AND_IQS_PER_SECOND,
                DEFAULT_PRESENCE_AND_IQ_BURST, 0, true, RoomLocking.DEFAULT, "none", false);
    }

    public static final int DEFAULT_MAX_PENDING_STANZAS = 10_000;
    public static final long DEFAULT_MAX_QUEUED_CHARS = 16L * 1024 * 1024;
    public static final double DEFAULT_PRESENCES_AND_IQS_PER_SECOND = 10.0;
    public static final int DEFAULT_PRESENCE_AND_IQ_BURST = 30;

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * Defaults matching the verified local Prosody set-up (shared/servers), with its test secret:
     * for tests. A deployment has no default secret ({@link ConfigLoader} requires one).
     */
    public static ServiceConfig defaults() {
        return new ServiceConfig("127.0.0.1", 5347, "reconmuc.localhost", "s3cret",
                100, 256 * 1024, 10.0, 20, 10_000, 32, 86_400,
                Duration.ofSeconds(30), Duration.ofSeconds(30));
    }

    public ServiceConfig withServer(String host, int port) {
        return new ServiceConfig(host, port, domain, secret, historySize, maxStanzaBytes, messagesPerSecond,
                messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval, reconnectMaxBackoff,
                maxPendingStanzas, maxQueuedChars, presencesAndIqsPerSecond, presenceAndIqBurst, metricsPort, occupantIds, roomLocking, store, roomDefaultPersistent);
    }

    public ServiceConfig withHistorySize(int newHistorySize) {
        return new ServiceConfig(serverHost, serverPort, domain, secret, newHistorySize, maxStanzaBytes, messagesPerSecond,
                messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval, reconnectMaxBackoff,
                maxPendingStanzas, maxQueuedChars, presencesAndIqsPerSecond, presenceAndIqBurst, metricsPort, occupantIds, roomLocking, store, roomDefaultPersistent);
    }

    /** The relaxed-consistency limits a service advertises (reconmuc.md, Discovery). */
    public ServiceConfig withConsistencyLimits(int newMaxFilterEntries, int newMaxTimeSeconds) {
        return new ServiceConfig(serverHost, serverPort, domain, secret, historySize, maxStanzaBytes, messagesPerSecond,
                messageBurst, maxOccupantsPerRoom, newMaxFilterEntries, newMaxTimeSeconds, keepaliveInterval,
                reconnectMaxBackoff, maxPendingStanzas, maxQueuedChars, presencesAndIqsPerSecond, presenceAndIqBurst, metricsPort, occupantIds, roomLocking, store, roomDefaultPersistent);
    }

    public ServiceConfig withDomainAndSecret(String newDomain, String newSecret) {
        return new ServiceConfig(serverHost, serverPort, newDomain, newSecret, historySize, maxStanzaBytes,
                messagesPerSecond, messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval,
                reconnectMaxBackoff, maxPendingStanzas, maxQueuedChars, presencesAndIqsPerSecond, presenceAndIqBurst, metricsPort, occupantIds, roomLocking, store, roomDefaultPersistent);
    }

    /** Presence and IQ flood limits per sender (messages have their own). */
    public ServiceConfig withPresenceAndIqRate(double perSecond, int burst) {
        return new ServiceConfig(serverHost, serverPort, domain, secret, historySize, maxStanzaBytes,
                messagesPerSecond, messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval,
                reconnectMaxBackoff, maxPendingStanzas, maxQueuedChars, perSecond, burst, metricsPort, occupantIds, roomLocking, store, roomDefaultPersistent);
    }

    /** With or without XEP-0421 occupant ids on what the rooms send from occupants. */
    public ServiceConfig withOccupantIds(boolean on) {
        return new ServiceConfig(serverHost, serverPort, domain, secret, historySize, maxStanzaBytes,
                messagesPerSecond, messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval,
                reconnectMaxBackoff, maxPendingStanzas, maxQueuedChars, presencesAndIqsPerSecond, presenceAndIqBurst,
                metricsPort, on, roomLocking, store, roomDefaultPersistent);
    }

    /** Rooms created by a join locked until configured (XEP-0045 §10.1.1), or not. */
    public ServiceConfig withRoomLocking(RoomLocking locking) {
        return new ServiceConfig(serverHost, serverPort, domain, secret, historySize, maxStanzaBytes,
                messagesPerSecond, messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval,
                reconnectMaxBackoff, maxPendingStanzas, maxQueuedChars, presencesAndIqsPerSecond, presenceAndIqBurst,
                metricsPort, occupantIds, locking, store, roomDefaultPersistent);
    }

    /** Serve Prometheus metrics on 127.0.0.1:{@code port} (0: off). */
    public ServiceConfig withMetricsPort(int port) {
        return new ServiceConfig(serverHost, serverPort, domain, secret, historySize, maxStanzaBytes,
                messagesPerSecond, messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval,
                reconnectMaxBackoff, maxPendingStanzas, maxQueuedChars, presencesAndIqsPerSecond, presenceAndIqBurst, port, occupantIds, roomLocking, store, roomDefaultPersistent);
    }

    /** Where persistent rooms are kept ({@link StoreLocation}: none, sqlite:PATH, h2:PATH, a JDBC URL). */
    public ServiceConfig withStore(String newStore) {
        return new ServiceConfig(serverHost, serverPort, domain, secret, historySize, maxStanzaBytes,
                messagesPerSecond, messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval,
                reconnectMaxBackoff, maxPendingStanzas, maxQueuedChars, presencesAndIqsPerSecond, presenceAndIqBurst,
                metricsPort, occupantIds, roomLocking, newStore, roomDefaultPersistent);
    }

    /** New rooms start persistent (the owner may still make them temporary). */
    public ServiceConfig withRoomDefaultPersistent(boolean persistent) {
        return new ServiceConfig(serverHost, serverPort, domain, secret, historySize, maxStanzaBytes,
                messagesPerSecond, messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval,
                reconnectMaxBackoff, maxPendingStanzas, maxQueuedChars, presencesAndIqsPerSecond, presenceAndIqBurst,
                metricsPort, occupantIds, roomLocking, store, persistent);
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
                + ", max-occupants=" + maxOccupantsPerRoom + ", max-filter-entries=" + maxFilterEntries + ", max-time=" + maxTimeSeconds + "s"
                + ", keepalive=" + keepaliveInterval.toSeconds()
                + "s, reconnect-max=" + reconnectMaxBackoff.toSeconds() + "s, max-pending-stanzas=" + maxPendingStanzas
                + ", max-queued-chars=" + maxQueuedChars
                + ", presence/iq rate=" + presencesAndIqsPerSecond + "/s burst " + presenceAndIqBurst
                + ", metrics=" + (metricsPort == 0 ? "off" : "127.0.0.1:" + metricsPort)
                + ", occupant-ids=" + occupantIds
                + ", lock-new-rooms=" + (roomLocking.enabled() ? roomLocking.timeout().toSeconds() + "s" : "off")
                + ", store=" + StoreLocation.parse(store).display()
                + ", room-default-persistent=" + roomDefaultPersistent + "]";
    }
}
