package org.reconmuc.smack.element;

/** How retained messages are delivered (reconmuc.md §5.9): the text of {@code <aggregation/>}. */
public enum Aggregation {
    /** One by one, each with a delay. */
    NONE("none"),
    /** One batch of forwarded messages. */
    PLAIN("plain"),
    /** One batch, compressed with raw DEFLATE on its own. */
    DEFLATE("deflate"),
    /** One batch of compact items: for a stream the server compresses (reconmuc.md §5.9 rule 7). */
    COMPACT("compact"),
    /** Compact items in this session's own deflate stream: for a stream nothing else compresses (§5.9 rule 8). */
    COMPACT_DEFLATE("compact-deflate"),
    /**
     * {@link #COMPACT_DEFLATE}, and what the room sends this occupant at once travels in the same
     * stream as each batch's live last item, with everything retained carried along (§5.9 rule 8.6).
     */
    COMPACT_DEFLATE_LIVE("compact-deflate-live"),
    /** Compact batches, what comes at once as a batch's live last item (reconmuc.md §5.9 rule 8.6). */
    COMPACT_LIVE("compact-live");

    private final String value;

    Aggregation(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    /** The aggregation with this text, or null. */
    public static Aggregation fromValue(String value) {
        for (Aggregation a : values()) {
            if (a.value.equals(value)) {
                return a;
            }
        }
        return null;
    }
}
