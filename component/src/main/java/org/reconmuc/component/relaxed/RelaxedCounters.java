package org.reconmuc.component.relaxed;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the rooms count for an operator (read from any thread, written by the rooms): relaxed
 * occupants, and the batches and items that relaxed consistency sent.
 */
public final class RelaxedCounters {
    private final LongAdder relaxedOccupants = new LongAdder();
    private final LongAdder batches = new LongAdder();
    private final LongAdder batchedItems = new LongAdder();
    private final LongAdder delayedSingles = new LongAdder();

    public void relaxed(int delta) {
        relaxedOccupants.add(delta);
    }

    public void batchSent(int items) {
        batches.increment();
        batchedItems.add(items);
    }

    public void delayedSent() {
        delayedSingles.increment();
    }

    /** Occupants with relaxed-consistency requirements now. */
    public long relaxedOccupants() {
        return relaxedOccupants.sum();
    }

    /** Batches (flushes in plain or deflate aggregation) sent so far. */
    public long batches() {
        return batches.sum();
    }

    /** Retained messages sent inside batches so far. */
    public long batchedItems() {
        return batchedItems.sum();
    }

    /** Retained messages sent one by one (aggregation none) so far. */
    public long delayedSingles() {
        return delayedSingles.sum();
    }
}
