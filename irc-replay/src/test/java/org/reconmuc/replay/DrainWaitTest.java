package org.reconmuc.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The harness's rule for when to stop waiting after the last message (virtual time in seconds). */
class DrainWaitTest {
    private static final long S = 1_000_000_000L;
    private static final long NONE_HELD = Long.MIN_VALUE;

    @Test
    void everyDeliveryInEndsTheWaitAtOnce() {
        DrainWait wait = new DrainWait(0, 75 * S, 600 * S, 10);
        wait.missing(S, 0);
        assertThat(wait.over(S, NONE_HELD)).isTrue();
    }

    @Test
    void deliveriesThatKeepComingAfterTheDrainAreWaitedFor() {
        DrainWait wait = new DrainWait(0, 15 * S, 600 * S, 1000);
        for (int t = 1; t <= 100; t++) {
            wait.missing(t * S, 1000 - 9L * t);
            assertThat(wait.over(t * S, NONE_HELD)).as("at %d s", t).isFalse();
        }
    }

    @Test
    void silenceAfterTheDrainIsAStallWhenTheRoomHoldsNothingBack() {
        DrainWait wait = new DrainWait(0, 15 * S, 600 * S, 1000);
        wait.missing(10 * S, 40);
        assertThat(wait.over(25 * S, NONE_HELD)).isFalse();
        assertThat(wait.over(26 * S, NONE_HELD)).isTrue();
    }

    /**
     * Prosody at 800 bots handed the last messages to the room ~40 s late; the room kept them for
     * their 60-s bound, so they were due 100 s after the last send, 25 s after a 75-s drain. The
     * old rule stopped at the drain's end (no delivery for 15 s) and called them lost.
     */
    @Test
    void aRelaxedRoomHoldingCopiesOfALateMessageIsNotAStallBeforeTheyAreDue() {
        DrainWait wait = new DrainWait(0, 75 * S, 600 * S, 140_000);
        wait.missing(40 * S, 3364);
        long lastMessageReachedABot = 40 * S;
        long heldDue = lastMessageReachedABot + 60 * S;
        assertThat(wait.over(76 * S, heldDue)).isFalse();
        assertThat(wait.over(110 * S, heldDue)).isFalse();
        assertThat(wait.over(116 * S, heldDue)).as("quiet 15 s past when the last held copy was due").isTrue();
    }

    @Test
    void theLateWaitBoundsEverything() {
        DrainWait wait = new DrainWait(0, 15 * S, 100 * S, 1000);
        wait.missing(114 * S, 999);
        assertThat(wait.over(115 * S, 10_000 * S)).isFalse();
        assertThat(wait.over(116 * S, 10_000 * S)).isTrue();
    }
}
