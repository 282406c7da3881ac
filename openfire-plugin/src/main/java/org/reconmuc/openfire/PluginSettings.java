package org.reconmuc.openfire;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.reconmuc.component.config.ConfigLoader;
import org.reconmuc.component.config.ConfigLoader.ConfigException;
import org.reconmuc.component.config.ServiceConfig;

/**
 * The service's settings from Openfire system properties ({@code reconmuc.*}, set in the admin
 * console under Server Manager, System Properties): the MUC settings of the standalone component
 * under the same names ({@code reconmuc.history-size} is {@code --history-size}), checked by the
 * same {@link ConfigLoader}, and {@code reconmuc.subdomain}. Read when the plugin starts.
 */
public final class PluginSettings {
    public static final String PREFIX = "reconmuc.";
    public static final String SUBDOMAIN = PREFIX + "subdomain";
    public static final String DEFAULT_SUBDOMAIN = "reconmuc";

    /**
     * The standalone settings that mean something in-process. The connection's own (server, port,
     * secret, keepalive, reconnect, outgoing queue) and metrics do not: Openfire is the connection.
     */
    public static final Set<String> OPTIONS = Set.of("history-size", "max-stanza-bytes", "rate-messages-per-second",
            "rate-burst", "max-occupants", "max-filter-entries", "max-time-seconds", "max-pending-stanzas",
            "rate-presences-iqs-per-second", "rate-presences-iqs-burst", "occupant-ids", "lock-new-rooms",
            "room-lock-timeout-seconds", "store", "room-default-persistent", "room-creators", "max-rooms-per-user",
            "admins", "rai-max-subscribers");

    /** ConfigLoader insists on a secret (for a connection); in-process there is no connection to authenticate. */
    private static final String NO_SECRET = "unused-in-process";

    private PluginSettings() {
    }

    /** The settings and the names of properties that mean nothing here (typos, standalone-only). */
    public record Read(String subdomain, ServiceConfig config, List<String> ignored) {
    }

    /**
     * Reads the settings for a server whose XMPP domain is {@code xmppDomain} from {@code property}
     * (name to value, null when unset); {@code names} are the {@code reconmuc.*} properties that exist.
     * Persistent rooms are kept in {@code defaultStore} unless {@code reconmuc.store} says otherwise.
     */
    public static Read read(String xmppDomain, Function<String, String> property, Collection<String> names,
            String defaultStore) throws ConfigException {
        String subdomain = property.apply(SUBDOMAIN);
        if (subdomain == null || subdomain.isBlank()) {
            subdomain = DEFAULT_SUBDOMAIN;
        }
        subdomain = subdomain.trim();
        if (subdomain.contains(".") || subdomain.contains("@") || subdomain.contains("/")) {
            throw new ConfigException(SUBDOMAIN + " must be one DNS label (the service is <label>." + xmppDomain
                    + "), not '" + subdomain + "'");
        }
        List<String> args = new ArrayList<>(List.of("--domain", subdomain + "." + xmppDomain, "--secret", NO_SECRET,
                "--store", defaultStore));
        for (String option : OPTIONS) {
            String value = property.apply(PREFIX + option);
            if (value != null && !value.isBlank()) {
                args.add("--" + option);
                args.add(value.trim());
            }
        }
        List<String> ignored = new ArrayList<>();
        for (String name : names) {
            String key = name.startsWith(PREFIX) ? name.substring(PREFIX.length()) : name;
            if (!key.equals("subdomain") && !OPTIONS.contains(key)) {
                ignored.add(PREFIX + key);
            }
        }
        return new Read(subdomain, ConfigLoader.load(args.toArray(String[]::new), Map.of()), List.copyOf(ignored));
    }
}
