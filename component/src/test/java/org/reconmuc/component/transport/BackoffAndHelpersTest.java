package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class BackoffAndHelpersTest {

    @Test
    void backoffDoublesUpToTheCapWithDownwardJitterAndResets() {
        Backoff b = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
        long[] expected = {1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000};
        for (long ms : expected) {
            assertThat(b.next().toMillis()).isBetween((long) (ms * 0.8) - 1, ms);
        }
        b.reset();
        assertThat(b.next().toMillis()).isBetween(799L, 1000L);
    }

    @Test
    void backoffCapBelowTheInitialDelay() {
        Backoff b = new Backoff(Duration.ofSeconds(1), Duration.ofMillis(200));
        for (int i = 0; i < 5; i++) {
            assertThat(b.next().toMillis()).isBetween(159L, 200L);
        }
    }

    @Test
    void logThrottleLetsOneReportThroughPerIntervalAndCountsTheRest() {
        AtomicLong now = new AtomicLong(1_000);
        LogThrottle t = new LogThrottle(Duration.ofNanos(100), now::get);
        assertThat(t.acquire()).isZero();
        now.addAndGet(10);
        assertThat(t.acquire()).isEqualTo(-1);
        assertThat(t.acquire()).isEqualTo(-1);
        now.addAndGet(100);
        assertThat(t.acquire()).isEqualTo(2);
        assertThat(LogThrottle.suppressedNote(2)).isEqualTo(" (2 more since the last report)");
        assertThat(LogThrottle.suppressedNote(0)).isEmpty();
    }
}
