package org.reconmuc.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Numbers in summary.json are JSON numbers, whatever their rounding. */
class JsonTest {
    @Test
    void aNumberThatRoundsToAWholeOneHasNoBarePoint() {
        // Prosody's CPU seconds in a capacity run: written as "40." and the file did not parse.
        assertThat(Json.write(40.00001).strip()).isEqualTo("40");
        assertThat(Json.write(-0.00001).strip()).isEqualTo("-0");
    }

    @Test
    void fractionsKeepFourPlacesWithoutTrailingZeros() {
        assertThat(Json.write(40.0).strip()).isEqualTo("40");
        assertThat(Json.write(0.5).strip()).isEqualTo("0.5");
        assertThat(Json.write(1.23456).strip()).isEqualTo("1.2346");
        assertThat(Json.write(Double.NaN).strip()).isEqualTo("null");
    }
}
