package org.reconmuc.openfire;

import java.util.LinkedHashMap;
import java.util.Map;
import org.reconmuc.component.config.ServiceConfig;

/** The Openfire system properties that configure the plugin as {@code config} configures the component. */
public final class PluginProperties {
    private PluginProperties() {
    }

    public static Map<String, String> of(ServiceConfig config) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("history-size", Integer.toString(config.historySize()));
        p.put("max-stanza-bytes", Integer.toString(config.maxStanzaBytes()));
        p.put("rate-messages-per-second", Double.toString(config.messagesPerSecond()));
        p.put("rate-burst", Integer.toString(config.messageBurst()));
        p.put("max-occupants", Integer.toString(config.maxOccupantsPerRoom()));
        p.put("max-filter-entries", Integer.toString(config.maxFilterEntries()));
        p.put("max-time-seconds", Integer.toString(config.maxTimeSeconds()));
        p.put("max-pending-stanzas", Integer.toString(config.maxPendingStanzas()));
        p.put("rate-presences-iqs-per-second", Double.toString(config.presencesAndIqsPerSecond()));
        p.put("rate-presences-iqs-burst", Integer.toString(config.presenceAndIqBurst()));
        p.put("occupant-ids", Boolean.toString(config.occupantIds()));
        p.put("lock-new-rooms", Boolean.toString(config.roomLocking().enabled()));
        p.put("room-lock-timeout-seconds", Long.toString(config.roomLocking().timeout().toSeconds()));
        p.put("store", config.store());
        p.put("room-default-persistent", Boolean.toString(config.roomDefaultPersistent()));
        p.put("room-creators", String.join(",", config.roomCreation().creators()));
        p.put("max-rooms-per-user", Integer.toString(config.roomCreation().maxRoomsPerUser()));
        p.put("admins", String.join(",", config.roomCreation().admins()));
        Map<String, String> named = new LinkedHashMap<>();
        p.forEach((k, v) -> named.put(PluginSettings.PREFIX + k, v));
        return named;
    }
}
