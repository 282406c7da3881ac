package org.reconmuc.component.protocol;

import java.util.Arrays;

/**
 * Whose presences an occupant asks the room for (reconmuc.md §5.17): everyone the room shows
 * (XEP-0045's behaviour, and the level of whoever asks nothing), the moderators only, or nobody's
 * but its own.
 */
public enum PresenceLevel {
    ALL("all"),
    MODERATORS("moderators"),
    NONE("none");

    private final String xmlValue;

    PresenceLevel(String xmlValue) {
        this.xmlValue = xmlValue;
    }

    public String xmlValue() {
        return xmlValue;
    }

    /** The level named {@code value}, or null. */
    public static PresenceLevel parse(String value) {
        return Arrays.stream(values()).filter(l -> l.xmlValue.equals(value)).findFirst().orElse(null);
    }
}
