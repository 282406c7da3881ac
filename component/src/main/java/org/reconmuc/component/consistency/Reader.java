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
    /**
     * The sequence numbers >= cursor delivered early, sorted, in the first {@link #earlyCount}
     * slots. The array is kept across flushes and grows by doubling, so delivering at once does not
     * allocate once a reader has seen its usual share (null until the first early delivery).
     */
    long[] early;
    int earlyCount;
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
        return earlyCount;
    }

    boolean isEarly(long seq) {
        return earlyCount > 0 && java.util.Arrays.binarySearch(early, 0, earlyCount, seq) >= 0;
    }

    /** How many messages up to {@code head} wait for this reader. */
    long retained(long head) {
        return head - cursor + 1 - earlyCount;
    }

    void markEarly(long seq) {
        if (seq < cursor || isEarly(seq)) {
            return;
        }
        if (seq == cursor) {
            cursor++;
        } else {
            insertEarly(seq);
        }
        // Keep the cursor on the oldest retained message: early entries at the cursor fold into it.
        int folded = 0;
        while (folded < earlyCount && early[folded] == cursor) {
            cursor++;
            folded++;
        }
        if (folded > 0) {
            System.arraycopy(early, folded, early, 0, earlyCount - folded);
            earlyCount -= folded;
        }
    }

    /** Everything up to the head was delivered: nothing is early any more (the array is kept). */
    void clearEarly() {
        earlyCount = 0;
    }

    private void insertEarly(long seq) {
        if (early == null) {
            early = new long[4];
        } else if (earlyCount == early.length) {
            early = java.util.Arrays.copyOf(early, 2 * early.length);
        }
        int at = -java.util.Arrays.binarySearch(early, 0, earlyCount, seq) - 1;
        System.arraycopy(early, at, early, at + 1, earlyCount - at);
        early[at] = seq;
        earlyCount++;
    }
}
