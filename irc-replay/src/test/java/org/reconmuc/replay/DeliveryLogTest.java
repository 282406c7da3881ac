package org.reconmuc.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import org.junit.jupiter.api.Test;

/** One bot's record of deliveries: causal order right at any cutoff, late apart from lost. */
class DeliveryLogTest {
    /** 0 is a message; 1 replies to 0; 2 replies to 1; 3 stands alone. */
    private static final int[] PARENT = {-1, 0, 1, -1};

    private static BitSet sent(int n) {
        BitSet s = new BitSet();
        s.set(0, n);
        return s;
    }

    @Test
    void aReplyWhoseParentHasNotArrivedByTheCutoffIsNotOutOfOrderButItsParentIsMissing() {
        DeliveryLog bot = new DeliveryLog(PARENT);
        bot.deliver(1, true, false);   // the reply came; its parent is still on its way at the cutoff
        assertThat(bot.outOfOrder).as("an absence at the cutoff is not an order violation").isZero();
        assertThat(bot.missing(sent(2))).isEqualTo(1);
    }

    @Test
    void aParentArrivingAfterItsReplyIsAViolationHoweverLate() {
        DeliveryLog bot = new DeliveryLog(PARENT);
        bot.deliver(1, true, false);
        bot.deliver(0, true, true);
        assertThat(bot.outOfOrder).isEqualTo(1);
        assertThat(bot.late).isEqualTo(1);
        assertThat(bot.missing(sent(2))).isZero();
    }

    @Test
    void inOrderLateDeliveriesAreLateNotLostAndNotOutOfOrder() {
        DeliveryLog bot = new DeliveryLog(PARENT);
        bot.deliver(0, false, false);
        bot.deliver(1, true, true);
        bot.deliver(2, true, true);
        bot.deliver(3, false, true);
        assertThat(bot.outOfOrder).isZero();
        assertThat(bot.late).isEqualTo(3);
        assertThat(bot.missing(sent(4))).isZero();
    }

    @Test
    void aReplySentWithoutItsReplyElementIsNotTheRoomsToOrder() {
        DeliveryLog bot = new DeliveryLog(PARENT);
        bot.deliver(1, false, false);
        bot.deliver(0, false, false);
        assertThat(bot.outOfOrder).isZero();
        assertThat(bot.unlinkedOvertaken).isEqualTo(1);
    }

    @Test
    void aDuplicateIsCountedOnce() {
        DeliveryLog bot = new DeliveryLog(PARENT);
        assertThat(bot.deliver(3, false, false)).isTrue();
        assertThat(bot.deliver(3, false, false)).isFalse();
        assertThat(bot.duplicates).isEqualTo(1);
        assertThat(bot.received).isEqualTo(1);
    }
}
