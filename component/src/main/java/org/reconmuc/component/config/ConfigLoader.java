package org.reconmuc.component.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
/**
 * Reads the settings from, in rising precedence: defaults, a properties file
 * ({@code --config FILE} or {@code RECONMUC_CONFIG}), environment variables
 * ({@code RECONMUC_SERVER_HOST} …, for containers) and command-line flags
 * ({@code --server-host H} or {@code --server-host=H}).
 */
public final class ConfigLoader {

    /** One setting: its key (flag and file), its environment variable, and what it means. */
    public record Option(String key, String help, String defaultValue) {
        public String environmentVariable() {
            return "RECONMUC_" + key.toUpperCase(Locale.ROOT).replace('-', '_');
        }
    }

    /** The embedded default, relative to the working directory. */
    public static final String DEFAULT_STORE = "sqlite:reconmuc-data/rooms.db";

    public static final List<Option> OPTIONS = List.of(
            new Option("server-host", "XMPP server to attach to (its component port)", "127.0.0.1"),
            new Option("server-port", "the server's XEP-0114 component port", "5347"),
            new Option("domain", "the component's domain: the MUC service address", "reconmuc.localhost"),
            new Option("secret", "the component secret shared with the server (required, or secret-file); not on"
                    + " the command line, where every user's ps shows it: use the variable or the file", null),
            new Option("secret-file", "a file whose first line is the component secret (instead of secret)", null),
            new Option("history-size", "messages of discussion history kept per room and sent on join", "100"),
            new Option("max-stanza-bytes", "larger stanzas are refused with policy-violation", "262144"),
            new Option("rate-messages-per-second", "per-occupant sustained message rate before policy-violation", "10"),
            new Option("rate-burst", "per-occupant burst of messages allowed above the rate", "20"),
            new Option("room-events-per-second", "a room's budget of messages and presences (joins, nick and status"
                    + " changes), all its unaffiliated occupants together, per second on average, as Prosody's"
                    + " mod_muc_limits (0: none)", "0"),
            new Option("room-events-burst", "a room's burst of messages and presences above room-events-per-second",
                    String.valueOf(ServiceConfig.RoomEventRate.OFF.burst())),
            new Option("max-occupants", "largest room size an owner may configure (also the default)", "10000"),
            new Option("large-room-occupants", "above this many occupants a room whose owner did not choose its"
                    + " presence broadcast shows only moderators among those who enter (0: never)",
                    String.valueOf(ServiceConfig.DEFAULT_LARGE_ROOM_OCCUPANTS)),
            new Option("max-filter-entries", "most filter entries one occupant may have active (relaxed consistency)", "32"),
            new Option("requirements-cache-bytes", "bytes of requirement sets (relaxed consistency) a room keeps"
                    + " to share equal ones among its occupants, least recently used out (0: none kept)",
                    String.valueOf(ServiceConfig.DEFAULT_REQUIREMENTS_CACHE_BYTES)),
            new Option("max-time-seconds", "largest time bound an occupant may ask for (relaxed consistency)", "86400"),
            new Option("keepalive-seconds", "whitespace keepalive after this much silence", "30"),
            new Option("reconnect-max-seconds", "longest wait between reconnection attempts", "30"),
            new Option("max-pending-stanzas", "stanzas waiting in room queues before the service stops reading"
                    + " from the server (back-pressure)", String.valueOf(ServiceConfig.DEFAULT_MAX_PENDING_STANZAS)),
            new Option("max-queued-chars", "chars of stanzas waiting for the server before the rooms wait for it"
                    + " (back-pressure; also what is kept while disconnected)",
                    String.valueOf(ServiceConfig.DEFAULT_MAX_QUEUED_CHARS)),
            new Option("rate-presences-iqs-per-second", "per-sender sustained rate of presence updates and IQs"
                    + " to a room before policy-violation", "10"),
            new Option("rate-presences-iqs-burst", "per-sender burst of presence updates and IQs above the rate",
                    String.valueOf(ServiceConfig.DEFAULT_PRESENCE_AND_IQ_BURST)),
            new Option("metrics-port", "serve Prometheus metrics at http://ADDRESS:PORT/metrics (0: off)", "0"),
            new Option("metrics-address", "the address the metrics listen on (0.0.0.0: every interface, e.g. in a container)", "127.0.0.1"),
            new Option("occupant-ids", "XEP-0421 occupant ids on presences and messages from occupants (true/false)",
                    "true"),
            new Option("lock-new-rooms", "a room created by a join stays locked (others get item-not-found) until"
                    + " its owner configures it or accepts the instant room, XEP-0045 §10.1.1 (true/false)", "true"),
            new Option("room-lock-timeout-seconds", "a locked room nobody configured within this time is destroyed",
                    String.valueOf(ServiceConfig.RoomLocking.DEFAULT.timeout().toSeconds())),
            new Option("store", "where persistent rooms and their archives are kept: sqlite:PATH, h2:PATH,"
                    + " jdbc:postgresql://HOST:PORT/DB?user=U&password=P, or none (memory only)", DEFAULT_STORE),
            new Option("room-default-persistent", "new rooms start persistent (muc#roomconfig_persistentroom;"
                    + " true/false)", "false"),
            new Option("multicast", "send each room broadcast once through the server's XEP-0033 multicast service"
                    + " where it offers one that delivers clean copies (ejabberd's mod_multicast, our Prosody module);"
                    + " false: one stanza per recipient (true/false)", "true"),
            new Option("room-creators", "who may create rooms (joining an existing room is not affected): anyone;"
                    + " admins (only the admins); or a comma-separated list of local (users of the server this"
                    + " service is a subdomain of), domains and bare JIDs", RoomCreation.ANYONE),
            new Option("max-rooms-per-user", "rooms one user (bare JID) may have created that still exist;"
                    + " 0: no limit", String.valueOf(RoomCreation.DEFAULT_MAX_ROOMS_PER_USER)),
            new Option("admins", "the service's administrators, comma-separated bare JIDs: they may create rooms"
                    + " whatever room-creators says, as many as they like", ""),
            new Option("instance", "this instance's name when several instances serve the domain (rooms are"
                    + " leased from the shared --store, jdbc:postgresql:…); empty: the service runs alone", ""),
            new Option("connections", "component connections this instance holds (one per server bucket, e.g."
                    + " ejabberd's domain_balancing component_number)", "1"),
            new Option("lease-seconds", "with --instance: how long a room stays this instance's without a renewal"
                    + " (renewed every third of it); an instance that finds its last renewal older stops sending"
                    + " for its rooms until it renews (a dead instance is found by its PostgreSQL lock, at once)",
                    "5"),
            new Option("absent-rooms-remembered", "with --instance: room names remembered as not in the shared"
                    + " store, whose stanzas other than joins are refused (item-not-found) without asking it or"
                    + " claiming a lease (0: none remembered)", String.valueOf(ServiceConfig.DEFAULT_ABSENT_ROOMS_REMEMBERED)),
            new Option("rai-max-subscribers", "sessions this instance sends room activity indicators (XEP-0437) to"
                    + " at most, as Prosody's muc_rai_max_subscribers; one more is refused with resource-constraint"
                    + " (0: none)", String.valueOf(ServiceConfig.DEFAULT_RAI_MAX_SUBSCRIBERS)),
            new Option("rtbl-service", "a real-time block list to follow (Prosody's and ejabberd's mod_muc_rtbl):"
                    + " the JID of its pubsub service, e.g. xmppbl.org; its listed users may not enter rooms nor"
                    + " send messages, and are removed from rooms they are in; empty: none", ""),
            new Option("rtbl-node", "the pubsub node of the block list (items named by SHA-256 of bare JIDs)",
                    ServiceConfig.DEFAULT_RTBL_NODE),
            new Option("max-avatar-bytes", "largest room avatar (XEP-0486: the room's vCard PHOTO) an owner may"
                    + " set, in bytes of image; 0: rooms have no avatars", String.valueOf(ServiceConfig.DEFAULT_MAX_AVATAR_BYTES)));


