package org.reconmuc.component.store;

import java.time.Instant;
import java.util.Map;

/**
 * What a persistent room keeps besides its messages, written whole whenever any of it changes.
 *
 * @param jid            the room's bare JID
 * @param config         the room's configuration as its {@code muc#roomconfig} data form (XML)
 * @param subject        the last subject change as broadcast (XML), or null
 * @param subjectAt      when the subject was set, or null
 * @param occupantIdKey  the room's XEP-0421 key (base64), or null when the service has no occupant ids
 * @param affiliations   affiliation by real bare JID ({@code owner}, {@code admin}, {@code member}, {@code outcast})
 * @param registrations  reserved nickname by real bare JID (XEP-0045 §7.10)
 */
public record RoomRecord(String jid, String config, String subject, Instant subjectAt, String occupantIdKey,
                         Map<String, String> affiliations, Map<String, String> registrations) {
    public RoomRecord {
        affiliations = Map.copyOf(affiliations);
        registrations = Map.copyOf(registrations);
    }
}
