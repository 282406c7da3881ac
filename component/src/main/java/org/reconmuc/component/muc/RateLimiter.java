package org.reconmuc.component.muc;

/**
 * Token bucket on a caller-supplied clock: {@code burst} stanzas at once, then
 * {@code perSecond} on average. Not thread-safe; a room uses it from its own thread only.
 */
public final class RateLimiter {
    private final double perMilli;
    private final double burst;
    private double tokens;
    private long lastMillis;

    public RateLimiter(double perSecond, int burst, long nowMillis) {
        this.perMilli = perSecond / 1000.0;
        this.burst = burst;
        this.tokens = burst;
        this.lastMillis = nowMillis;
    }

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