    /** Thrown for a bad flag or value; the message is meant for the user. */
    public static final class ConfigException extends Exception {
        public ConfigException(String message) {
            super(message);
        }
    }

    private ConfigLoader() {
    }

    public static boolean wantsHelp(String[] args) {
        for (String a : args) {
            if (a.equals("--help") || a.equals("-h")) {
                return true;
            }
        }
        return false;
    }

    public static String help() {
        StringBuilder b = new StringBuilder();
        b.append("ReConMUC: multi-user chat (XEP-0045) as an XMPP external component (XEP-0114)\n\n");
        b.append("Usage: java -jar reconmuc-component.jar [--config FILE] [--KEY VALUE | --KEY=VALUE ...]\n\n");
        b.append("Each setting comes from, in rising precedence: its default, the properties file\n");
        b.append("(--config FILE or RECONMUC_CONFIG; lines 'KEY=VALUE'), the environment variable, the flag.\n\n");
        for (Option o : OPTIONS) {
            b.append(String.format("  --%-26s %s%n  %-28s env %s, default %s%n", o.key(), o.help(), "",
                    o.environmentVariable(), o.defaultValue() == null ? "none: required" : o.defaultValue()));
        }
        b.append(String.format("  --%-26s %s%n", "config FILE", "properties file with any of the keys above"));
        b.append(String.format("  --%-26s %s%n", "help", "this text"));
        b.append("\nLogging: RECONMUC_LOG_LEVEL (INFO by default).\n");
        b.append("Exit codes: 0 stopped, 2 bad configuration, a store that cannot be opened, or the server refused the secret.\n");
        return b.toString();
    }

