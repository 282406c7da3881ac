package org.reconmuc.component.consistency;

/**
 * The retained state of one relaxed occupant: pointers into the room's history, never copies.
 * Every message with {@code seq < cursor} has been delivered; of those at or after the cursor,
 * the ones in {@code early} were delivered at once, and the rest are retained. Kept small on
 * purpose (a few words whatever the volume): it exists once per relaxed occupant.
 */
public final class Reader<R> {
    /** Early entries kept in the reader itself before it needs an array. */
    static final int INLINE = 4;
    final R owner;
    Requirements requirements;
    long cursor;
    /**
     * The sequence numbers >= cursor delivered early, sorted: the first {@link #INLINE} in the
     * reader itself, any more in {@code spill}. Delivering a message at once then writes into the
     * object the engine has just read, not into a separate array elsewhere in memory (in a room of
     * 100,000 occupants that second cache miss per delivery was a third of the engine's time).
     * The spill array is kept across flushes, so it is allocated once per reader at most.
     */
    private long e0;
    private long e1;
    private long e2;
    private long e3;
    long[] spill;
    int earlyCount;
    /** The newest early entry (valid while {@link #earlyCount} > 0): most checks are for newer messages and end here. */
    long lastEarly;
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
        return earlyCount > 0 && seq <= lastEarly && search(seq) >= 0;
    }

    /** How many messages up to {@code head} wait for this reader. */
    long retained(long head) {
        return head - cursor + 1 - earlyCount;
    }

    /** The {@code i}-th early entry, oldest first. */
    long earlyAt(int i) {
        return switch (i) {
            case 0 -> e0;
            case 1 -> e1;
            case 2 -> e2;
            case 3 -> e3;
            default -> spill[i - INLINE];
        };
    }

    private void setEarlyAt(int i, long seq) {
        switch (i) {
            case 0 -> e0 = seq;
            case 1 -> e1 = seq;
            case 2 -> e2 = seq;
            case 3 -> e3 = seq;
            default -> {
                if (spill == null) {
                    spill = new long[4];
                } else if (i - INLINE >= spill.length) {
                    spill = java.util.Arrays.copyOf(spill, 2 * spill.length);
                }
                spill[i - INLINE] = seq;
            }
        }
    }

    /** Binary search over the early entries: the index, or -(insertion point) - 1. */
    private int search(long seq) {
        int lo = 0;
        int hi = earlyCount - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long v = earlyAt(mid);
            if (v < seq) {
                lo = mid + 1;
            } else if (v > seq) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
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
        while (folded < earlyCount && earlyAt(folded) == cursor) {
            cursor++;
            folded++;
        }
        if (folded > 0) {
            for (int i = folded; i < earlyCount; i++) {
                setEarlyAt(i - folded, earlyAt(i));
            }
            earlyCount -= folded;
        }
    }

    /** Everything up to the head was delivered: nothing is early any more (the spill array is kept). */
    void clearEarly() {
        earlyCount = 0;
    }

    private void insertEarly(long seq) {
        if (earlyCount == 0 || seq > lastEarly) {
            setEarlyAt(earlyCount++, seq); // the usual case: the newest message
            lastEarly = seq;
            return;
        }
        int at = -search(seq) - 1;
        for (int i = earlyCount; i > at; i--) {
            setEarlyAt(i, earlyAt(i - 1));
        }
        setEarlyAt(at, seq);
        earlyCount++;
    }
}
