package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.dom4j.Element;
import org.dom4j.QName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.testing.Dom4jBatches;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/** The relaxed-consistency conversations of xep-spec/reconmuc.md, through the whole room. */
class RelaxedConsistencyTest {
    static final String ALICE = "alice@wonderland.lit/laptop";
    static final String BOB = "bob@builder.lit/phone";
    static final String CAROL = "carol@xmas.lit/pc";
    private static final String NS = XmlNamespaces.RECONMUC;

    private final MucBench muc = new MucBench();

    @BeforeEach
    void aliceBobAndCarolAreIn() {
        muc.join(ALICE, ROOM, "Alice");
        muc.join(BOB, ROOM, "Bob");
        muc.join(CAROL, ROOM, "Carol");
    }

    private Packet require(String who, String ns, String body) {
        muc.send("<iq from='" + who + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='" + ns + "'>"
                + body + "</consistency-requirements></iq>");
        return muc.replyTo(who, "req");
    }

    private static String topic(String t) {
        return "<filter-entry element='topic' value='" + t + "' active='true'/>";
    }

    private String post(String who, String body, String extra) {
        muc.send("<message from='" + who + "' to='" + ROOM + "' type='groupchat' id='" + body.hashCode() + "'><body>" + body
                + "</body>" + extra + "</message>");
        Message echo = (Message) muc.lastReceivedBy(who);
        return echo.getChildElement("stanza-id", XmlNamespaces.STANZA_ID).attributeValue("id");
    }

