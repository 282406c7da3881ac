package org.reconmuc.replay;

/**
 * When the harness stops waiting for deliveries after the last message: every bot has every
 * message, or the late wait is over, or, after the drain, nothing has come for a while although
 * nothing more may still be held back. What arrives after the drain is late, not lost.
 *
 * <p>A slow server hands a message to the room late, and a relaxed room may then keep it for one
 * time bound: silence while such a copy is not yet due is not a stall. All times are
 * {@code System.nanoTime()} values.
 */
final class DrainWait {
    /** After the drain, waiting stops once no delivery has come for this long. */
    static final long STALL_NANOS = 15_000_000_000L;

    private final long drainEnd;
    private final long lateWaitEnd;
    private long missing;
    private long lastProgress;

    DrainWait(long now, long drainNanos, long lateWaitNanos, long missing) {
        this.drainEnd = now + drainNanos;
        this.lateWaitEnd = drainEnd + lateWaitNanos;
        this.missing = missing;
        this.lastProgress = now;
    }

    /** Deliveries after this are late. */
    long drainEnd() {
        return drainEnd;
    }

    /** The deliveries still missing at {@code now}. */
    void missing(long now, long missingNow) {
        if (missingNow < missing) {
            lastProgress = now;
        }
        missing = missingNow;
    }

    /**
     * Whether to stop at {@code now}; {@code lastHeldDue} is when the last copy the room may still
     * hold back is due ({@link Long#MIN_VALUE} when it holds none back).
     */
    boolean over(long now, long lastHeldDue) {
        if (missing == 0 || now > lateWaitEnd) {
            return true;
        }
        long quietSince = Math.max(lastProgress, lastHeldDue);
        return now > drainEnd && now - quietSince > STALL_NANOS;
    }
}