    /** Every setting's value: its default, then the file, the environment, the flags. */
    private static Map<String, String> values(String[] args, Map<String, String> environment) throws ConfigException {
        Map<String, String> flags = parseFlags(args);
        Map<String, String> values = new LinkedHashMap<>();
        for (Option o : OPTIONS) {
            values.put(o.key(), o.defaultValue());
        }
        String file = flags.containsKey("config") ? flags.get("config") : environment.get("RECONMUC_CONFIG");
        if (file != null) {
            values.putAll(readFile(Path.of(file)));
        }
        for (Option o : OPTIONS) {
            String env = environment.get(o.environmentVariable());
            if (env != null && !env.isEmpty()) {
                values.put(o.key(), env);
            }
        }
        flags.remove("config");
        values.putAll(flags);
        return values;
    }

    public static ServiceConfig load(String[] args, Map<String, String> environment) throws ConfigException {
        Map<String, String> values = values(args, environment);
        String secret = secret(values);
        try {
            return ServiceConfig.builder()
                    .server(values.get("server-host"), integer(values, "server-port"))
                    .domain(values.get("domain"))
                    .secret(secret)
                    .historySize(integer(values, "history-size"))
                    .maxStanzaBytes(integer(values, "max-stanza-bytes"))
                    .messageRate(decimal(values, "rate-messages-per-second"), integer(values, "rate-burst"))
                    .maxOccupantsPerRoom(integer(values, "max-occupants"))
                    .largeRoomOccupants(integer(values, "large-room-occupants"))
                    .maxFilterEntries(integer(values, "max-filter-entries"))
                    .maxTimeSeconds(integer(values, "max-time-seconds"))
                    .keepaliveInterval(Duration.ofSeconds(integer(values, "keepalive-seconds")))
                    .reconnectMaxBackoff(Duration.ofSeconds(integer(values, "reconnect-max-seconds")))
                    .maxPendingStanzas(integer(values, "max-pending-stanzas"))
                    .maxQueuedChars(whole(values, "max-queued-chars"))
                    .presencesAndIqsPerSecond(decimal(values, "rate-presences-iqs-per-second"))
                    .presenceAndIqBurst(integer(values, "rate-presences-iqs-burst"))
                    .metricsPort(integer(values, "metrics-port"))
                    .metricsAddress(values.get("metrics-address"))
                    .occupantIds(bool(values, "occupant-ids"))
                    .roomLocking(new ServiceConfig.RoomLocking(bool(values, "lock-new-rooms"),
                            Duration.ofSeconds(integer(values, "room-lock-timeout-seconds"))))
                    .store(values.get("store"))
                    .roomDefaultPersistent(bool(values, "room-default-persistent"))
                    .roomCreation(RoomCreation.parse(values.get("room-creators"), values.get("admins"),
                            integer(values, "max-rooms-per-user")))
                    .multicast(bool(values, "multicast"))
                    .requirementsCacheBytes(whole(values, "requirements-cache-bytes"))
                    .absentRoomsRemembered(integer(values, "absent-rooms-remembered"))
                    .raiMaxSubscribers(integer(values, "rai-max-subscribers"))
                    .rtbl(values.get("rtbl-service").isBlank() ? null : values.get("rtbl-service").trim(),
                            values.get("rtbl-node").trim())
                    .maxAvatarBytes(integer(values, "max-avatar-bytes"))
                    .roomEventRate(new ServiceConfig.RoomEventRate(decimal(values, "room-events-per-second"),
                            integer(values, "room-events-burst")))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new ConfigException("invalid configuration: " + e.getMessage());
        }
    }

