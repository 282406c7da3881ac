package org.reconmuc.replay;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The bounds {@link ReplayIT} puts on the modelled wire bytes accept the model and reject what it is not. */
class ModelledWireBoundsTest {

    @Test
    void theModelOfThreeStanzasPasses() {
        // 100 B, 1448 B and 1449 B: 1 + 1 + 2 segments.
        long payload = 100 + 1448 + 1449;
        assertThatCode(() -> ReplayIT.assertModelledWire("model", payload + 52 * 4, payload, 3)).doesNotThrowAnyException();
    }

    @Test
    void eachBoundFails() {
        long payload = 100 + 1448 + 1449;
        // no header at all (the wire total is the payload)
        assertThatThrownBy(() -> ReplayIT.assertModelledWire("model", payload, payload, 3))
                .isInstanceOf(AssertionError.class).hasMessageContaining("a segment per stanza");
        // a header that is not 52 B
        assertThatThrownBy(() -> ReplayIT.assertModelledWire("model", payload + 40 * 4, payload, 3))
                .isInstanceOf(AssertionError.class).hasMessageContaining("whole segments");
        // a stanza without its segment (3 stanzas, 2 segments)
        assertThatThrownBy(() -> ReplayIT.assertModelledWire("model", 200 + 52 * 2, 200, 3))
                .isInstanceOf(AssertionError.class).hasMessageContaining("a segment per stanza");
        // a big stanza counted as one segment (1 stanza of 3000 B needs 3)
        assertThatThrownBy(() -> ReplayIT.assertModelledWire("model", 3000 + 52, 3000, 1))
                .isInstanceOf(AssertionError.class).hasMessageContaining("per 1448 B");
        // a header per TCP write or per byte, more segments than stanzas and payload allow
        assertThatThrownBy(() -> ReplayIT.assertModelledWire("model", payload + 52 * 6, payload, 3))
                .isInstanceOf(AssertionError.class).hasMessageContaining("at most one partial segment");
    }
}
