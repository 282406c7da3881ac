package org.reconmuc.component.muc.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.messages.ArchiveTest.MAM;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.dom4j.Element;
import org.dom4j.QName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.reconmuc.component.testing.Dom4jBatches;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * Taking messages back (reconmuc.md §5.14, XEP-0308, XEP-0424, XEP-0425) through the whole room:
 * the moderator, the archive's tombstone, who may retract what, and deflate streams that carried
 * a message corrected later.
 */
class TakeBackTest {
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String ROMEO = "romeo@montague.lit/orchard";
    private static final String NURSE = "nurse@capulet.lit/x";
    private static final String NS = XmlNamespaces.RECONMUC;

    private final MucBench muc = new MucBench();

    @BeforeEach
    void julietOwnsTheRoomRomeoAndTheNurseAreIn() {
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(NURSE, ROOM, "Nurse");
    }

    private String say(String who, String id, String body) {
        muc.send("<message from='" + who + "' to='" + ROOM + "' type='groupchat' id='" + id + "'><body>" + body + "</body></message>");
        Message echo = (Message) muc.lastReceivedBy(who);
        return echo.getChildElement("stanza-id", XmlNamespaces.STANZA_ID).attributeValue("id");
    }

    private void moderate(String who, String id, String stanzaId, String reason) {
        muc.send("<iq from='" + who + "' to='" + ROOM + "' type='set' id='" + id + "'><moderate xmlns='" + XmlNamespaces.MODERATE
                + "' id='" + stanzaId + "'><retract xmlns='" + XmlNamespaces.RETRACT + "'/><reason>" + reason + "</reason></moderate></iq>");
    }

    @Test
    void julietModeratesRomeosMessageEveryoneIsToldAndTheArchiveKeepsATombstone() {
        String spam = say(ROMEO, "r1", "buy potions");
        muc.clear();

        moderate(JULIET, "mod-1", spam, "Spam");
        assertThat(muc.replyTo(JULIET, "mod-1").getElement().attributeValue("type")).isEqualTo("result");
        for (String who : List.of(JULIET, ROMEO, NURSE)) {
            Message notice = (Message) muc.lastReceivedBy(who);
            assertThat(notice.getFrom().toString()).isEqualTo(ROOM);
            assertThat(notice.getBody()).isNull();
            Element retract = notice.getChildElement("retract", XmlNamespaces.RETRACT);
            assertThat(retract.attributeValue("id")).isEqualTo(spam);
            assertThat(retract.element(QName.get("moderated", XmlNamespaces.MODERATE)).attributeValue("by"))
                    .isEqualTo(ROOM + "/Juliet");
            assertThat(retract.elementText("reason")).isEqualTo("Spam");
        }

        // The nurse reads the archive: the message is its tombstone, under its id.
        muc.send(ArchiveTest.query("q", null, null).replace(ArchiveTest.ROMEO, NURSE));
        Message result = (Message) muc.receivedBy(NURSE).stream()
                .filter(p -> p instanceof Message m && m.getChildElement("result", MAM) != null).findFirst().orElseThrow();
        assertThat(result.getChildElement("result", MAM).attributeValue("id")).isEqualTo(spam);
        Element archived = ArchiveTest.forwardedMessage(result);
        assertThat(archived.element("body")).isNull();
        Element retracted = archived.element(QName.get("retracted", XmlNamespaces.RETRACT));
        assertThat(retracted.attributeValue("stamp")).isNotNull();
        assertThat(retracted.element(QName.get("moderated", XmlNamespaces.MODERATE)).attributeValue("by")).isEqualTo(ROOM + "/Juliet");
        assertThat(retracted.elementText("reason")).isEqualTo("Spam");
        muc.clear();

        // Nobody entering later is shown it as history; moderating it again finds nothing to remove.
        muc.send("<presence from='mercutio@montague.lit/x' to='" + ROOM + "/Mercutio'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(muc.receivedBy("mercutio@montague.lit/x")).noneMatch(p -> p instanceof Message m && m.getBody() != null);
        moderate(JULIET, "mod-2", spam, "again");
        assertThat(errorCondition(muc.replyTo(JULIET, "mod-2"))).isEqualTo("item-not-found");
    }

    @Test
    void onlyModeratorsModerateAndOnlyAuthorsRetract() {
        String julietsLine = say(JULIET, "j1", "my only love sprung from my only hate");
        muc.clear();

        moderate(ROMEO, "mod-1", julietsLine, "no");
        assertThat(errorCondition(muc.replyTo(ROMEO, "mod-1"))).isEqualTo("forbidden");
        moderate(JULIET, "mod-2", "no-such-id", "no");
        assertThat(errorCondition(muc.replyTo(JULIET, "mod-2"))).isEqualTo("item-not-found");
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='set' id='mod-3'><moderate xmlns='" + XmlNamespaces.MODERATE
                + "' id='" + julietsLine + "'/></iq>");
        assertThat(errorCondition(muc.replyTo(JULIET, "mod-3"))).as("nothing to do but retract").isEqualTo("bad-request");

        // Romeo tries to retract Juliet's line: refused, and nobody is told anything.
        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "' type='groupchat' id='r1'><retract xmlns='"
                + XmlNamespaces.RETRACT + "' id='" + julietsLine + "'/><body>retracted</body></message>");
        assertThat(errorCondition(muc.lastReceivedBy(ROMEO))).isEqualTo("forbidden");
        assertThat(muc.receivedBy(JULIET)).isEmpty();
        assertThat(muc.receivedBy(NURSE)).isEmpty();

