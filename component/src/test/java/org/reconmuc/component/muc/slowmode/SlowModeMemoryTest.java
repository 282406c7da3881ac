package org.reconmuc.component.muc.slowmode;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a slow room remembers of its senders: only those still within the duration, once many have spoken. */
class SlowModeMemoryTest {
    @Test
    void aCrowdThatSpokeOnceAMinuteAgoIsForgottenWhenTheRoomNeedsTheRoom() {
        SlowMode slow = new SlowMode();
        for (int i = 0; i < 1024; i++) {
            assertThat(slow.refuses(60, "guest" + i + "@verona.lit", 0)).isNull();
        }
        assertThat(slow.remembered()).isEqualTo(1024);
        // A minute later a newcomer speaks: the crowd's last messages no longer hold anyone back.
        assertThat(slow.refuses(60, "romeo@montague.lit", 60_000)).isNull();
        assertThat(slow.remembered()).isEqualTo(1);
        // Forgetting them changed nothing for them: they may speak, and are then held to the duration again.
        assertThat(slow.refuses(60, "guest7@verona.lit", 60_001)).isNull();
        assertThat(slow.refuses(60, "guest7@verona.lit", 61_000)).contains("try again in 60 seconds");
    }
}
