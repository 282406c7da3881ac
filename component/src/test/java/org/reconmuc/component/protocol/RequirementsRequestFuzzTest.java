package org.reconmuc.component.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.codec.Topics;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.FilterKey;
import org.reconmuc.component.testing.HostileXml;

/**
 * Coverage-guided fuzzing (Jazzer) of what an occupant states as its consistency requirements:
 * whatever {@code <consistency-requirements/>} comes (filters by the thousand, numbers that
 * overflow, unknown elements and namespaces, deep nesting), {@link RequirementsRequest#parse}
 * returns a request that keeps the protocol's rules or refuses it with a {@link ProtocolException}
 * (which the room answers with bad-request); nothing else escapes. {@code mvn test} replays the
 * inputs under {@code src/test/resources/.../RequirementsRequestFuzzTestInputs}; {@code JAZZER_FUZZ=1} fuzzes.
 */
public class RequirementsRequestFuzzTest {
    private static final String[] AGGREGATIONS = {"none", "plain", "deflate", "compact", "compact-live", "compact-deflate",
        "compact-deflate-live", "Plain", " plain "};

    @FuzzTest(maxDuration = "60s")
    void parsesOrRefuses(FuzzedDataProvider data) {
        Element request = HostileXml.asReceived(request(new HostileXml(data)));
        RequirementsRequest parsed;
        try {
            parsed = RequirementsRequest.parse(request);
        } catch (ProtocolException refused) {
            assertThat(refused.kind()).isEqualTo(ProtocolException.Kind.BAD_REQUEST);
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        assertThat(XmlNamespaces.isRequirementsNamespace(parsed.namespace())).isTrue();
        if (parsed.standard()) {
            assertThat(parsed.entries()).isEmpty();
            assertThat(parsed.timeSeconds()).isNull();
            assertThat(parsed.volume()).isNull();
            assertThat(parsed.aggregation()).isNull();
        }
        if (parsed.timeSeconds() != null) {
            assertThat(parsed.timeSeconds()).isPositive();
        }
        if (parsed.volume() != null) {
            assertThat(parsed.volume()).isPositive();
        }
        for (RequirementsRequest.Entry e : parsed.entries()) {
            String value = e.key().value();
            assertThat(value).isNotBlank().hasSizeLessThanOrEqualTo(1023);
            if (e.key().kind() == FilterKey.Kind.TOPIC) {
                assertThat(Topics.isValid(value)).as("a topic filter is normalised and valid: '%s'", value).isTrue();
            }
        }
        // What the room answers with parses again as a request (the result a client reads back).
        if (!parsed.standard() && parsed.aggregation() != null) {
            assertThat(Aggregation.parse(parsed.aggregation().xmlValue())).isEqualTo(parsed.aggregation());
        }
    }

    /** A {@code <consistency-requirements/>} as a hostile occupant might write it. */
    public static Element request(HostileXml x) {
        String ns = x.name(XmlNamespaces.RECONMUC, XmlNamespaces.JOOM, "urn:reconmuc:1", "");
        Element e = DocumentHelper.createElement(QName.get(x.name(RequirementsRequest.ELEMENT), ns));
        x.junk(e);
        for (int i = x.count(6); i > 0; i--) {
            String childNs = x.data().consumeInt(0, 9) == 0 ? x.name("", "urn:other", XmlNamespaces.JOOM) : ns;
            String name = x.name("filter", "time", "volume", "aggregation", "standard");
            Element child = e.addElement(QName.get(name, childNs));
            switch (name) {
                case "filter" -> {
                    for (int n = x.data().consumeInt(0, 3) == 0 ? x.count(200) : x.count(4); n > 0; n--) {
                        Element entry = child.addElement(QName.get(x.name("filter-entry"), childNs));
                        if (x.data().consumeInt(0, 7) != 0) {
                            entry.addAttribute("element", x.value("topic", "nick", "body"));
                        }
                        if (x.data().consumeInt(0, 7) != 0) {
                            entry.addAttribute("value", x.value("#news", "News", "#", "romeo", " "));
                        }
                        if (x.chance()) {
                            entry.addAttribute("active", x.value("true", "false", "1", "0", "TRUE", "yes"));
                        }
                        x.junk(entry);
                    }
                }
                case "time", "volume" -> child.setText(x.value("60", "20"));
                case "aggregation" -> child.setText(x.value(AGGREGATIONS));
                default -> {
                }
            }
            x.junk(child);
        }
        return e;
    }
}
