package org.reconmuc.component.transport;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Reconnect delays: initial, 2 x initial, 4 x initial ... capped at a maximum, each shortened by a
 * random 0-20 % (jitter, so that several services restarted together do not reconnect in step;
 * never longer than the cap). Used by one thread.
 */
final class Backoff {

    private final long initialNanos;
    private final long maxNanos;
    private int attempt;

    Backoff(Duration initial, Duration max) {
        this.initialNanos = initial.toNanos();
        this.maxNanos = max.toNanos();
    }

    /** The delay before the next attempt. */
    Duration next() {
        long base = initialNanos;
        for (int i = 0; i < attempt && base < maxNanos; i++) {
            base *= 2;
        }
        base = Math.min(base, maxNanos);
        attempt = Math.min(attempt + 1, 62);
        double jitter = 1.0 - 0.2 * ThreadLocalRandom.current().nextDouble();
        return Duration.ofNanos((long) (base * jitter));
    }

    /** After a successful handshake: start again from the initial delay. */
    void reset() {
        attempt = 0;
    }
}
