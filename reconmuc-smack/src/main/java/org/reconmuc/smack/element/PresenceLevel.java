package org.reconmuc.smack.element;

/**
 * Whose presences an occupant asks the room for (reconmuc.md §5.17): the {@code level} of
 * {@code <presences xmlns='urn:reconmuc:0'/>}, in a presence to the room ({@link PresencesElement})
 * or in the requirements ({@link ConsistencyRequirements.Builder#setPresenceLevel}).
 */
public enum PresenceLevel {
    /** Everyone the room shows (XEP-0045; the level of whoever asks nothing). */
    ALL("all"),
    /** The moderators only: whoever becomes one appears, whoever stops being one leaves the list. */
    MODERATORS("moderators"),
    /** Nobody's presence but the occupant's own. */
    NONE("none");

    private final String value;

    PresenceLevel(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    /** The level with this text, or null. */
    public static PresenceLevel fromValue(String value) {
        for (PresenceLevel l : values()) {
            if (l.value.equals(value)) {
                return l;
            }
        }
        return null;
    }
}
