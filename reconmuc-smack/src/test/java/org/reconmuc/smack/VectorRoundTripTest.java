package org.reconmuc.smack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.jivesoftware.smack.packet.IQ;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.parsing.SmackParsingException;
import org.jivesoftware.smack.util.PacketParserUtils;
import org.jivesoftware.smackx.delay.packet.DelayInformation;
import org.jivesoftware.smackx.forward.packet.Forwarded;
import org.jivesoftware.smackx.sid.element.StanzaIdElement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.MalformedBatchException;
import org.reconmuc.codec.batch.BatchEncoding;
import org.reconmuc.smack.element.Aggregation;
import org.reconmuc.smack.element.BatchElement;
import org.reconmuc.smack.element.ConsistencyRequirements;
import org.reconmuc.smack.element.ConsistencyRequirementsIQ;
import org.reconmuc.smack.element.FilterEntry;
import org.reconmuc.smack.element.PresenceLevel;
import org.reconmuc.smack.element.PresencesElement;
import org.reconmuc.smack.element.TopicElement;
import org.reconmuc.smack.provider.ReconMucProviders;
import org.reconmuc.smack.reply.element.ReplyElement;
import org.reconmuc.spec.TestVectors;

/**
 * Every test vector of xep-spec through Smack with this library's providers: parsed, written
 * again, and its protocol elements (ours, the paper's, XEP-0461) compared with the vector's by
 * meaning. Requests the schema refuses are refused by the parser too.
 */
class VectorRoundTripTest {
    /** The room of the spec's examples. */
    private static final String ROOM = "chat@conference.example.org";

    @BeforeAll
    static void providers() {
        ReconMucProviders.register();
    }

    static Stream<String> vectors() {
        return TestVectors.list().stream();
    }

    /** Requests that break the schema or the rule that standard stands alone (reconmuc.md §11). */
    static boolean refusedByTheSchema(String name) {
        return name.startsWith("error-bad-request") && name.endsWith("-request") && !name.contains("empty-topic");
    }

    /** A vector as it arrives in a client stream: in {@code jabber:client}. */
    static String inStream(String stanza) {
        return stanza.replaceFirst("^<(message|iq|presence)", "<$1 xmlns='jabber:client'");
    }

