package org.reconmuc.spec;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.reconmuc.codec.SecureXml;
import org.w3c.dom.Element;

/**
 * Every scenario replayed against {@link ReferenceModel}, a literal model of reconmuc.md: the
 * scripts' expectations follow from the rules as written.
 */
class ScenarioReplayTest {

    static Stream<String> scenarios() {
        return Scenarios.list().stream();
    }

    @ParameterizedTest
    @MethodSource("scenarios")
    void theReferenceModelPassesTheScenario(String name) {
        new ReferenceModel().replay(ScenariosTest.root(name));
    }

    /** The replay is not vacuous: a script that expects the wrong thing fails. */
    @Test
    void aWrongExpectationFails() {
        String wrong = Scenarios.read("figure-1").replace("<advance seconds=\"49\"/>", "<advance seconds=\"50\"/>");
        Element root = SecureXml.parse(wrong).getDocumentElement();
        assertThatThrownBy(() -> new ReferenceModel().replay(root)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("receive-nothing");
        String early = Scenarios.read("volume-flush").replace("<volume>3</volume>", "<volume>4</volume>");
        Element root2 = SecureXml.parse(early).getDocumentElement();
        assertThatThrownBy(() -> new ReferenceModel().replay(root2)).isInstanceOf(AssertionError.class);
        assertFails("topic-switch", "count=\"2\" sc:exact=\"true\">", "count=\"3\" sc:exact=\"true\">");
        assertFails("error-policy-violation-time-above-max-time", "<policy-violation", "<bad-request");
        assertFails("reply-parent-retained", "<reply xmlns=\"urn:xmpp:reply:0\" id=\"{m1}\"/>",
                "<reply xmlns=\"urn:xmpp:reply:0\" id=\"{m2}\"/>");
        assertFails("deflate-batch", "<body>Tickets for tonight are sold out #cinema</body>\n            <stanza-id",
                "<body>Tickets for tonight are sold out</body>\n            <stanza-id");
        assertFails("partial-update", "<filter-entry element=\"topic\" value=\"pubsub\" active=\"true\"/>\n        </filter>\n        <time>",
                "<filter-entry element=\"topic\" value=\"xmpp\" active=\"true\"/>\n        </filter>\n        <time>");
    }

    private static void assertFails(String scenario, String from, String to) {
        String text = Scenarios.read(scenario);
        org.assertj.core.api.Assertions.assertThat(text).as(scenario).contains(from);
        Element root = SecureXml.parse(text.replace(from, to)).getDocumentElement();
        assertThatThrownBy(() -> new ReferenceModel().replay(root)).as(scenario + " mutated").isInstanceOf(AssertionError.class);
    }
}
