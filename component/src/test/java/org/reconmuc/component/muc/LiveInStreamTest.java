package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;

import java.time.Duration;
import java.util.List;
import org.dom4j.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.DecodedBatch;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * Aggregation {@code compact-deflate-live} (reconmuc.md §4.12, §5.9 rules 8.6 and 8.7): what Juliet
 * gets at once travels in each of her sessions' live streams as a batch's live last item, carrying
 * everything retained for her; nothing but groupchat messages with a body ever enters a stream.
 * With {@code compact-live} the same batch is a compact one.
 */
class LiveInStreamTest {
    private static final String JULIET_LAPTOP = "juliet@capulet.lit/laptop";
    private static final String JULIET_PHONE = "juliet@capulet.lit/phone";
    private static final String ROMEO = "romeo@montague.lit/orchard";
    private static final String NURSE = "nurse@capulet.lit/x";

    private final MucBench muc = new MucBench();
    private final BatchDecoder laptop = new BatchDecoder();
    private final BatchDecoder phone = new BatchDecoder();

    @BeforeEach
    void julietFollowsBalconyWithLiveItemsFromTwoSessions() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET_LAPTOP, ROOM, "Juliet");
        muc.join(JULIET_PHONE, ROOM, "Juliet");
        muc.join(NURSE, ROOM, "Nurse");
        muc.send("<iq from='" + JULIET_LAPTOP + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='"
                + XmlNamespaces.RECONMUC + "'><filter><filter-entry element='topic' value='balcony'/></filter>"
                + "<time>600</time><volume>20</volume><aggregation>compact-deflate-live</aggregation>"
                + "</consistency-requirements></iq>");
        assertThat(muc.replyTo(JULIET_LAPTOP, "req").getElement().attributeValue("type")).isEqualTo("result");
        muc.clear();
    }

    private static Element batchOf(Packet p) {
        return p.getElement().element(org.dom4j.QName.get("batch", XmlNamespaces.RECONMUC));
    }

    private static DecodedBatch decode(Packet p, BatchDecoder decoder) throws Exception {
        Element batch = batchOf(p);
        assertThat(batch).as("a batch: " + p.toXML()).isNotNull();
        return decoder.decode(batch.asXML(), ROOM);
    }

    @Test
    void romeosMessageOnHerTopicReachesEachSessionAsTheLiveItemAfterWhatWasRetained() throws Exception {
        muc.say(NURSE, ROOM, "Anon, good nurse!");
        muc.say(NURSE, ROOM, "Madam, your mother craves a word");
        assertThat(muc.receivedBy(JULIET_LAPTOP)).as("retained").isEmpty();

        muc.say(ROMEO, ROOM, "But soft, what light through yonder window breaks? #balcony");
        for (String session : List.of(JULIET_LAPTOP, JULIET_PHONE)) {
            List<Packet> got = muc.receivedBy(session);
            assertThat(got).as("one stanza for " + session).hasSize(1);
            DecodedBatch batch = decode(got.get(0), session.equals(JULIET_LAPTOP) ? laptop : phone);
            assertThat(batch.live()).isTrue();
            assertThat(batch.items()).hasSize(3);
            assertThat(batch.items().get(0)).contains("Anon, good nurse!").contains("<delay ");
            assertThat(batch.items().get(2)).contains("yonder window").doesNotContain("<delay ");
            assertThat(batchOf(got.get(0)).attributeValue("n")).isEqualTo("1");
            assertThat(batchOf(got.get(0)).attributes()).as("a live stream's batch says only its encoding and number")
                    .extracting(org.dom4j.Attribute::getName).containsExactlyInAnyOrder("encoding", "n");
            assertThat(batchOf(got.get(0)).attributeValue("encoding")).isEqualTo("deflate-live");
        }

        // Nothing retained now: the next message at once is a batch of one live item, in the same stream.
        muc.say(JULIET_LAPTOP, ROOM, "Romeo, Romeo #balcony");
        Packet echo = muc.lastReceivedBy(JULIET_LAPTOP);
        assertThat(batchOf(echo).attributeValue("n")).isEqualTo("2");
        DecodedBatch echoBatch = decode(echo, laptop);
        assertThat(echoBatch.live()).isTrue();
        assertThat(echoBatch.items()).singleElement().asString().contains("Romeo, Romeo").doesNotContain("<delay ");
        assertThat(((Message) muc.lastReceivedBy(ROMEO)).getBody()).as("standard occupants get the stanza").isEqualTo("Romeo, Romeo #balcony");
    }

    @Test
    void withCompactLiveTheSameMomentIsOneCompactBatchEndingWithTheLiveItem() throws Exception {
        muc.send("<iq from='" + JULIET_PHONE + "' to='" + ROOM + "' type='set' id='compact'><consistency-requirements xmlns='"
                + XmlNamespaces.RECONMUC + "'><aggregation>compact-live</aggregation></consistency-requirements></iq>");
        assertThat(muc.replyTo(JULIET_PHONE, "compact").getElement().attributeValue("type")).isEqualTo("result");
        muc.clear();
        muc.say(NURSE, ROOM, "Anon, good nurse!");
        muc.say(ROMEO, ROOM, "But soft, what light through yonder window breaks? #balcony");
        for (String session : List.of(JULIET_LAPTOP, JULIET_PHONE)) {
            List<Packet> got = muc.receivedBy(session);
            assertThat(got).as("one stanza for " + session).hasSize(1);
            Element batch = batchOf(got.get(0));
            assertThat(batch.attributeValue("form")).isEqualTo("compact");
            assertThat(batch.attributeValue("encoding")).as("a compact batch, no stream").isNull();
            DecodedBatch decoded = decode(got.get(0), session.equals(JULIET_LAPTOP) ? laptop : phone);
            assertThat(decoded.live()).isTrue();
            assertThat(decoded.items()).hasSize(2);
            assertThat(decoded.items().get(0)).contains("Anon, good nurse!").contains("<delay ");
            assertThat(decoded.items().get(1)).contains("yonder window").doesNotContain("<delay ");
        }
    }

    @Test
    void privateMessagesTheSubjectAndBodylessMessagesNeverEnterTheStream() throws Exception {
        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "/Juliet' type='chat' id='pm'><body>meet me</body>"
                + "<x xmlns='http://jabber.org/protocol/muc#user'/></message>");
        muc.send("<message from='" + NURSE + "' to='" + ROOM + "' type='groupchat' id='cs'>"
                + "<composing xmlns='http://jabber.org/protocol/chatstates'/></message>");
        List<Packet> got = muc.receivedBy(JULIET_LAPTOP);
        assertThat(got).isNotEmpty().allSatisfy(p -> assertThat(batchOf(p)).as(p.toXML()).isNull());
        assertThat(got).anySatisfy(p -> assertThat(((Message) p).getBody()).isEqualTo("meet me"));
    }

    @Test
    void withNothingAtOnceTheTimeBoundStillFlushesOnItsOwn() throws Exception {
        muc.say(NURSE, ROOM, "Juliet is late");
        muc.advance(Duration.ofSeconds(600));
        Packet received = muc.lastReceivedBy(JULIET_PHONE);
        DecodedBatch flush = decode(received, phone);
        assertThat(flush.live()).isFalse();
        assertThat(batchOf(received).attributeValue("encoding")).as("the same live stream").isEqualTo("deflate-live");
        assertThat(flush.items()).singleElement().asString().contains("Juliet is late").contains("<delay ");
    }
}
