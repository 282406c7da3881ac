package org.reconmuc.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.RawDeflate;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

class TestVectorsTest {

    /** The paper's listings exactly as printed (Alves & Ferreira, CSCW 2011). */
    static final String LISTING_1 = """
            <iq to="chat@conference.jabber.org" type="set">
              <consistency-requirements xmlns="http://joom.com/extensions">
                <filter>
                  <filter-entry active="true" element="topic" value="xmpp"/>
                  <filter-entry active="true" element="topic" value="android"/>
                  <filter-entry active="true" element="topic" value="chess"/>
                </filter>
                <time>60</time>
                <volume>20</volume>
              </consistency-requirements>
            </iq>""";
    static final String LISTING_2 = """
            <iq to="chat@conference.jabber.org" type="set">
              <consistency-requirements xmlns="http://joom.com/extensions">
                <filter>
                  <filter-entry element="topic" value="xmpp" active="false"/>
                  <filter-entry element="topic" value="pubsub" active="true"/>
                </filter>
              </consistency-requirements>
            </iq>""";
    static final String LISTING_3 = """
            <message to="chat@conference.jabber.org">
              <body>Hi there! #xmpp</body>
              <topic xmlns="http://joom.com/extensions">xmpp</topic>
            </message>""";

    /** Requests whose consistency-requirements is invalid against the schema (bad-request). */
    static final Set<String> SCHEMA_INVALID = Set.of(
            "error-bad-request-non-numeric-time-request",
            "error-bad-request-negative-time-request",
            "error-bad-request-zero-volume-request",
            "error-bad-request-missing-filter-entry-attribute-request",
            "error-bad-request-unknown-child-request",
            "error-bad-request-unknown-aggregation-request",
            "error-bad-request-unknown-filter-element-request");

    static Stream<String> vectors() {
        return TestVectors.list().stream();
    }

