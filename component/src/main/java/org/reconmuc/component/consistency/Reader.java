package org.reconmuc.component.consistency;

import java.util.Arrays;

/**
 * The retained state of one relaxed occupant: pointers into the room's history, never copies.
 * Every message with {@code seq < cursor} has been delivered; of those after the cursor, the
 * ones marked early were delivered at once, and the rest are retained. Kept small on purpose (a
 * few words whatever the volume): it exists once per relaxed occupant.
 */
public final class Reader<R> {
    /** Early deliveries the reader marks in itself: the messages just after its cursor. */
    static final int INLINE_BITS = 2 * Long.SIZE;

    final R owner;
    Requirements requirements;
    long cursor;
    /**
     * Which messages after the cursor were delivered early, one bit each: bit {@code i} is
     * {@code cursor + 1 + i}. The cursor is the oldest retained message, so its own bit is never
     * needed. A retained window never spans more than the history (its span trigger flushes
     * it), so the bits are bounded: the first {@link #INLINE_BITS} in the reader itself — the
     * delivery writes into the object the engine has just read, no second cache miss and no
     * allocation — any further ones (histories over 129 messages) in {@code spill}, allocated
     * once and kept.
     */
    private long early0;
    private long early1;
    private long[] spill;
    int earlyCount;
    /** The head whose trigger bucket this reader is filed under (its flush is due there or later; -1: none). */
    long trigger = -1;
    /** Its neighbours in that trigger bucket. */
    Reader<R> triggerPrev;
    Reader<R> triggerNext;
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

    /** The oldest message not yet sent to the reader: every one before it was. */
    public long cursor() {
        return cursor;
    }

    /** The messages after the cursor sent at once, in order: with {@link #cursor()}, the reader's delivery position. */
    public long[] earlySeqs() {
        long[] seqs = new long[earlyCount];
        int i = 0;
        for (int bit = 0; i < seqs.length && bit < words() * Long.SIZE; bit++) {
            if ((word(bit >>> 6) & (1L << bit)) != 0) {
                seqs[i++] = cursor + 1 + bit;
            }
        }
        return seqs;
    }

    /** Messages after the cursor delivered at once (not retained, not yet behind the cursor). */
    public int earlyCount() {
        return earlyCount;
    }

    /** The longs of early-delivery bits held outside the reader (0 until a window passes 129 messages). */
    public int spilledWords() {
        return spill == null ? 0 : spill.length;
    }

    boolean isEarly(long seq) {
        long bit = seq - cursor - 1;
        return earlyCount > 0 && bit >= 0 && (word((int) (bit >>> 6)) & (1L << bit)) != 0;
    }

    /** How many messages up to {@code head} wait for this reader. */
    long retained(long head) {
        return head - cursor + 1 - earlyCount;
    }

    void markEarly(long seq) {
        if (seq < cursor || isEarly(seq)) {
            return;
        }
        if (seq > cursor) {
            long bit = seq - cursor - 1;
            int w = (int) (bit >>> 6);
            setWord(w, word(w) | (1L << bit));
            earlyCount++;
            return;
        }
        // The cursor itself: it moves past it and past the early run that follows it.
        int run = trailingOnes();
        cursor += 1 + run;
        earlyCount -= run;
        shiftRight(1 + run);
    }

    /** Everything up to the head was delivered: nothing is early any more (the spill array is kept). */
    void clearEarly() {
        earlyCount = 0;
        early0 = 0;
        early1 = 0;
        if (spill != null) {
            Arrays.fill(spill, 0);
        }
    }

    /**
     * The retained sequence numbers up to {@code head}, in order, into {@code seqs} (sized
     * {@link #retained}).
     */
    void retainedInto(long head, long[] seqs) {
        int i = 0;
        if (cursor <= head && i < seqs.length) {
            seqs[i++] = cursor;
        }
        for (long seq = cursor + 1; seq <= head && i < seqs.length; seq++) {
            long bit = seq - cursor - 1;
            if ((word((int) (bit >>> 6)) & (1L << bit)) == 0) {
                seqs[i++] = seq;
            }
        }
    }

    private int words() {
        return 2 + (spill == null ? 0 : spill.length);
    }

    private long word(int w) {
        return switch (w) {
            case 0 -> early0;
            case 1 -> early1;
            default -> spill == null || w - 2 >= spill.length ? 0 : spill[w - 2];
        };
    }

    private void setWord(int w, long value) {
        switch (w) {
            case 0 -> early0 = value;
            case 1 -> early1 = value;
            default -> {
                if (spill == null) {
                    spill = new long[w - 1];
                } else if (w - 2 >= spill.length) {
                    spill = Arrays.copyOf(spill, w - 1);
                }
                spill[w - 2] = value;
            }
        }
    }

    /** How many early bits in a row from bit 0. */
    private int trailingOnes() {
        int run = 0;
        for (int w = 0; w < words(); w++) {
            int ones = Long.numberOfTrailingZeros(~word(w));
            run += ones;
            if (ones < Long.SIZE) {
                break;
            }
        }
        return run;
    }

    /** Drops the lowest {@code n} bits (the cursor moved by {@code n}). */
    private void shiftRight(int n) {
        int wordShift = n >>> 6;
        int bitShift = n & 63;
        int words = words();
        for (int w = 0; w < words; w++) {
            long lo = word(w + wordShift);
            long hi = bitShift == 0 ? 0 : word(w + wordShift + 1) << (Long.SIZE - bitShift);
            setWord(w, (lo >>> bitShift) | hi);
        }
    }
}
