package org.reconmuc.component.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The token bucket on a virtual clock: milliseconds the test chooses. */
class TokenBucketTest {

    private static int takes(TokenBucket bucket, long nowMillis, int tries) {
        int taken = 0;
        for (int i = 0; i < tries; i++) {
            if (bucket.tryAcquire(nowMillis)) {
                taken++;
            }
        }
        return taken;
    }

    @Test
    void aFullBucketGivesItsBurstAtOnceThenRefuses() {
        TokenBucket bucket = new TokenBucket(2.0, 5, 1_000);
        assertThat(takes(bucket, 1_000, 5)).isEqualTo(5);
        assertThat(bucket.tryAcquire(1_000)).isFalse();
    }

    @Test
    void itRefillsAtItsRateAndARefusalCostsNothing() {
        TokenBucket bucket = new TokenBucket(2.0, 5, 0);
        takes(bucket, 0, 5);
        assertThat(bucket.tryAcquire(499)).as("0.998 of a token").isFalse();
        assertThat(bucket.tryAcquire(500)).as("one token after half a second at 2 a second").isTrue();
        assertThat(bucket.tryAcquire(500)).isFalse();
        assertThat(takes(bucket, 2_000, 10)).as("three more over the next 1.5 s").isEqualTo(3);
    }

    @Test
    void itHoldsNoMoreThanItsBurstHoweverLongItRests() {
        TokenBucket bucket = new TokenBucket(10.0, 3, 0);
        assertThat(takes(bucket, 3_600_000, 10)).isEqualTo(3);
    }

    @Test
    void aClockGoingBackRefillsNothing() {
        TokenBucket bucket = new TokenBucket(1.0, 1, 10_000);
        assertThat(bucket.tryAcquire(10_000)).isTrue();
        assertThat(bucket.tryAcquire(5_000)).isFalse();
        assertThat(bucket.tryAcquire(10_999)).isFalse();
        assertThat(bucket.tryAcquire(11_000)).isTrue();
    }

    @Test
    void aRateOfZeroGivesTheBurstOnly() {
        TokenBucket bucket = new TokenBucket(0, 2, 0);
        assertThat(takes(bucket, Long.MAX_VALUE / 2, 5)).isEqualTo(2);
        assertThat(bucket.tryAcquire(Long.MAX_VALUE)).isFalse();
    }

    @Test
    void aFractionalRateAddsUp() {
        TokenBucket bucket = new TokenBucket(0.25, 1, 0);
        assertThat(bucket.tryAcquire(0)).isTrue();
        assertThat(bucket.tryAcquire(3_999)).isFalse();
        assertThat(bucket.tryAcquire(4_000)).isTrue();
    }

    @Test
    void aBucketThatCouldNeverGiveIsRefused() {
        assertThatThrownBy(() -> new TokenBucket(1.0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenBucket(-1.0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
