package org.reconmuc.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The multi-room replay's verdict on one room, on what its bots saw. */
class RoomTallyTest {
    private static RoomTally.BotView bot(String name, List<Integer> live, Set<Integer> history) {
        return new RoomTally.BotView(name, live, history);
    }

    @Test
    void everyBotGotEveryAcknowledgedMessageOnceInTheRoomsOrder() {
        RoomTally t = RoomTally.of("r", List.of(bot("b0", List.of(0, 1, 2), Set.of()), bot("b1", List.of(0, 1, 2), Set.of())),
                List.of(0, 1, 2), seq -> seq % 2);
        assertThat(t.expected).isEqualTo(6);
        assertThat(t.lost + t.duplicated + t.outOfOrder + t.caughtUp).isZero();
    }

    @Test
    void aMessageMissingLiveCountsAsLostUnlessTheHistoryBroughtItOnARejoin() {
        RoomTally t = RoomTally.of("r", List.of(bot("b0", List.of(0, 1, 2), Set.of()), bot("b1", List.of(0, 2), Set.of()),
                bot("b2", List.of(0, 2), Set.of(1))), List.of(0, 1, 2), seq -> 0);
        assertThat(t.lost).isEqualTo(1);
        assertThat(t.caughtUp).isEqualTo(1);
        assertThat(t.examples).contains("r/b1 never got m1");
        assertThat(t.lostExamples).containsExactly(new RoomTally.Lost("b1", 1));
    }

    @Test
    void twoBotsThatSawTwoMessagesTheOtherWayRoundAreOutOfOrder() {
        // Different senders: the room may order them either way, but everyone must see the same one.
        RoomTally t = RoomTally.of("r", List.of(bot("b0", List.of(0, 2, 1), Set.of()), bot("b1", List.of(0, 1, 2), Set.of())),
                List.of(0, 1, 2), seq -> seq);
        assertThat(t.outOfOrder).isEqualTo(1);
        assertThat(t.duplicated).isZero();
    }

    @Test
    void oneSendersMessagesOutOfTheirSendingOrderAndALiveDuplicateAreCounted() {
        RoomTally t = RoomTally.of("r", List.of(bot("b0", List.of(1, 0, 1), Set.of()), bot("b1", List.of(1, 0), Set.of())),
                List.of(0, 1), seq -> 0);
        assertThat(t.outOfOrder).isEqualTo(1);   // b0 sent m0 before m1; the room has m1 first
        assertThat(t.duplicated).isEqualTo(1);
    }
}
