package org.reconmuc.component.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.FilterKey;
import org.reconmuc.component.consistency.Requirements;
import org.reconmuc.component.testing.Dom4jBatches;
import org.reconmuc.spec.TestVectors;

/** The component's codec against every test vector of xep-spec: parse, serialise, compare. */
class TestVectorRoundTripTest {

    private static Element vector(String name) throws Exception {
        return DocumentHelper.parseText(TestVectors.stanza(name)).getRootElement();
    }

    private static Element requirementsIn(Element stanza) {
        for (Element child : stanza.elements()) {
            if (RequirementsRequest.ELEMENT.equals(child.getName())) {
                return child;
            }
        }
        throw new AssertionError("no <consistency-requirements/> in " + stanza.asXML());
    }

    static Stream<String> validRequests() {
        return TestVectors.list().stream().filter(n -> (n.startsWith("requirements-set") || n.startsWith("requirements-get")
                || n.equals("paper-listing-1") || n.equals("paper-listing-2")) && !n.contains("result"));
    }

    static Stream<String> malformedRequests() {
        return TestVectors.list().stream().filter(n -> n.startsWith("error-bad-request") && n.endsWith("-request"));
    }

    static Stream<String> results() {
        return TestVectors.list().stream().filter(n -> n.contains("-result") && !n.startsWith("disco"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validRequests")
    void everyValidRequestParses(String name) throws Exception {
        RequirementsRequest r = RequirementsRequest.parse(requirementsIn(vector(name)));
        assertThat(r.namespace()).isIn(XmlNamespaces.RECONMUC, XmlNamespaces.JOOM);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedRequests")
    void everyMalformedRequestIsABadRequest(String name) {
        assertThatThrownBy(() -> RequirementsRequest.parse(requirementsIn(vector(name))))
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProtocolException.Kind.BAD_REQUEST);
                    assertThat(e.getMessage()).isNotBlank();
                });
    }

    /** A result vector, re-rendered from what it says, is the same element (order and all). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("results")
    void everyResultRoundTrips(String name) throws Exception {
        Element expected = requirementsIn(vector(name));
        Requirements effective = null;
        if (expected.element("standard") == null) {
            java.util.LinkedHashSet<FilterKey> filters = new java.util.LinkedHashSet<>();
            Element filter = expected.element("filter");
            if (filter != null) {
                for (Element e : filter.elements()) {
                    filters.add(e.attributeValue("element").equals("topic") ? FilterKey.topic(e.attributeValue("value"))
                            : FilterKey.nick(e.attributeValue("value")));
                }
            }
            effective = new Requirements(filters, Long.parseLong(expected.elementText("time")) * 1000,
                    Integer.parseInt(expected.elementText("volume")), Aggregation.parse(expected.elementText("aggregation")));
        }
        Element rendered = RequirementsRequest.render(expected.getNamespaceURI(), effective);
        Element level = expected.element(PresencesElement.ELEMENT);
        if (level != null) {   // a presence level other than all ends the result (reconmuc.md §5.17 rule 7)
            rendered.add(PresencesElement.parse(level).render(expected.getNamespaceURI()));
        }
        assertThat(normalized(rendered)).isEqualTo(normalized(expected));
    }

    @Test
    void theBatchVectorsDecodeToTheSameItems() throws Exception {
        Element plain = vector("batch-plain-3").element(QName.get("batch", XmlNamespaces.RECONMUC));
        Element deflated = vector("batch-deflate-3").element(QName.get("batch", XmlNamespaces.RECONMUC));
        List<String> a = Dom4jBatches.items(plain).stream().map(TestVectorRoundTripTest::normalized).toList();
        List<String> b = Dom4jBatches.items(deflated).stream().map(TestVectorRoundTripTest::normalized).toList();
        assertThat(a).hasSize(3).isEqualTo(b);
    }

    @Test
    void topicsRepliesAndAddressesAreReadFromTheMessageVectors() throws Exception {
        assertThat(MessageMarks.topics(vector("paper-listing-3"))).containsExactly(FilterKey.topic("xmpp"));
        assertThat(MessageMarks.topics(vector("topic-message-legacy"))).isNotEmpty();
        assertThat(MessageMarks.topics(vector("hashtag-message"))).isNotEmpty();
        assertThat(MessageMarks.replyTo(vector("reply-message"))).isNotBlank();
        Element mention = vector("mention-message");
        String room = mention.attributeValue("to");
        assertThat(MessageMarks.addressed(mention, room)).isNotEmpty();
        assertThat(MessageMarks.addressed(vector("addressed-message"), vector("addressed-message").attributeValue("to")))
                .isNotEmpty();
    }

    /** XML text with insignificant white space and quote style removed, empty elements written one way. */
    private static String normalized(Element e) {
        return e.asXML().replaceAll(">\\s+<", "><").replaceAll("<([^<>/]+)></[^<>]+>", "<$1/>").replace('\'', '"');
    }
}
