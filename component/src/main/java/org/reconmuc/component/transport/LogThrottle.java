package org.reconmuc.component.transport;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Lets one report through per interval, so a fault that repeats thousands of times a second
 * logs once, with the number of repeats held back since the last report. Thread-safe.
 */
final class LogThrottle {
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private long lastNanos;
    private boolean any;
    private long suppressed;

    LogThrottle(Duration interval) {
        this(interval, System::nanoTime);
    }

    LogThrottle(Duration interval, LongSupplier nanoClock) {
        this.intervalNanos = interval.toNanos();
        this.nanoClock = nanoClock;
    }

    /** Returns -1 if this event should not be reported, else the number of events not reported since the last one. */
    synchronized long acquire() {
        long now = nanoClock.getAsLong();
        if (any && now - lastNanos < intervalNanos) {
            suppressed++;
            return -1;
        }
        any = true;
        lastNanos = now;
        long n = suppressed;
        suppressed = 0;
        return n;
    }

    /** The tail of a log line that says how many reports were held back, or "". */
    static String suppressedNote(long suppressed) {
        return suppressed > 0 ? " (" + suppressed + " more since the last report)" : "";
    }
}
