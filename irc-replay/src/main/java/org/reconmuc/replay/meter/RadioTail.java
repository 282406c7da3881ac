package org.reconmuc.replay.meter;

/**
 * A mobile radio's time on, as XEP-0286 describes it: any traffic switches the radio to its
 * high-power state, where it stays for a tail (about 11 s on LTE) after the last transmission.
 * Fed the times at which bytes arrive; counts the time on and how often the radio woke up.
 */
public final class RadioTail {
    /** XEP-0286 §2: the LTE tail. */
    public static final long LTE_TAIL_NANOS = 11_000_000_000L;

    private final long tailNanos;
    private long onUntil = Long.MIN_VALUE;
    private long onNanos;
    private long wakeups;

    public RadioTail(long tailNanos) {
        this.tailNanos = tailNanos;
    }

    /** Traffic at {@code nanos} (non-decreasing). */
    public void activity(long nanos) {
        if (onUntil == Long.MIN_VALUE || nanos >= onUntil) {
            onNanos += tailNanos;
            wakeups++;
        } else {
            onNanos += nanos + tailNanos - onUntil;
        }
        onUntil = nanos + tailNanos;
    }

    /** Time on up to {@code end}: a tail still running then is cut there. */
    public long onNanos(long end) {
        return onUntil > end ? onNanos - (onUntil - end) : onNanos;
    }

    public long wakeups() {
        return wakeups;
    }
}
