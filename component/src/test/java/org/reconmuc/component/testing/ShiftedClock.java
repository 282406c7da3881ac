package org.reconmuc.component.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The system's clock, moved on by whatever {@link #advance} added: time still flows for everything
 * a live service does (rates, timers), and a test can skip an hour (XEP-0502's hourly counters).
 */
public final class ShiftedClock extends Clock {
    private volatile Duration offset = Duration.ZERO;

    public void advance(Duration d) {
        offset = offset.plus(d);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a shifted clock is UTC");
    }
}
