package org.reconmuc.component.consistency;

import java.util.Locale;

/** How a flush reaches the occupant. */
public enum Aggregation {
    /** The paper's "no aggregation": each retained message on its own, with its delay. */
    NONE,
    /** One batch stanza. */
    PLAIN,
    /** One batch stanza, its content raw-deflated and base64-encoded. */
    DEFLATE,
    /** One batch stanza of compact items: for streams the server compresses (reconmuc.md §5.9 rule 7). */
    COMPACT,
    /**
     * {@link #COMPACT}, and what the occupant gets at once goes as a compact batch whose live last
     * item carries everything retained along (§5.9 rule 8.6): one stanza, one wake-up.
     */
    COMPACT_LIVE,
    /** Compact items in the session's own deflate stream: for streams nothing else compresses (§5.9 rule 8). */
    COMPACT_DEFLATE,
    /**
     * {@link #COMPACT_DEFLATE}, and what the occupant gets at once travels in the same stream as a
     * live item, carrying along everything retained (§5.9 rule 8.6): one stanza, one wake-up.
     */
    COMPACT_DEFLATE_LIVE;

    /** Whether messages sent at once go as a batch's live item, each carrying along what is retained. */
    public boolean carriesLive() {
        return this == COMPACT_LIVE || this == COMPACT_DEFLATE_LIVE;
    }

    public String xmlValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
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