    private static List<String> bodies(List<Packet> packets) {
        List<String> bodies = new ArrayList<>();
        for (Packet p : packets) {
            Message m = (Message) p;
            if (m.getBody() != null) {
                bodies.add(m.getBody());
            }
            Element batch = m.getElement().element(QName.get("batch", NS));
            if (batch != null) {
                try {
                    for (Element f : Dom4jBatches.items(batch)) {
                        bodies.add("[batch] " + f.element("message").elementText("body"));
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
        }
        return bodies;
    }

    @Test
    void figureOneGossipAtOnceMovieWhenTheTimeBoundExpires() {
        Packet result = require(ALICE, NS, "<filter>" + topic("gossip") + "</filter><time>60</time>");
        assertThat(result.getElement().attributeValue("type")).isEqualTo("result");

        post(BOB, "Did you hear? #gossip", "");
        assertThat(bodies(muc.receivedBy(ALICE))).containsExactly("Did you hear? #gossip");

        muc.clock.advance(Duration.ofSeconds(5));
        post(BOB, "The new movie is out", "<topic xmlns='" + NS + "'>movie</topic>");
        assertThat(muc.receivedBy(ALICE)).as("retained").isEmpty();
        assertThat(bodies(muc.receivedBy(CAROL))).as("standard occupants get it at once").hasSize(2);

        post(ALICE, "my own words", "");
        muc.advance(Duration.ofSeconds(59));
        assertThat(muc.receivedBy(ALICE)).isEmpty();
        muc.advance(Duration.ofSeconds(1));
        List<Packet> flushed = muc.receivedBy(ALICE);
        assertThat(bodies(flushed)).containsExactly("[batch] The new movie is out");
        Element item = flushed.get(0).getElement().element(QName.get("batch", NS)).element("forwarded");
        assertThat(item.element("delay").attributeValue("stamp")).isEqualTo("2026-01-01T10:00:05Z");
        assertThat(item.element("message").element(QName.get("stanza-id", XmlNamespaces.STANZA_ID))).isNotNull();
    }

    @Test
    void aliceAsksForCompactBatchesAndReadsTheSameMessagesWithTheirStanzaIdsAndTimes() throws Exception {
        require(ALICE, NS, "<volume>3</volume><aggregation>compact</aggregation>");
        List<String> ids = new ArrayList<>();
        ids.add(post(BOB, "one", "<topic xmlns='" + NS + "'>movies</topic>"));
        muc.clock.advance(Duration.ofSeconds(7));
        ids.add(post(CAROL, "two &amp; &lt;three&gt;", ""));
        ids.add(post(BOB, "four", "<reply xmlns='urn:xmpp:reply:0' to='" + ROOM + "/Carol' id='" + ids.get(1) + "'/>"));
        List<Packet> alice = muc.receivedBy(ALICE);
        assertThat(alice).hasSize(1);
        Element batch = alice.get(0).getElement().element(QName.get("batch", NS));
        assertThat(batch.attributeValue("form")).isEqualTo("compact");
        assertThat(alice.get(0).getID()).as("a compact batch carries no id").isNull();
        List<Element> items = Dom4jBatches.items(batch, ROOM, new org.reconmuc.codec.batch.BatchDecoder());
        assertThat(items).extracting(f -> f.element("message").elementText("body")).containsExactly("one", "two & <three>", "four");
        assertThat(items).extracting(f -> f.element("message").element(QName.get("stanza-id", XmlNamespaces.STANZA_ID))
                .attributeValue("id")).isEqualTo(ids);
        assertThat(items).extracting(f -> f.element("delay").attributeValue("stamp"))
                .containsExactly("2026-01-01T10:00:00Z", "2026-01-01T10:00:07Z", "2026-01-01T10:00:07Z");
        assertThat(items.get(0).element("message").element(QName.get("topic", NS)).getText()).isEqualTo("movies");
        assertThat(items.get(2).element("message").element(QName.get("reply", "urn:xmpp:reply:0")).attributeValue("id"))
                .isEqualTo(ids.get(1));
        assertThat(items.get(1).element("message").attributeValue("from")).isEqualTo(ROOM + "/Carol");
    }

    @Test
    void aliceOnCompactDeflateGetsOneStreamThatStartsAnewWhenSheChangesHerRequirementsNotWhenDaveComesIn() throws Exception {
        require(ALICE, NS, "<volume>2</volume><aggregation>compact-deflate</aggregation>");
        org.reconmuc.codec.batch.BatchDecoder alicesDecoder = new org.reconmuc.codec.batch.BatchDecoder();
        List<String> numbers = new ArrayList<>();
        List<String> read = new ArrayList<>();
        Runnable twoMessages = () -> {
            post(BOB, "the same words again and again " + read.size(), "");
            post(BOB, "the same words again and again " + (read.size() + 1), "");
            for (Packet p : muc.receivedBy(ALICE)) {
                Element batch = p.getElement().element(QName.get("batch", NS));
                assertThat(batch).as("only batches reach Alice: " + p.toXML()).isNotNull();
                numbers.add(batch.attributeValue("n"));
                try {
                    for (Element f : Dom4jBatches.items(batch, ROOM, alicesDecoder)) {
                        read.add(f.element("message").elementText("body"));
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
        };
        twoMessages.run();
        twoMessages.run();
        require(ALICE, NS, "<time>30</time>");
        muc.receivedBy(ALICE);
        twoMessages.run();
        muc.join("dave@example.org/x", ROOM, "Dave");
        muc.receivedBy(ALICE);
        twoMessages.run();
        twoMessages.run();
        // Dave may read in the room's archive everything Alice's stream holds: it goes on (StreamsOnEntryTest).
        assertThat(numbers).containsExactly("1", "2", "1", "2", "3");
        assertThat(read).hasSize(10).allMatch(b -> b.startsWith("the same words again and again"));
    }

    @Test
    void aReplyReachesItsParentsAuthorAtOnce() {
        require(ALICE, NS, "<time>600</time>");
        String question = post(ALICE, "Anyone for tea?", "");
        post(BOB, "Yes please", "<reply xmlns='urn:xmpp:reply:0' to='" + ROOM + "/Alice' id='" + question + "'/>");
        assertThat(bodies(muc.receivedBy(ALICE))).containsExactly("Yes please");
    }

    @Test
    void nobodySeesAReplyBeforeItsParent() {
        require(CAROL, NS, "<time>600</time>");
        String parent = post(ALICE, "Where is the key?", "");
        post(BOB, "unrelated chatter", "");
        assertThat(muc.receivedBy(CAROL)).isEmpty();
        post(BOB, "Carol: it is under the mat", "<reply xmlns='urn:xmpp:reply:0' to='" + ROOM + "/Alice' id='" + parent + "'/>");
        List<Packet> carol = muc.receivedBy(CAROL);
        // The retained parent goes first, as a release in her aggregation, then the reply itself.
        assertThat(bodies(carol)).containsExactly("[batch] Where is the key?", "Carol: it is under the mat");
        muc.advance(Duration.ofSeconds(600));
        assertThat(bodies(muc.receivedBy(CAROL))).containsExactly("[batch] unrelated chatter");
    }

    @Test
    void nobodySeesAReactionBeforeTheMessageItIsFor() {
        require(CAROL, NS, "<time>600</time>");
        require(ALICE, NS, "<time>600</time>");
        String question = post(ALICE, "Who baked the tarts?", "");
        muc.clear();

        // Bob reacts (XEP-0444: no body, the message's stanza-id).
        muc.send("<message from='" + BOB + "' to='" + ROOM + "' type='groupchat' id='react-1'><reactions xmlns='"
                + XmlNamespaces.REACTIONS + "' id='" + question + "'><reaction>\uD83D\uDC4D</reaction></reactions>"
                + "<store xmlns='urn:xmpp:hints'/></message>");
        // Bob (standard) gets it back at once, with the room's stanza-id like any logged message.
        Message echo = (Message) muc.lastReceivedBy(BOB);
        assertThat(echo.getChildElement("reactions", XmlNamespaces.REACTIONS)).isNotNull();
        assertThat(echo.getChildElement("stanza-id", XmlNamespaces.STANZA_ID)).isNotNull();
        // Alice, whose message it is, gets it at once, as she would a reply; Carol still holds the tarts.
        List<Packet> alice = muc.receivedBy(ALICE);
        assertThat(alice).hasSize(1);
        assertThat(((Message) alice.get(0)).getChildElement("reactions", XmlNamespaces.REACTIONS)).isNotNull();
        assertThat(muc.receivedBy(CAROL)).isEmpty();

        // Carol's flush: the message, then the reaction to it, in one batch.
        muc.advance(Duration.ofSeconds(600));
        List<Packet> carol = muc.receivedBy(CAROL);
        assertThat(carol).hasSize(1);
        List<Element> items;
        try {
            items = Dom4jBatches.items(carol.get(0).getElement().element(QName.get("batch", NS)));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertThat(items).hasSize(2);
        assertThat(items.get(0).element("message").elementText("body")).isEqualTo("Who baked the tarts?");
        assertThat(items.get(1).element("message").element(QName.get("reactions", XmlNamespaces.REACTIONS))
                .attributeValue("id")).isEqualTo(question);
    }

    @Test
    void theVolumeBoundFlushesOneBatchInRoomOrder() {
        require(ALICE, NS, "<time>600</time><volume>3</volume>");
        post(BOB, "one", "");
        post(CAROL, "two", "");
        assertThat(muc.receivedBy(ALICE)).isEmpty();
        post(BOB, "three", "");
        List<Packet> alice = muc.receivedBy(ALICE);
        assertThat(alice).hasSize(1);
        assertThat(bodies(alice)).containsExactly("[batch] one", "[batch] two", "[batch] three");
    }

    @Test
    void switchingTopicReleasesThatTopicsBacklogAtOnce() {
        require(ALICE, NS, "<filter>" + topic("gossip") + "</filter><time>600</time>");
        post(BOB, "first #movie", "");
        post(BOB, "some #sports", "");
        post(BOB, "second #movie", "");
        assertThat(muc.receivedBy(ALICE)).isEmpty();
        Packet result = require(ALICE, NS, "<filter><filter-entry element='topic' value='gossip' active='false'/>"
                + topic("movie") + "</filter>");
        List<Packet> alice = muc.receivedBy(ALICE);
        assertThat(alice).as("one release").hasSize(1);
        assertThat(bodies(alice)).containsExactly("[batch] first #movie", "[batch] second #movie");
        Element effective = result.getElement().element("consistency-requirements");
        assertThat(effective.element("filter").elements()).extracting(e -> e.attributeValue("value")).containsExactly("movie");
        assertThat(effective.elementText("time")).isEqualTo("600");
    }

    @Test
    void thePapersListingsAreAcceptedVerbatimAndAnsweredInTheirNamespace() {
        muc.send("<iq from='" + ALICE + "' to='" + ROOM + "' type='set'>"
                + "<consistency-requirements xmlns='http://joom.com/extensions'><filter>"
                + "<filter-entry active='true' element='topic' value='xmpp'/>"
                + "<filter-entry active='true' element='topic' value='android'/>"
                + "<filter-entry active='true' element='topic' value='chess'/>"
                + "</filter><time>60</time><volume>20</volume></consistency-requirements></iq>");
        muc.send("<iq from='" + ALICE + "' to='" + ROOM + "' type='set'>"
                + "<consistency-requirements xmlns='http://joom.com/extensions'><filter>"
                + "<filter-entry element='topic' value='xmpp' active='false'/>"
                + "<filter-entry element='topic' value='pubsub' active='true'/>"
                + "</filter></consistency-requirements></iq>");
        Element effective = muc.lastReceivedBy(ALICE).getElement().element("consistency-requirements");
        assertThat(effective.getNamespaceURI()).isEqualTo("http://joom.com/extensions");
        assertThat(effective.element("filter").elements()).extracting(e -> e.attributeValue("value"))
                .containsExactlyInAnyOrder("android", "chess", "pubsub");
        assertThat(effective.elementText("time")).isEqualTo("60");
        assertThat(effective.elementText("volume")).isEqualTo("20");

        muc.send("<message from='" + BOB + "' to='" + ROOM + "' type='groupchat'><body>Hi there! #xmpp</body>"
                + "<topic xmlns='http://joom.com/extensions'>pubsub</topic></message>");
        assertThat(bodies(muc.receivedBy(ALICE))).containsExactly("Hi there! #xmpp");
    }

    @Test
    void aDeflateBatchDecodesToTheSameItemsAsAPlainOne() {
        require(ALICE, NS, "<time>600</time><volume>2</volume><aggregation>deflate</aggregation>");
        require(CAROL, NS, "<time>600</time><volume>2</volume><aggregation>plain</aggregation>");
        post(BOB, "alpha \u00e9\u00e8", "");
        post(BOB, "beta", "");
        Element deflated = muc.lastReceivedBy(ALICE).getElement().element(QName.get("batch", NS));
        Element plain = muc.lastReceivedBy(CAROL).getElement().element(QName.get("batch", NS));
        assertThat(deflated.attributeValue("encoding")).isEqualTo("deflate");
        assertThat(Integer.parseInt(deflated.attributeValue("compressed-size")))
                .isLessThan(Integer.parseInt(deflated.attributeValue("size")));
        try {
            // <x></x> and <x/> are the same element; compare with empty elements written one way.
            List<String> a = Dom4jBatches.items(deflated).stream().map(e -> e.asXML().replaceAll("<([^<>/]+)></[^<>]+>", "<$1/>")).toList();
            List<String> b = Dom4jBatches.items(plain).stream().map(e -> e.asXML().replaceAll("<([^<>/]+)></[^<>]+>", "<$1/>")).toList();
            assertThat(a).isEqualTo(b).hasSize(2);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void withoutAggregationEachRetainedMessageComesOnItsOwnWithItsDelay() {
        require(ALICE, NS, "<time>30</time><aggregation>none</aggregation>");
        post(BOB, "one", "");
        post(BOB, "two", "");
        muc.advance(Duration.ofSeconds(30));
        List<Packet> alice = muc.receivedBy(ALICE);
        assertThat(bodies(alice)).containsExactly("one", "two");
        assertThat(alice).allMatch(p -> ((Message) p).getChildElement("delay", XmlNamespaces.DELAY) != null);
    }

    @Test
    void backToStandardFlushesWhatWasRetained() {
        require(ALICE, NS, "<time>600</time>");
        post(BOB, "kept", "");
        Packet result = require(ALICE, NS, "<standard/>");
        assertThat(result.getElement().element("consistency-requirements").element("standard")).isNotNull();
        assertThat(bodies(muc.receivedBy(ALICE))).containsExactly("[batch] kept");
        post(BOB, "live again", "");
        assertThat(bodies(muc.receivedBy(ALICE))).containsExactly("live again");
    }

    @Test
    void presencesSubjectsAndPrivateMessagesAreNeverRetained() {
        require(ALICE, NS, "<time>600</time>");
        muc.send("<message from='" + BOB + "' to='" + ROOM + "/Alice' type='chat'><body>psst</body></message>");
        muc.send("<presence from='" + BOB + "' to='" + ROOM + "/Bob'><show>away</show></presence>");
        muc.send("<message from='" + ALICE + "' to='" + ROOM + "' type='groupchat'><subject>Tea</subject></message>");
        List<Packet> alice = muc.receivedBy(ALICE);
        assertThat(alice).extracting(p -> p.getElement().getName()).containsExactly("message", "presence", "message");
    }

    @Test
    void aNickChangeKeepsTheRequirementsAndLeavingDropsThem() {
        require(ALICE, NS, "<filter>" + topic("gossip") + "</filter><time>600</time>");
        muc.send("<presence from='" + ALICE + "' to='" + ROOM + "/Alicia'/>");
        muc.clear();
        post(BOB, "still relaxed #movie", "");
        assertThat(muc.receivedBy(ALICE)).isEmpty();
        muc.send("<presence from='" + ALICE + "' to='" + ROOM + "/Alicia' type='unavailable'/>");
        muc.join(ALICE, ROOM, "Alice");
        post(BOB, "after rejoining #movie", "");
        assertThat(bodies(muc.receivedBy(ALICE))).containsExactly("after rejoining #movie");
    }

    @Test
    void badRequirementsGetTheRightErrorAndChangeNothing() {
        require(ALICE, NS, "<filter>" + topic("gossip") + "</filter><time>60</time><volume>10</volume>");
        assertThat(errorCondition(require(ALICE, NS, "<time>0</time>"))).isEqualTo("bad-request");
        assertThat(errorCondition(require(ALICE, NS, "<time>-5</time>"))).isEqualTo("bad-request");
        assertThat(errorCondition(require(ALICE, NS, "<volume>lots</volume>"))).isEqualTo("bad-request");
        assertThat(errorCondition(require(ALICE, NS, "<volume>99999999999999999999</volume>"))).isEqualTo("bad-request");
        assertThat(errorCondition(require(ALICE, NS, "<colour>red</colour>"))).isEqualTo("bad-request");
        assertThat(errorCondition(require(ALICE, NS, "<aggregation>zip</aggregation>"))).isEqualTo("bad-request");
        assertThat(errorCondition(require(ALICE, NS, "<filter><filter-entry element='colour' value='red'/></filter>")))
                .isEqualTo("bad-request");
        Packet tooBig = require(ALICE, NS, "<volume>101</volume>");
        assertThat(errorCondition(tooBig)).isEqualTo("policy-violation");
        assertThat(MucBench.errorText(tooBig)).contains("history size");
        assertThat(errorCondition(require(ALICE, NS, "<time>86401</time>"))).isEqualTo("policy-violation");
        StringBuilder many = new StringBuilder("<filter>");
        for (int i = 0; i < 40; i++) {
            many.append(topic("t" + i));
        }
        assertThat(errorCondition(require(ALICE, NS, many + "</filter>"))).isEqualTo("policy-violation");

        muc.send("<iq from='" + ALICE + "' to='" + ROOM + "' type='get' id='g'><consistency-requirements xmlns='" + NS + "'/></iq>");
        Element effective = muc.lastReceivedBy(ALICE).getElement().element("consistency-requirements");
        assertThat(effective.elementText("time")).isEqualTo("60");
        assertThat(effective.elementText("volume")).isEqualTo("10");
        assertThat(effective.element("filter").elements()).hasSize(1);

        Packet stranger = require("mallory@evil.lit/x", NS, "<time>5</time>");
        assertThat(errorCondition(stranger)).isEqualTo("not-acceptable");
    }

    @Test
    void anEmptyOrOversizedTopicNeverCostsTheMessage() {
        require(ALICE, NS, "<filter>" + topic("gossip") + "</filter><time>600</time>");
        post(BOB, "empty topic", "<topic xmlns='" + NS + "'>#</topic><topic xmlns='" + NS + "'>gossip</topic>");
        post(BOB, "huge topic", "<topic xmlns='" + NS + "'>" + "x".repeat(500) + "</topic>");
        assertThat(bodies(muc.receivedBy(ALICE))).containsExactly("empty topic");
        assertThat(bodies(muc.receivedBy(CAROL))).containsExactly("empty topic", "huge topic");
    }

    @Test
    void theRoomAdvertisesTheProtocolAndItsLimits() {
        muc.send("<iq from='" + ALICE + "' to='" + ROOM + "' type='get' id='d'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        Element query = muc.lastReceivedBy(ALICE).getElement().element("query");
        assertThat(query.elements("feature")).extracting(f -> f.attributeValue("var")).contains(NS);
        assertThat(query.elements("x")).anySatisfy(x -> assertThat(x.asXML()).contains(NS + "#limits").contains("max-volume"));
    }
}