    @Test
    void thePaperListingsAreByteForByteAsInThePaper() {
        assertThat(TestVectors.stanza("paper-listing-1")).isEqualTo(LISTING_1);
        assertThat(TestVectors.stanza("paper-listing-2")).isEqualTo(LISTING_2);
        assertThat(TestVectors.stanza("paper-listing-3")).isEqualTo(LISTING_3);
        assertThat(TestVectors.stanza("paper-listing-1").getBytes(StandardCharsets.UTF_8))
                .isEqualTo(LISTING_1.getBytes(StandardCharsets.UTF_8));
        // Listings 1 and 2 have no id, as printed.
        assertThat(root("paper-listing-1").hasAttribute("id")).isFalse();
        assertThat(root("paper-listing-2").hasAttribute("id")).isFalse();
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void startsWithACommentThatNamesItsSectionOfTheSpec(String name) {
        String text = TestVectors.read(name);
        assertThat(text).startsWith("<!--");
        String comment = text.substring(4, text.indexOf("-->"));
        assertThat(comment).contains("reconmuc.md");
        Map<String, String> sections = Dom.sections();
        Matcher m = Pattern.compile("(\\d+(?:\\.\\d+)?) \"([^\"]+)\"").matcher(comment.replaceAll("\\s+", " "));
        int cited = 0;
        while (m.find()) {
            cited++;
            assertThat(sections).as(name + " cites section " + m.group(1)).containsKey(m.group(1));
            assertThat(sections.get(m.group(1))).as(name + " cites section " + m.group(1) + " by title")
                    .isEqualTo(m.group(2));
        }
        assertThat(cited).as(name + " cites at least one section by number and title").isPositive();
        assertThat(text).endsWith("\n");
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void parsesAsOneStanza(String name) {
        Element root = root(name);
        assertThat(root.getNamespaceURI()).as("top-level stanzas inherit jabber:client").isNull();
        assertThat(root.getLocalName()).isIn("message", "iq", "presence");
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void ourElementsValidateAgainstTheirSchema(String name) {
        List<Element> ours = Dom.outermostOurs(root(name));
        List<String> errors = new ArrayList<>();
        for (Element e : ours) {
            String error = Dom.validationError(e);
            if (error != null) {
                errors.add(e.getLocalName() + ": " + error);
            }
        }
        if (SCHEMA_INVALID.contains(name)) {
            assertThat(errors).as(name + " is invalid on purpose").isNotEmpty();
        } else {
            assertThat(errors).as(name).isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void iqResultsCarryTheEffectiveRequirementsInOrder(String name) {
        Element root = root(name);
        if (!"iq".equals(root.getLocalName()) || !"result".equals(root.getAttribute("type"))) {
            return;
        }
        for (Element cr : Dom.outermostOurs(root)) {
            List<String> children = TemplateMatcher.children(cr).stream().map(Element::getLocalName).toList();
            assertThat(children).as(name).isIn(List.of("standard"), List.of("filter", "time", "volume", "aggregation"),
                    List.of("filter", "time", "volume", "aggregation", "presences"));
            for (Element entry : Dom.all(cr, cr.getNamespaceURI(), "filter-entry")) {
                assertThat(entry.getAttribute("active")).as("results list active entries, explicitly").isEqualTo("true");
                if ("topic".equals(entry.getAttribute("element"))) {
                    String v = entry.getAttribute("value");
                    assertThat(v).as("normalised topic").isEqualTo(v.toLowerCase(java.util.Locale.ROOT)).doesNotStartWith("#");
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void errorsCarryAConditionATypeAndAText(String name) {
        Element root = root(name);
        if (!"error".equals(root.getAttribute("type"))) {
            return;
        }
        assertThat(name).endsWith("-response");
        Element error = Dom.all(root, XmlNamespaces.JABBER_CLIENT, "error").get(0);
        assertThat(error.getAttribute("type")).isIn("cancel", "modify");
        List<Element> conditions = TemplateMatcher.children(error);
        assertThat(conditions).hasSize(2);
        assertThat(conditions.get(0).getNamespaceURI()).isEqualTo(XmlNamespaces.STANZAS);
        assertThat(conditions.get(0).getLocalName()).isIn("bad-request", "not-acceptable", "policy-violation");
        assertThat(conditions.get(1).getLocalName()).isEqualTo("text");
        assertThat(TemplateMatcher.text(conditions.get(1))).isNotEmpty();
        assertThat(TemplateMatcher.children(conditions.get(1))).as("<text/> is character data only (RFC 6120 §8.3.2)").isEmpty();
        String expected = name.contains("bad-request") ? "bad-request"
                : name.contains("policy-violation") ? "policy-violation" : "not-acceptable";
        assertThat(conditions.get(0).getLocalName()).isEqualTo(expected);
        assertThat(error.getAttribute("type")).isEqualTo("not-acceptable".equals(expected) ? "cancel" : "modify");
        // The answer carries no payload, and answers its request's id.
        assertThat(Dom.outermostOurs(root)).isEmpty();
        String request = name.replace("-response", "-request");
        assertThat(root(request).getAttribute("id")).isEqualTo(root.getAttribute("id"));
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void batchesAreWellFormed(String name) throws Exception {
        for (Element batch : Dom.all(root(name), XmlNamespaces.RECONMUC, "batch")) {
            Element message = (Element) batch.getParentNode();
            assertThat(message.getLocalName()).isEqualTo("message");
            assertThat(message.getAttribute("type")).isEqualTo("groupchat");
            assertThat(message.getAttribute("from")).doesNotContain("/");
            assertThat(Dom.all(message, XmlNamespaces.JABBER_CLIENT, "body")).as("a batch message has no body")
                    .allSatisfy(b -> assertThat(b.getParentNode()).isNotSameAs(message));
            List<Element> items = new ArrayList<>(DomBatches.items(batch, decoderAfter(name)));
            // A live last item (§5.9 rule 8.6) is the message as broadcast at once: no delay.
            Element live = TemplateMatcher.children(items.get(items.size() - 1)).size() == 1 ? items.remove(items.size() - 1) : null;
            if (live != null) {
                assertThat(batch.getAttribute("encoding")).as("live items only in a compact batch or a live stream")
                        .isIn("", "deflate-live");
                assertThat(TemplateMatcher.children(live).get(0).getNamespaceURI()).isEqualTo(XmlNamespaces.JABBER_CLIENT);
            }
            for (Element f : items) {
                List<Element> kids = TemplateMatcher.children(f);
                assertThat(kids).hasSize(2);
                assertThat(kids.get(0).getNamespaceURI()).isEqualTo(XmlNamespaces.DELAY);
                assertThat(kids.get(0).getAttribute("stamp")).isNotEmpty();
                assertThat(kids.get(0).getAttribute("from")).isEqualTo(message.getAttribute("from"));
                Element m = kids.get(1);
                assertThat(m.getNamespaceURI()).isEqualTo(XmlNamespaces.JABBER_CLIENT);
                assertThat(m.hasAttribute("to")).as("forwarded messages carry no 'to'").isFalse();
                assertThat(m.getAttribute("from")).startsWith(message.getAttribute("from") + "/");
                assertThat(Dom.all(m, XmlNamespaces.STANZA_ID, "stanza-id")).hasSize(1);
            }
            List<String> stamps = items.stream().map(f -> TemplateMatcher.children(f).get(0).getAttribute("stamp")).toList();
            assertThat(stamps).as("room order").isSorted();
        }
    }

    @Test
    void everyDeflateBatchInflatesToItsSizeAndToThePlainBatchItems() throws Exception {
        int checked = 0;
        for (String name : TestVectors.list()) {
            for (Element batch : Dom.all(root(name), XmlNamespaces.RECONMUC, "batch")) {
                if (!"deflate".equals(batch.getAttribute("encoding"))) {
                    continue;
                }
                checked++;
                byte[] deflated = Base64.getDecoder().decode(TemplateMatcher.text(batch));
                assertThat(deflated).hasSize(Integer.parseInt(batch.getAttribute("compressed-size")));
                byte[] payload = RawDeflate.inflate(deflated, Integer.parseInt(batch.getAttribute("size")), BatchDecoder.DEFAULT_MAX_INFLATED_BYTES);
                assertThat(payload).hasSize(Integer.parseInt(batch.getAttribute("size")));
                String text = new String(payload, StandardCharsets.UTF_8);
                assertThat(text).as("no white space between or inside the items").doesNotContain("\n").doesNotContain("> <");
                assertThat(text).startsWith("<forwarded xmlns='urn:xmpp:forward:0'>").endsWith("</forwarded>");

                // Each item carries its own namespace declarations: parsed inside a root with no
                // default namespace, every element still has a namespace.
                Element bare = SecureXml.parse("<x>" + text + "</x>").getDocumentElement();
                for (Element item : TemplateMatcher.children(bare)) {
                    assertAllNamespaced(item);
                }

                String plainName = name.replace("deflate", "plain");
                Element plain = Dom.all(root(plainName), XmlNamespaces.RECONMUC, "batch").get(0);
                List<Element> expected = DomBatches.items(plain);
                List<Element> actual = DomBatches.items(batch);
                assertThat(actual).hasSameSizeAs(expected);
                assertThat(batch.getAttribute("count")).isEqualTo(plain.getAttribute("count"));
                for (int i = 0; i < expected.size(); i++) {
                    assertThat(Dom.normalized(actual.get(i)).isEqualNode(Dom.normalized(expected.get(i))))
                            .as(name + " item " + i + " equals " + plainName + " item " + i).isTrue();
                }
                // and re-deflating the payload gives the same bytes back after inflation
                assertThat(RawDeflate.inflate(RawDeflate.deflate(payload, 9), payload.length, payload.length)).isEqualTo(payload);
            }
        }
        assertThat(checked).isPositive();
    }

    /** The vectors a deflate-stream vector continues, in order: its session's batches before it. */
    static final Map<String, List<String>> STREAM_BEFORE = Map.of(
            "batch-compact-deflate-2", List.of("batch-compact-deflate-1"));

    /** A decoder that has read the batches a vector's stream holds before it. */
    private static BatchDecoder decoderAfter(String name) throws Exception {
        BatchDecoder decoder = new BatchDecoder();
        for (String before : STREAM_BEFORE.getOrDefault(name, List.of())) {
            DomBatches.items(Dom.all(root(before), XmlNamespaces.RECONMUC, "batch").get(0), decoder);
        }
        return decoder;
    }

    private static List<Element> batchItems(String name, BatchDecoder decoder) throws Exception {
        return DomBatches.items(Dom.all(root(name), XmlNamespaces.RECONMUC, "batch").get(0), decoder);
    }

    private static void sameItems(List<Element> actual, List<Element> expected, String what) {
        assertThat(actual).as(what).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(Dom.normalized(actual.get(i)).isEqualNode(Dom.normalized(expected.get(i))))
                    .as(what + ", item " + i + ": " + DomBatches.xml(actual.get(i))).isTrue();
        }
    }

    @Test
    void theCompactBatchAndTheFirstOfTheStreamStandForExactlyThePlainBatchsItems() throws Exception {
        List<Element> plain = batchItems("batch-plain-3", new BatchDecoder());
        sameItems(batchItems("batch-compact-3", new BatchDecoder()), plain, "batch-compact-3 against batch-plain-3");
        sameItems(batchItems("batch-compact-deflate-1", new BatchDecoder()), plain,
                "batch-compact-deflate-1 against batch-plain-3");
    }

    @Test
    void theStreamsSecondBatchInflatesOnlyAfterItsFirstAndCostsLessThanAFreshStream() throws Exception {
        BatchDecoder alice = new BatchDecoder();
        batchItems("batch-compact-deflate-1", alice);
        List<Element> second = batchItems("batch-compact-deflate-2", alice);
        assertThat(second).hasSize(2);
        assertThat(TemplateMatcher.children(second.get(1)).get(1).getAttribute("from"))
                .isEqualTo("chat@conference.example.org/Bob");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> batchItems("batch-compact-deflate-2", new BatchDecoder()))
                .isInstanceOf(org.reconmuc.codec.batch.MalformedBatchException.class).hasMessageContaining("n='1'");
        Element batch = Dom.all(root("batch-compact-deflate-2"), XmlNamespaces.RECONMUC, "batch").get(0);
        assertThat(Base64.getDecoder().decode(TemplateMatcher.text(batch))).as("the comment's figure").hasSize(83);
    }

    @Test
    void theLiveBatchCarriesThePlainBatchsItemsAndThenTheMessageAtOnceWithoutADelay() throws Exception {
        List<Element> plain = batchItems("batch-plain-3", new BatchDecoder());
        List<Element> live = batchItems("batch-compact-deflate-live-1", new BatchDecoder());
        assertThat(live).hasSize(4);
        sameItems(live.subList(0, 3), plain, "batch-compact-deflate-live-1's retained items against batch-plain-3");
        List<Element> kids = TemplateMatcher.children(live.get(3));
        assertThat(kids).as("the live item: the message alone").hasSize(1);
        assertThat(kids.get(0).getAttribute("from")).isEqualTo("chat@conference.example.org/Dave");
        assertThat(Dom.all(kids.get(0), XmlNamespaces.STANZA_ID, "stanza-id")).hasSize(1);
        Element batch = Dom.all(root("batch-compact-deflate-live-1"), XmlNamespaces.RECONMUC, "batch").get(0);
        assertThat(batch.getAttributes().getLength()).as("xmlns, encoding and n: nothing else (§5.9 rule 8.7)").isEqualTo(3);
        assertThat(org.reconmuc.codec.batch.Base85.decode(TemplateMatcher.text(batch))).as("the comment's figure").hasSize(LIVE_BYTES);
    }

    @Test
    void theCompactLiveBatchHoldsTheSameItemsAsTheLiveStreamsBatch() throws Exception {
        List<Element> inStream = batchItems("batch-compact-deflate-live-1", new BatchDecoder());
        sameItems(batchItems("batch-compact-live-1", new BatchDecoder()), inStream,
                "batch-compact-live-1 against batch-compact-deflate-live-1");
    }

    /** The compressed bytes of batch-compact-deflate-live-1, as its comment and §4.12 say. */
    private static final int LIVE_BYTES = 351;

    @Test
    void everyExampleInTheSpecIsItsVectorByteForByte() {
        Matcher m = Pattern.compile("Example \\d+ \\(vector `([a-z0-9-]+)`\\): [^\\n]*\\n\\n```xml\\n(.*?)\\n```", Pattern.DOTALL)
                .matcher(Dom.specText());
        int examples = 0;
        while (m.find()) {
            examples++;
            assertThat(m.group(2)).as("example of " + m.group(1)).isEqualTo(TestVectors.stanza(m.group(1)));
        }
        assertThat(examples).isGreaterThan(30);
        for (String v : List.of("paper-listing-1", "paper-listing-2", "paper-listing-3", "batch-plain-3", "batch-deflate-3",
                "batch-compact-3", "batch-compact-deflate-1", "batch-compact-deflate-2")) {
            assertThat(Dom.specText()).contains("(vector `" + v + "`)");
        }
    }

    @Test
    void theNoAggregationDeliveryIsTheFirstBatchItemWithItsDelay() throws Exception {
        Element single = root("delivery-no-aggregation");
        Element first = DomBatches.items(Dom.all(root("batch-plain-3"), XmlNamespaces.RECONMUC, "batch").get(0)).get(0);
        Element delay = TemplateMatcher.children(first).get(0);
        Element broadcast = TemplateMatcher.children(first).get(1);
        assertThat(single.getAttribute("from")).isEqualTo(broadcast.getAttribute("from"));
        assertThat(single.getAttribute("id")).isEqualTo(broadcast.getAttribute("id"));
        Element singleDelay = Dom.all(single, XmlNamespaces.DELAY, "delay").get(0);
        assertThat(singleDelay.getAttribute("stamp")).isEqualTo(delay.getAttribute("stamp"));
        assertThat(Dom.all(single, XmlNamespaces.RECONMUC, "batch")).isEmpty();
    }

    @Test
    void theUrnVersionsOfTheListingsSayTheSameAsTheListings() {
        assertSameRequirements("paper-listing-1", "requirements-set-listing-1");
        assertSameRequirements("paper-listing-2", "requirements-set-listing-2");
        assertSameRequirements("paper-listing-1-result", "requirements-result-listing-1");
        assertSameRequirements("paper-listing-2-result", "requirements-result-listing-2");
        Element legacyTopic = Dom.outermostOurs(root("paper-listing-3")).get(0);
        Element urnTopic = Dom.outermostOurs(root("topic-message-listing-3")).get(0);
        assertThat(legacyTopic.getNamespaceURI()).isEqualTo(XmlNamespaces.JOOM);
        assertThat(urnTopic.getNamespaceURI()).isEqualTo(XmlNamespaces.RECONMUC);
        assertThat(urnTopic.getTextContent()).isEqualTo(legacyTopic.getTextContent());
    }

    private static void assertSameRequirements(String legacy, String urn) {
        Element a = Dom.outermostOurs(root(legacy)).get(0);
        Element b = Dom.outermostOurs(root(urn)).get(0);
        assertThat(a.getNamespaceURI()).isEqualTo(XmlNamespaces.JOOM);
        assertThat(b.getNamespaceURI()).isEqualTo(XmlNamespaces.RECONMUC);
        assertThat(summary(a)).isEqualTo(summary(b));
    }

    /** Elements, attributes (sorted) and text, without namespaces. */
    static String summary(Element e) {
        StringBuilder b = new StringBuilder("<").append(e.getLocalName());
        List<String> attrs = new ArrayList<>();
        for (int i = 0; i < e.getAttributes().getLength(); i++) {
            Node a = e.getAttributes().item(i);
            if (!"http://www.w3.org/2000/xmlns/".equals(a.getNamespaceURI())) {
                attrs.add(a.getNodeName() + "=" + a.getNodeValue());
            }
        }
        attrs.sort(null);
        b.append(attrs);
        List<Element> kids = TemplateMatcher.children(e);
        if (kids.isEmpty()) {
            b.append(TemplateMatcher.text(e));
        }
        for (Element k : kids) {
            b.append(summary(k));
        }
        return b.append(">").toString();
    }

    private static void assertAllNamespaced(Element e) {
        assertThat(e.getNamespaceURI()).as("namespace of " + e.getLocalName()).isNotNull();
        for (Element c : TemplateMatcher.children(e)) {
            assertAllNamespaced(c);
        }
    }

    static Element root(String name) {
        return SecureXml.parse(TestVectors.read(name)).getDocumentElement();
    }
}
