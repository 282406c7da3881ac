package org.reconmuc.component.consistency;

/**
 * Something the room must send to one occupant now: messages needed at once (a message
 * preceded by its still-retained ancestors), or a flush of everything retained. Sequence
 * numbers are in room order. {@code seqs} may be shared between deliveries (every at-once
 * delivery of the current message alone shares one array): read it, never write it.
 */
public record Delivery<R>(R owner, Kind kind, long[] seqs) {

    public enum Kind {
        /**
         * Needed now: the last message; all before it are older retained messages that go first —
         * its ancestors, or, for a reader whose live messages travel in its stream, everything
         * retained.
         */
        NOW,
        /** A bound was reached: everything retained, as one batch (or one by one in NONE mode). */
        FLUSH
    }
}