        // Juliet retracts it herself: everyone gets the retraction.
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='j2'><retract xmlns='"
                + XmlNamespaces.RETRACT + "' id='" + julietsLine + "'/></message>");
        assertThat(((Message) muc.lastReceivedBy(NURSE)).getChildElement("retract", XmlNamespaces.RETRACT)).isNotNull();

        muc.send("<iq type='get' id='info' from='" + NURSE + "' to='" + ROOM + "'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        IQ info = (IQ) muc.replyTo(NURSE, "info");
        assertThat(info.getChildElement().elements("feature").stream().map(f -> f.attributeValue("var")).collect(Collectors.toList()))
                .contains(XmlNamespaces.MODERATE, XmlNamespaces.RETRACT);
    }

    @Test
    void anOlderClientModeratesWithXep0425Version02AndEveryoneIsToldInBothVersions() {
        String spam = say(ROMEO, "r1", "buy potions");
        muc.clear();

        // Juliet's client speaks XEP-0425 0.2 (Conversations, Cheogram): <apply-to/> of XEP-0422.
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='set' id='mod-1'><apply-to xmlns='" + XmlNamespaces.FASTEN
                + "' id='" + spam + "'><moderate xmlns='" + XmlNamespaces.MODERATE_0 + "'><retract xmlns='"
                + XmlNamespaces.RETRACT_0 + "'/><reason>Spam</reason></moderate></apply-to></iq>");
        assertThat(muc.replyTo(JULIET, "mod-1").getElement().attributeValue("type")).isEqualTo("result");
        for (String who : List.of(JULIET, ROMEO, NURSE)) {
            Message notice = (Message) muc.lastReceivedBy(who);
            Element retract = notice.getChildElement("retract", XmlNamespaces.RETRACT);
            assertThat(retract.attributeValue("id")).isEqualTo(spam);
            assertThat(retract.elementText("reason")).isEqualTo("Spam");
            Element applyTo = notice.getChildElement("apply-to", XmlNamespaces.FASTEN);
            assertThat(applyTo.attributeValue("id")).isEqualTo(spam);
            Element moderated = applyTo.element(QName.get("moderated", XmlNamespaces.MODERATE_0));
            assertThat(moderated.attributeValue("by")).isEqualTo(ROOM + "/Juliet");
            assertThat(moderated.element(QName.get("retract", XmlNamespaces.RETRACT_0))).isNotNull();
            assertThat(moderated.elementText("reason")).isEqualTo("Spam");
        }

        // The archive's tombstone reads in both versions too.
        muc.send(ArchiveTest.query("q", null, null).replace(ArchiveTest.ROMEO, NURSE));
        Message result = (Message) muc.receivedBy(NURSE).stream()
                .filter(p -> p instanceof Message m && m.getChildElement("result", MAM) != null).findFirst().orElseThrow();
        Element archived = ArchiveTest.forwardedMessage(result);
        assertThat(archived.element("body")).isNull();
        assertThat(archived.element(QName.get("retracted", XmlNamespaces.RETRACT))).isNotNull();
        Element legacy = archived.element(QName.get("moderated", XmlNamespaces.MODERATE_0));
        assertThat(legacy.attributeValue("by")).isEqualTo(ROOM + "/Juliet");
        assertThat(legacy.element(QName.get("retracted", XmlNamespaces.RETRACT_0)).attributeValue("stamp")).isNotNull();
        assertThat(legacy.elementText("reason")).isEqualTo("Spam");
        muc.clear();

        // Romeo's client tries the same: not a moderator.
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='mod-2'><apply-to xmlns='" + XmlNamespaces.FASTEN
                + "' id='" + spam + "'><moderate xmlns='" + XmlNamespaces.MODERATE_0 + "'><retract xmlns='"
                + XmlNamespaces.RETRACT_0 + "'/></moderate></apply-to></iq>");
        assertThat(errorCondition(muc.replyTo(ROMEO, "mod-2"))).isEqualTo("forbidden");
        // Juliet's client asks for something other than a retraction: refused, naming 0.2's element.
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='set' id='mod-3'><apply-to xmlns='" + XmlNamespaces.FASTEN
                + "' id='" + spam + "'><moderate xmlns='" + XmlNamespaces.MODERATE_0 + "'/></apply-to></iq>");
        Packet refused = muc.replyTo(JULIET, "mod-3");
        assertThat(errorCondition(refused)).isEqualTo("bad-request");
        assertThat(refused.getElement().element("error").elementText("text")).contains(XmlNamespaces.RETRACT_0);

        muc.send("<iq type='get' id='info' from='" + NURSE + "' to='" + ROOM + "'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        IQ info = (IQ) muc.replyTo(NURSE, "info");
        assertThat(info.getChildElement().elements("feature").stream().map(f -> f.attributeValue("var")).collect(Collectors.toList()))
                .contains(XmlNamespaces.MODERATE_0, XmlNamespaces.RETRACT_0);
    }

    @Test
    void romeoRetractsWithXep0424Version03ByHisOriginIdAndTheNurseWhoHeldItNeverSeesEither() throws Exception {
        // The nurse holds everything for ten minutes.
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='" + NS
                + "'><time>600</time></consistency-requirements></iq>");
        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "' type='groupchat' id='r1'><body>meet me at the well</body>"
                + "<origin-id xmlns='" + XmlNamespaces.STANZA_ID + "' id='origin-r1'/></message>");
        say(JULIET, "j1", "which well?");
        muc.clear();

        // Romeo's client (XEP-0424 0.3) names his origin-id in <apply-to/>, with a fallback body.
        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "' type='groupchat' id='r2'><apply-to xmlns='"
                + XmlNamespaces.FASTEN + "' id='origin-r1'><retract xmlns='" + XmlNamespaces.RETRACT_0 + "'/></apply-to>"
                + "<body>This person attempted to retract a previous message, but it's unsupported by your client.</body></message>");
        assertThat(((Message) muc.lastReceivedBy(JULIET)).getChildElement("apply-to", XmlNamespaces.FASTEN)).isNotNull();
        assertThat(muc.receivedBy(NURSE)).isEmpty();

        // The nurse's flush: Juliet's line only — neither Romeo's message nor its retraction.
        muc.advance(Duration.ofMinutes(10));
        List<Packet> toNurse = muc.receivedBy(NURSE);
        assertThat(toNurse).hasSize(1);
        List<Element> items = Dom4jBatches.items(toNurse.get(0).getElement().element(QName.get("batch", NS)));
        assertThat(items).extracting(f -> f.element("message").elementText("body")).containsExactly("which well?");
    }

    @Test
    void aDeflateStreamThatCarriedAMessageStaysReadableAfterItIsCorrectedForSomeoneWhoHeldIt() throws Exception {
        // Romeo gets every message in his deflate stream at once (volume 1); the nurse holds them for ten minutes.
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='" + NS
                + "'><volume>1</volume><aggregation>compact-deflate</aggregation></consistency-requirements></iq>");
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='" + NS
                + "'><time>600</time></consistency-requirements></iq>");
        muc.clear();
        BatchDecoder romeosDecoder = new BatchDecoder();
        List<String> romeoRead = new ArrayList<>();

        say(JULIET, "j1", "the cat is on the balcony");
        read(romeoRead, romeosDecoder);
        // The same length, so only the content tells the forms apart.
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='j2'><body>the dog is on the balcony</body>"
                + "<replace xmlns='" + XmlNamespaces.CORRECT + "' id='j1'/></message>");
        read(romeoRead, romeosDecoder);
        say(JULIET, "j3", "the cat is on the balcony again");
        read(romeoRead, romeosDecoder);
        assertThat(romeoRead).containsExactly("the cat is on the balcony", "the dog is on the balcony",
                "the cat is on the balcony again");

        // The nurse's flush: the message as it ended up, once; never the correction.
        muc.advance(Duration.ofMinutes(10));
        List<Packet> toNurse = muc.receivedBy(NURSE);
        assertThat(toNurse).hasSize(1);
        List<Element> items = Dom4jBatches.items(toNurse.get(0).getElement().element(QName.get("batch", NS)));
        assertThat(items).extracting(f -> f.element("message").elementText("body"))
                .containsExactly("the dog is on the balcony", "the cat is on the balcony again");
        assertThat(items.get(0).element("message").attributeValue("id")).isEqualTo("j1");
        assertThat(items.get(0).element("message").element(QName.get("replace", XmlNamespaces.CORRECT))).isNull();
    }

    private void read(List<String> into, BatchDecoder decoder) throws Exception {
        for (Packet p : muc.receivedBy(ROMEO)) {
            Element batch = p.getElement().element(QName.get("batch", NS));
            if (batch != null) {
                for (Element f : Dom4jBatches.items(batch, ROOM, decoder)) {
                    into.add(f.element("message").elementText("body"));
                }
            }
        }
    }
}