    /** The component secret, given itself or as the first line of {@code secret-file} (never both). */
    private static String secret(Map<String, String> values) throws ConfigException {
        String secret = values.get("secret");
        String file = values.get("secret-file");
        boolean given = secret != null && !secret.isEmpty();
        if (file != null && !file.isEmpty()) {
            if (given) {
                throw new ConfigException("give the component secret once: secret or secret-file, not both");
            }
            try (java.io.BufferedReader r = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
                String line = r.readLine();
                secret = line == null ? "" : line.strip();
            } catch (IOException | java.io.UncheckedIOException | java.nio.file.InvalidPathException e) {
                throw new ConfigException("cannot read the secret file " + file + " (" + e.getClass().getSimpleName()
                        + "): give a readable file whose first line is the component secret");
            }
            if (secret.isEmpty()) {
                throw new ConfigException("the secret file " + file + " is empty: its first line must be the component secret");
            }
            return secret;
        }
        if (!given) {
            throw new ConfigException("no component secret: give the secret the XMPP server expects for "
                    + values.get("domain") + " with the variable RECONMUC_SECRET, --secret-file FILE (or"
                    + " RECONMUC_SECRET_FILE), the key 'secret' in the --config file, or --secret SECRET");
        }
        return secret;
    }

    /** The settings for running as one of several instances ({@link ClusterConfig#ALONE} without --instance). */
    public static ClusterConfig loadCluster(String[] args, Map<String, String> environment) throws ConfigException {
        Map<String, String> values = values(args, environment);
        String instance = values.get("instance").trim();
        try {
            ClusterConfig cluster = new ClusterConfig(instance.isEmpty() ? null : instance, integer(values, "connections"),
                    Duration.ofSeconds(integer(values, "lease-seconds")));
            if (cluster.clustered() && StoreLocation.parse(values.get("store")).kind() == StoreLocation.Kind.NONE) {
                throw new IllegalArgumentException("--instance needs a store shared by the instances"
                        + " (--store jdbc:postgresql://HOST:PORT/DB?user=U&password=P)");
            }
            return cluster;
        } catch (IllegalArgumentException e) {
            throw new ConfigException("invalid configuration: " + e.getMessage());
        }
    }

    private static Map<String, String> parseFlags(String[] args) throws ConfigException {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || a.length() == 2) {
                throw new ConfigException("unexpected argument '" + a + "' (see --help)");
            }
            String key;
            String value;
            int eq = a.indexOf('=');
            if (eq > 0) {
                key = a.substring(2, eq);
                value = a.substring(eq + 1);
            } else {
                key = a.substring(2);
                if (i + 1 >= args.length) {
                    throw new ConfigException("--" + key + " needs a value (see --help)");
                }
                value = args[++i];
            }
            if (!key.equals("config") && OPTIONS.stream().noneMatch(o -> o.key().equals(key))) {
                throw new ConfigException("unknown option --" + key + " (see --help)");
            }
            flags.put(key, value);
        }
        return flags;
    }

    private static Map<String, String> readFile(Path file) throws ConfigException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new ConfigException("cannot read the configuration file " + file + ": " + e.getMessage());
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String key : p.stringPropertyNames()) {
            if (OPTIONS.stream().noneMatch(o -> o.key().equals(key))) {
                throw new ConfigException("unknown key '" + key + "' in " + file + " (see --help)");
            }
            values.put(key, p.getProperty(key).trim());
        }
        return values;
    }

    private static int integer(Map<String, String> values, String key) {
        try {
            return Integer.parseInt(values.get(key).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, not '" + values.get(key) + "'");
        }
    }

    private static long whole(Map<String, String> values, String key) {
        try {
            return Long.parseLong(values.get(key).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, not '" + values.get(key) + "'");
        }
    }

    private static boolean bool(Map<String, String> values, String key) {
        String v = values.get(key).trim().toLowerCase(Locale.ROOT);
        if (v.equals("true") || v.equals("1") || v.equals("on")) {
            return true;
        }
        if (v.equals("false") || v.equals("0") || v.equals("off")) {
            return false;
        }
        throw new IllegalArgumentException(key + " must be true or false, not '" + values.get(key) + "'");
    }

    private static double decimal(Map<String, String> values, String key) {
        try {
            return Double.parseDouble(values.get(key).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, not '" + values.get(key) + "'");
        }
    }
}
