package org.reconmuc.component.consistency;

/**
 * The retained state of one relaxed occupant: pointers into the room's history, never copies.
 * Every message with {@code seq < cursor} has been delivered; of those at or after the cursor,
 * the ones in {@code early} were delivered at once, and the rest are retained. Kept small on
 * purpose (a few words whatever the volume): it exists once per relaxed occupant.
 */
public final class Reader<R> {
    final R owner;
    Requirements requirements;
    long cursor;
    /** Sorted sequence numbers >= cursor delivered early; null when none. */
    long[] early;
    /** The head whose trigger bucket this reader is filed under (its flush is due there or later). */
    long trigger = -1;
    boolean active = true;
    /** The time bound it is filed under, and its place in that bound's list for its cursor. */
    ConsistencyEngine.TimeClass<R> timeClass;
    int linkedSlot;
    Reader<R> prev;
    Reader<R> next;

    Reader(R owner, Requirements requirements, long cursor) {
        this.owner = owner;
        this.requirements = requirements;
        this.cursor = cursor;
    }

    public R owner() {
        return owner;
    }

    public Requirements requirements() {
        return requirements;
    }

    int earlyCount() {
        return early == null ? 0 : early.length;
    }

    boolean isEarly(long seq) {
        return early != null && java.util.Arrays.binarySearch(early, seq) >= 0;
    }

    /** How many messages up to {@code head} wait for this reader. */
    long retained(long head) {
        return head - cursor + 1 - earlyCount();
    }

    void markEarly(long seq) {
        if (seq < cursor || isEarly(seq)) {
            return;
        }
        if (seq == cursor) {
            cursor++;
        } else {
            long[] grown = early == null ? new long[1] : java.util.Arrays.copyOf(early, early.length + 1);
            grown[grown.length - 1] = seq;
            java.util.Arrays.sort(grown);
            early = grown;
        }
        // Keep the cursor on the oldest retained message: early entries at the cursor fold into it.
        int folded = 0;
        while (early != null && folded < early.length && early[folded] == cursor) {
            cursor++;
            folded++;
        }
        if (folded > 0) {
            early = folded == early.length ? null : java.util.Arrays.copyOfRange(early, folded, early.length);
        }
    }
}
