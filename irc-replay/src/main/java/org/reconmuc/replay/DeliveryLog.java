package org.reconmuc.replay;

import java.util.BitSet;

/**
 * What one bot received, and whether it came in causal order and in time. Pure: no clock of its
 * own, no threads (the bot calls it under its lock).
 *
 * <p><b>Order, right at any cutoff.</b> A reply the harness sent <em>as</em> a reply (with its
 * XEP-0461 {@code <reply/>}, so the room knows its parent) must not reach a bot before its parent.
 * When it does, the parent is <em>awaited</em>; the violation counts when the parent then arrives,
 * however late. A parent that never arrives is lost, and counted as such: its absence at the end
 * is not an order violation of the reply that did arrive. A reply the harness sent without a
 * {@code <reply/>} (its author gave up waiting for the parent) is not the room's to order: if it
 * overtakes its parent that is counted apart ({@link #unlinkedOvertaken}).
 *
 * <p><b>Late is not lost.</b> A delivery after the cutoff (the last message sent plus the drain)
 * is late; a message never delivered is lost.
 */
public final class DeliveryLog {
    private final int[] parent;
    private final BitSet got = new BitSet();
    /** Parents a linked reply arrived before: a violation when they arrive. */
    private final BitSet awaited = new BitSet();
    public int received;
    public int duplicates;
    public int outOfOrder;
    public int unlinkedOvertaken;
    public int late;

    /** @param parent each message's parent (-1: none), by sequence number */
    public DeliveryLog(int[] parent) {
        this.parent = parent;
    }

    /**
     * Message {@code seq} arrived; {@code linked} says whether it was sent with its reply element
     * ({@link #parent} known to the room), {@code late} whether it came after the cutoff. False
     * for a duplicate.
     */
    public boolean deliver(int seq, boolean linked, boolean late) {
        if (got.get(seq)) {
            duplicates++;
            return false;
        }
        got.set(seq);
        received++;
        if (late) {
            this.late++;
        }
        if (awaited.get(seq)) {
            awaited.clear(seq);
            outOfOrder++;
        }
        int p = parent[seq];
        if (p >= 0 && !got.get(p)) {
            if (linked) {
                awaited.set(p);
            } else {
                unlinkedOvertaken++;
            }
        }
        return true;
    }

    public boolean has(int seq) {
        return got.get(seq);
    }

    /** Messages of {@code sent} this bot has not received. */
    public int missing(BitSet sent) {
        BitSet m = (BitSet) sent.clone();
        m.andNot(got);
        return m.cardinality();
    }

    /** The messages of {@code sent} this bot has not received. */
    BitSet missingOf(BitSet sent) {
        BitSet m = (BitSet) sent.clone();
        m.andNot(got);
        return m;
    }
}
