package org.reconmuc.component.store;

import java.util.Map;

/**
 * Who was in a room under its last owner, as fenced journals wrote it (several instances): each
 * session with its nick, each occupant's state and relaxed delivery position by nick, and how far
 * the room's messages had been handed over to the server ({@code fannedOutUpTo}, by archive
 * sequence number; 0 when unknown). {@code occupantIdKey} is the XEP-0421 key of a room the
 * store does not otherwise keep (a temporary one), or null; {@code carriedForm} is such a room's
 * configuration form with what its features added (its avatar), or null if it never changed.
 */
public record StoredOccupants(Map<String, String> sessions, Map<String, Carried> occupants, long fannedOutUpTo,
                              String occupantIdKey, String carriedForm) {

    /** Nobody: a room that had no occupants, or a store without instances. */
    public static final StoredOccupants NONE = new StoredOccupants(Map.of(), Map.of(), 0, null, null);

    /**
     * One occupant as its room wrote it: {@code state} (role, affiliation, presence, requirements:
     * the room's own rendering, written when one of them changes) and {@code position} (a relaxed
     * occupant's delivery position, written with the commit that follows a delivery; null if none).
     */
    public record Carried(String state, String position) {
    }

    public StoredOccupants {
        sessions = Map.copyOf(sessions);
        occupants = Map.copyOf(occupants);
    }

    public boolean isEmpty() {
        return sessions.isEmpty();
    }
}
