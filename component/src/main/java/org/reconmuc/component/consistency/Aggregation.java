package org.reconmuc.component.consistency;

import java.util.Locale;

/** How a flush reaches the occupant. */
public enum Aggregation {
    /** The paper's "no aggregation": each retained message on its own, with its delay. */
    NONE,
    /** One batch stanza. */
    PLAIN,
    /** One batch stanza, its content raw-deflated and base64-encoded. */
    DEFLATE;

    public String xmlValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Aggregation parse(String value) {
        for (Aggregation a : values()) {
            if (a.xmlValue().equals(value)) {
                return a;
            }
        }
        return null;
    }
}
