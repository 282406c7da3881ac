package org.reconmuc.replay.meter;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RadioTailTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aLoneArrivalKeepsTheRadioOnForOneTail() {
        RadioTail radio = new RadioTail(11 * S);
        radio.activity(100 * S);
        assertThat(radio.onNanos(1000 * S)).isEqualTo(11 * S);
        assertThat(radio.wakeups()).isEqualTo(1);
    }

    @Test
    void arrivalsInsideTheTailExtendItWithoutWakingTheRadioAgain() {
        RadioTail radio = new RadioTail(11 * S);
        radio.activity(0);
        radio.activity(5 * S);      // on until 16
        radio.activity(16 * S);     // exactly at the end: a new wake-up
        radio.activity(40 * S);
        assertThat(radio.wakeups()).isEqualTo(3);
        assertThat(radio.onNanos(1000 * S)).isEqualTo((16 + 11 + 11) * S);
    }

    @Test
    void aTailRunningAtTheEndIsCutThere() {
        RadioTail radio = new RadioTail(11 * S);
        radio.activity(0);
        radio.activity(20 * S);
        assertThat(radio.onNanos(25 * S)).isEqualTo((11 + 5) * S);
    }

    @Test
    void oneArrivalEveryTenSecondsKeepsTheRadioOnForGood() {
        RadioTail radio = new RadioTail(11 * S);
        for (int i = 0; i < 100; i++) {
            radio.activity(i * 10 * S);
        }
        assertThat(radio.wakeups()).isEqualTo(1);
        assertThat(radio.onNanos(1000 * S)).isEqualTo(1000 * S);
    }
}