    static Stanza parse(String name) throws Exception {
        return PacketParserUtils.parseStanza(inStream(TestVectors.stanza(name)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void everyVectorRoundTrips(String name) throws Exception {
        if (refusedByTheSchema(name)) {
            assertThatThrownBy(() -> parse(name)).as(name).isInstanceOf(SmackParsingException.class);
            return;
        }
        Stanza stanza = parse(name);
        List<String> expected = Canonical.ours(TestVectors.stanza(name));
        assertThat(Canonical.ours(stanza.toXML().toString())).as(name).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void requirementsParseIntoTheirModel(String name) throws Exception {
        if (refusedByTheSchema(name) || !TestVectors.stanza(name).contains("<consistency-requirements")) {
            return;
        }
        Stanza stanza = parse(name);
        assertThat(stanza).as(name).isInstanceOf(ConsistencyRequirementsIQ.class);
        ConsistencyRequirementsIQ iq = (ConsistencyRequirementsIQ) stanza;
        assertThat(iq.getChildElementNamespace()).isIn(XmlNamespaces.RECONMUC, XmlNamespaces.JOOM);
        if (iq.getType() == IQ.Type.get) {
            assertThat(iq.getRequirements().isEmpty()).isTrue();
        }
    }

    @Test
    void theListingsSayWhatThePaperSays() throws Exception {
        ConsistencyRequirements listing1 = ((ConsistencyRequirementsIQ) parse("requirements-set-listing-1")).getRequirements();
        assertThat(listing1.getActiveTopics()).containsExactly("xmpp", "android", "chess");
        assertThat(listing1.getTimeSeconds()).isEqualTo(60);
        assertThat(listing1.getVolume()).isEqualTo(20);
        assertThat(listing1.getAggregation()).isNull();
        ConsistencyRequirements listing2 = ((ConsistencyRequirementsIQ) parse("paper-listing-2")).getRequirements();
        assertThat(listing2.getFilter()).containsExactly(FilterEntry.topic("xmpp", false), FilterEntry.topic("pubsub", true));
        ConsistencyRequirements result2 = ((ConsistencyRequirementsIQ) parse("requirements-result-listing-2")).getRequirements();
        assertThat(result2.getActiveTopics()).containsExactly("android", "chess", "pubsub");
        assertThat(result2.getAggregation()).isEqualTo(Aggregation.PLAIN);
        assertThat(((ConsistencyRequirementsIQ) parse("requirements-result-standard")).getRequirements().isStandard()).isTrue();
        assertThat(((ConsistencyRequirementsIQ) parse("requirements-result-defaults")).getRequirements().getFilter()).isEmpty();
    }

    @Test
    void presenceLevelsAreReadAndWrittenAsTheVectorsSayThem() throws Exception {
        ConsistencyRequirements result = ((ConsistencyRequirementsIQ) parse("requirements-result-presences-none")).getRequirements();
        assertThat(result.getPresenceLevel()).isEqualTo(PresenceLevel.NONE);
        ConsistencyRequirements set = ConsistencyRequirements.builder().setPresenceLevel(PresenceLevel.NONE).build();
        assertThat(set).isEqualTo(((ConsistencyRequirementsIQ) parse("requirements-set-presences-none")).getRequirements());
        assertThat(Canonical.ours(new PresencesElement(PresenceLevel.MODERATORS).toXML().toString()))
                .isEqualTo(Canonical.ours(TestVectors.stanza("presence-join-presences-moderators")));
    }

    @Test
    void requestsBuiltHereAreTheVectors() throws Exception {
        ConsistencyRequirementsIQ built = new ConsistencyRequirementsIQ(ConsistencyRequirements.builder()
                .addFilterEntry(FilterEntry.topic("xmpp", false)).addFilterEntry(FilterEntry.topic("pubsub", true)).build());
        assertThat(Canonical.ours(built.toXML().toString())).isEqualTo(Canonical.ours(TestVectors.stanza("requirements-set-listing-2")));
        ConsistencyRequirementsIQ standard = new ConsistencyRequirementsIQ(ConsistencyRequirements.standard());
        assertThat(Canonical.ours(standard.toXML().toString())).isEqualTo(Canonical.ours(TestVectors.stanza("requirements-set-standard")));
        ConsistencyRequirementsIQ defaults = new ConsistencyRequirementsIQ(ConsistencyRequirements.empty());
        assertThat(Canonical.ours(defaults.toXML().toString())).isEqualTo(Canonical.ours(TestVectors.stanza("requirements-set-defaults")));
        ConsistencyRequirementsIQ deflate = new ConsistencyRequirementsIQ(ConsistencyRequirements.builder()
                .setAggregation(Aggregation.DEFLATE).build());
        assertThat(Canonical.ours(deflate.toXML().toString()))
                .isEqualTo(Canonical.ours(TestVectors.stanza("requirements-set-aggregation-deflate")));
    }

    @Test
    void topicsAndRepliesAreRead() throws Exception {
        assertThat(TopicElement.from(parse("topic-message"))).extracting(TopicElement::getTopic).containsExactly("gossip");
        TopicElement legacy = TopicElement.from(parse("paper-listing-3")).get(0);
        assertThat(legacy.getNamespace()).isEqualTo(XmlNamespaces.JOOM);
        assertThat(legacy.getTopic()).isEqualTo("xmpp");
        ReplyElement reply = ReplyElement.from(parse("reply-message"));
        assertThat(reply.getTo()).isEqualTo("chat@conference.example.org/Bob");
        assertThat(reply.getId()).isEqualTo("6d1e0c44-2b0f-4f8e-a1d7-3c5b9e2f7a10");
    }

    @Test
    void bothBatchVectorsDecodeToTheSameThreeMessagesWithTheirDelays() throws Exception {
        BatchDecoder decoder = new BatchDecoder();
        Message plain = (Message) parse("batch-plain-3");
        Message deflated = (Message) parse("batch-deflate-3");
        assertThat(BatchElement.from(deflated).decode(decoder, ROOM).encoding()).isEqualTo(BatchEncoding.DEFLATE);
        List<Message> a = ReconMucManager.unpack(plain, decoder);
        List<Message> b = ReconMucManager.unpack(deflated, decoder);
        assertThat(a).extracting(Message::getBody).containsExactly("Anyone seen the new Almodóvar film?",
                "Yes, on Saturday. It's his best since Volver!", "Tickets for tonight are sold out #cinema");
        assertThat(a).extracting(m -> m.toXML().toString()).isEqualTo(b.stream().map(m -> m.toXML().toString()).toList());
        Message second = a.get(1);
        assertThat(second.getFrom().toString()).isEqualTo("chat@conference.example.org/Carol");
        assertThat(second.getTo().toString()).as("the batch's to applies").isEqualTo("alice@example.org/laptop");
        assertThat(DelayInformation.from(second).getStamp().toInstant().toString()).isEqualTo("2011-03-21T09:00:20Z");
        assertThat(ReplyElement.from(second).getId()).isEqualTo(StanzaIdElement.getStanzaId(a.get(0)).getId());
        assertThat(TopicElement.from(second)).extracting(TopicElement::getTopic).containsExactly("movies");
    }

    @Test
    void theCompactBatchAndTheDeflateStreamDecodeToThePlainBatchsMessages() throws Exception {
        BatchDecoder alice = new BatchDecoder();
        List<String> plain = ReconMucManager.unpack((Message) parse("batch-plain-3"), alice).stream()
                .map(m -> m.toXML().toString()).toList();
        for (String vector : List.of("batch-compact-3", "batch-compact-deflate-1")) {
            assertThat(ReconMucManager.unpack((Message) parse(vector), alice)).as(vector)
                    .extracting(m -> m.toXML().toString()).isEqualTo(plain);
        }
        List<Message> next = ReconMucManager.unpack((Message) parse("batch-compact-deflate-2"), alice);
        assertThat(next).extracting(Message::getBody).containsExactly("There is a matinee on Sunday at four #cinema",
                "Sunday at four, then. Anyone else?");
        assertThat(ReplyElement.from(next.get(1)).getId()).isEqualTo(StanzaIdElement.getStanzaId(next.get(0)).getId());
        assertThat(DelayInformation.from(next.get(1)).getStamp().toInstant().toString()).isEqualTo("2011-03-21T09:02:19Z");
    }

    static Stream<String> malformed() {
        return org.reconmuc.spec.MalformedBatches.list().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void everyMalformedBatchIsRefusedWholeForItsRule(String name) throws Exception {
        org.reconmuc.spec.MalformedBatches.Case c = org.reconmuc.spec.MalformedBatches.read(name);
        BatchDecoder session = new BatchDecoder(1_000_000);
        for (String before : c.after()) {
            ReconMucManager.unpack((Message) parse(before), session);
        }
        Message batch = (Message) PacketParserUtils.parseStanza(inStream(c.stanza()));
        assertThatThrownBy(() -> ReconMucManager.unpack(batch, session)).as(name)
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining(c.refusedBecause());
    }

    @Test
    void reencodedItemsDecodeToTheSameMessages() throws Exception {
        BatchDecoder decoder = new BatchDecoder();
        Message plain = (Message) parse("batch-plain-3");
        List<String> items = BatchElement.from(plain).decode(decoder, ROOM).items();
        for (BatchElement again : List.of(BatchElement.plain(items), BatchElement.deflate(items, 9))) {
            List<Forwarded<Message>> messages = again.getForwardedMessages(decoder, ROOM);
            assertThat(messages).hasSize(3);
            assertThat(messages.get(2).getForwardedStanza().getBody()).isEqualTo("Tickets for tonight are sold out #cinema");
        }
    }

    @Test
    void aTamperedBatchIsRefusedWhole() throws Exception {
        String vector = TestVectors.stanza("batch-deflate-3");
        for (String tampered : List.of(vector.replace("count='3'", "count='4'"), vector.replace("size='1453'", "size='1452'"),
                vector.replace("compressed-size='400'", "compressed-size='401'"), vector.replace("zZTN", "zZTM"))) {
            Message m = PacketParserUtils.parseStanza(inStream(tampered));
            assertThatThrownBy(() -> ReconMucManager.unpack(m, new BatchDecoder()))
                    .isInstanceOf(org.reconmuc.codec.batch.MalformedBatchException.class);
        }
    }
}
