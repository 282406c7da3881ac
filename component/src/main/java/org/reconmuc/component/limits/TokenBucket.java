package org.reconmuc.component.limits;

/**
 * A token bucket on the caller's clock: {@code burst} takes at once, then {@code perSecond} on
 * average; a take the bucket cannot pay for is refused and costs nothing. With a rate of 0 the
 * bucket is never refilled. Not thread-safe: one thread (a room's) uses it.
 */
public final class TokenBucket {
    private final double perMilli;
    private final double burst;
    private double tokens;
    private long lastMillis;

    /** A full bucket at {@code nowMillis}. */
    public TokenBucket(double perSecond, int burst, long nowMillis) {
        if (perSecond < 0 || burst < 1) {
            throw new IllegalArgumentException("a token bucket needs a rate >= 0 and a burst >= 1, not "
                    + perSecond + " and " + burst);
        }
        this.perMilli = perSecond / 1000.0;
        this.burst = burst;
        this.tokens = burst;
        this.lastMillis = nowMillis;
    }

    /** Takes one token if there is one at {@code nowMillis}; false if the bucket is empty. A clock going back refills nothing. */
    public boolean tryAcquire(long nowMillis) {
        if (nowMillis > lastMillis) {
            tokens = Math.min(burst, tokens + (nowMillis - lastMillis) * perMilli);
            lastMillis = nowMillis;
        }
        if (tokens >= 1.0) {
            tokens -= 1.0;
            return true;
        }
        return false;
    }
}
