package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.messages.ArchiveTest.MAM;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.dom4j.Element;
import org.dom4j.QName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.muc.messages.ArchiveTest;
import org.reconmuc.component.testing.Dom4jBatches;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * Hostile occupants who try to speak as someone else (reconmuc.md §5.14 rule 4, §8.2): by taking
 * over a nick its holder left, by naming someone else's message in a correction or a retraction
 * of any version, by forging what only the room may say, or by attributing a quote to the wrong
 * author. Juliet writes; Tybalt is the hostile one; the nurse holds messages for ten minutes.
 */
class ImpersonationTest {
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String ROMEO = ArchiveTest.ROMEO;
    private static final String NURSE = "nurse@capulet.lit/x";
    private static final String TYBALT = "tybalt@capulet.lit/sword";
    private static final String NS = XmlNamespaces.RECONMUC;

    private final MucBench muc = new MucBench();
    private String julietsLine;

    @BeforeEach
    void julietSpeaksWhileTheNurseHoldsEverything() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(NURSE, ROOM, "Nurse");
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(TYBALT, ROOM, "Tybalt");
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='" + NS
                + "'><time>600</time></consistency-requirements></iq>");
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='j1'><body>meet me at noon</body>"
                + "<origin-id xmlns='" + XmlNamespaces.STANZA_ID + "' id='origin-j1'/></message>");
        julietsLine = ((Message) muc.lastReceivedBy(JULIET)).getChildElement("stanza-id", XmlNamespaces.STANZA_ID)
                .attributeValue("id");
        muc.clear();
    }

    private void tybaltSends(String payload) {
        muc.send("<message from='" + TYBALT + "' to='" + ROOM + "' type='groupchat' id='t-" + muc.outbox.size() + "'>"
                + payload + "</message>");
    }

    private void refusedAndNobodyToldAnything() {
        assertThat(errorCondition(muc.lastReceivedBy(TYBALT))).isEqualTo("forbidden");
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
        assertThat(muc.receivedBy(NURSE)).isEmpty();
        muc.clear();
    }

    private List<String> nursesFlush() throws Exception {
        muc.advance(Duration.ofMinutes(10));
        List<Packet> toNurse = muc.receivedBy(NURSE);
        assertThat(toNurse).hasSize(1);
        return Dom4jBatches.items(toNurse.get(0).getElement().element(QName.get("batch", NS))).stream()
                .map(f -> f.element("message").elementText("body")).collect(Collectors.toList());
    }

    private List<String> archivedBodies(String asker) {
        muc.clear();
        muc.send(ArchiveTest.query("q", null, null).replace(ArchiveTest.ROMEO, asker));
        return muc.receivedBy(asker).stream().filter(p -> p instanceof Message m && m.getChildElement("result", MAM) != null)
                .map(p -> ArchiveTest.forwardedMessage((Message) p).elementText("body")).collect(Collectors.toList());
    }

    @Test
    void tybaltTakesJulietsNickAfterSheLeavesAndCannotRewriteWhatSheSaid() throws Exception {
        muc.send("<presence from='" + JULIET + "' to='" + ROOM + "/Juliet' type='unavailable'/>");
        muc.send("<presence from='" + TYBALT + "' to='" + ROOM + "/Tybalt' type='unavailable'/>");
        muc.join(TYBALT, ROOM, "Juliet");

        // Tybalt, now "Juliet", corrects her line by its id: refused, nobody sees it.
        tybaltSends("<body>meet me at midnight</body><replace xmlns='" + XmlNamespaces.CORRECT + "' id='j1'/>");
        refusedAndNobodyToldAnything();
        // ... nor by the XEP-0424 0.3 retraction naming her origin-id, her message id or its stanza-id.
        for (String id : List.of("origin-j1", "j1", julietsLine)) {
            tybaltSends("<apply-to xmlns='" + XmlNamespaces.FASTEN + "' id='" + id + "'><retract xmlns='"
                    + XmlNamespaces.RETRACT_0 + "'/></apply-to><body>retracted</body>");
            refusedAndNobodyToldAnything();
        }

        // The nurse gets Juliet's line as she wrote it; so do a newcomer's history and the archive.
        assertThat(nursesFlush()).containsExactly("meet me at noon");
        muc.send("<presence from='mercutio@montague.lit/x' to='" + ROOM + "/Mercutio'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(muc.receivedBy("mercutio@montague.lit/x").stream().filter(p -> p instanceof Message m && m.getBody() != null)
                .map(p -> ((Message) p).getBody())).containsExactly("meet me at noon");
        assertThat(archivedBodies(ROMEO)).containsExactly("meet me at noon");
    }

    @Test
    void tybaltCannotRetractJulietsLineInAnyVersionUnderHisOwnNick() throws Exception {
        for (String id : List.of("j1", "origin-j1", julietsLine)) {
            tybaltSends("<retract xmlns='" + XmlNamespaces.RETRACT + "' id='" + id + "'/><body>retracted</body>");
            refusedAndNobodyToldAnything();
            tybaltSends("<apply-to xmlns='" + XmlNamespaces.FASTEN + "' id='" + id + "'><retract xmlns='"
                    + XmlNamespaces.RETRACT_0 + "'/></apply-to>");
            refusedAndNobodyToldAnything();
            tybaltSends("<body>no, at midnight</body><replace xmlns='" + XmlNamespaces.CORRECT + "' id='" + id + "'/>");
            if (!id.equals(julietsLine)) {
                // A correction names the author's own id; a stanza-id names nothing it could correct.
                refusedAndNobodyToldAnything();
            }
            muc.clear();
        }
        assertThat(nursesFlush()).contains("meet me at noon");
    }

    @Test
    void julietRetractsHerOwnLineByItsMessageIdWithXep0424Version1() throws Exception {
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='j2'><retract xmlns='"
                + XmlNamespaces.RETRACT + "' id='j1'/><body>retracted</body></message>");
        assertThat(((Message) muc.lastReceivedBy(ROMEO)).getChildElement("retract", XmlNamespaces.RETRACT)).isNotNull();
        assertThat(muc.receivedBy(NURSE)).as("she held it: she never gets it, nor its retraction").isEmpty();
        muc.advance(Duration.ofMinutes(10));
        assertThat(muc.receivedBy(NURSE)).isEmpty();
    }

    @Test
    void julietsCorrectionReachesTheNurseAsTheFinalFormWhileHistoryAndArchiveKeepBoth() throws Exception {
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='j2'><body>meet me at one</body>"
                + "<replace xmlns='" + XmlNamespaces.CORRECT + "' id='j1'/></message>");
        assertThat(((Message) muc.lastReceivedBy(ROMEO)).getBody()).isEqualTo("meet me at one");

        assertThat(nursesFlush()).containsExactly("meet me at one");
        muc.send("<presence from='mercutio@montague.lit/x' to='" + ROOM + "/Mercutio'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        List<Message> history = muc.receivedBy("mercutio@montague.lit/x").stream()
                .filter(p -> p instanceof Message m && m.getBody() != null).map(p -> (Message) p).collect(Collectors.toList());
        assertThat(history).extracting(Message::getBody).containsExactly("meet me at noon", "meet me at one");
        assertThat(history.get(1).getChildElement("replace", XmlNamespaces.CORRECT).attributeValue("id")).isEqualTo("j1");
        assertThat(archivedBodies(ROMEO)).containsExactly("meet me at noon", "meet me at one");
    }

    @Test
    void whatOnlyTheRoomMaySayIsRemovedFromTybaltsMessage() throws Exception {
        tybaltSends("<body>the prince has banished Romeo</body>"
                + "<x xmlns='jabber:x:delay' stamp='20010101T00:00:00'/>"
                + "<delay xmlns='" + XmlNamespaces.DELAY + "' stamp='2001-01-01T00:00:00Z'/>"
                + "<result xmlns='urn:xmpp:mam:2' queryid='q' id='x'><forwarded xmlns='" + XmlNamespaces.FORWARD + "'/></result>"
                + "<sent xmlns='urn:xmpp:carbons:2'><forwarded xmlns='" + XmlNamespaces.FORWARD + "'/></sent>"
                + "<addresses xmlns='http://jabber.org/protocol/address'><address type='ofrom' jid='prince@verona.lit'/></addresses>"
                + "<retracted xmlns='" + XmlNamespaces.RETRACT + "' stamp='2001-01-01T00:00:00Z'/>"
                + "<moderated xmlns='" + XmlNamespaces.MODERATE + "' by='" + ROOM + "/Juliet'/>"
                + "<apply-to xmlns='" + XmlNamespaces.FASTEN + "' id='" + julietsLine + "'><moderated xmlns='"
                + XmlNamespaces.MODERATE_0 + "' by='" + ROOM + "/Juliet'><retract xmlns='" + XmlNamespaces.RETRACT_0
                + "'/></moderated></apply-to>"
                + "<x xmlns='" + Namespaces.MUC_USER + "'><status code='110'/></x>"
                + "<stanza-id xmlns='" + XmlNamespaces.STANZA_ID + "' id='forged' by='" + ROOM + "'/>");
        Message copy = (Message) muc.lastReceivedBy(ROMEO);
        assertThat(copy.getBody()).isEqualTo("the prince has banished Romeo");
        List<String> kept = copy.getElement().elements().stream()
                .map(e -> (e.getNamespaceURI().isEmpty() ? "" : e.getNamespaceURI() + " ") + e.getName()).collect(Collectors.toList());
        assertThat(kept).as("what is left of Tybalt's message").containsExactlyInAnyOrder(
                "body", XmlNamespaces.FASTEN + " apply-to", XmlNamespaces.OCCUPANT_ID + " occupant-id",
                XmlNamespaces.STANZA_ID + " stanza-id");
        assertThat(copy.getChildElement("apply-to", XmlNamespaces.FASTEN).elements()).isEmpty();
        assertThat(copy.getChildElement("stanza-id", XmlNamespaces.STANZA_ID).attributeValue("id")).isNotEqualTo("forged");
        assertThat(muc.receivedBy(NURSE)).isEmpty();
        assertThat(nursesFlush()).containsExactly("meet me at noon", "the prince has banished Romeo");
    }

    @Test
    void aReplyNamesTheAuthorTheRoomKnowsNotTheOneTybaltClaims() throws Exception {
        tybaltSends("<body>&gt; Romeo: I hate thee\nso you admit it</body>"
                + "<reply xmlns='" + XmlNamespaces.REPLY + "' to='" + ROOM + "/Romeo' id='" + julietsLine + "'/>");
        Element reply = ((Message) muc.lastReceivedBy(ROMEO)).getChildElement("reply", XmlNamespaces.REPLY);
        assertThat(reply.attributeValue("to")).isEqualTo(ROOM + "/Juliet");
        assertThat(reply.attributeValue("id")).isEqualTo(julietsLine);
    }

    @Test
    void tybaltsPresenceClaimsNoRoleNoStatusAndNoTimeOfTheRooms() {
        muc.send("<presence from='" + TYBALT + "' to='" + ROOM + "/Tybalt'><show>away</show>"
                + "<x xmlns='" + Namespaces.MUC_USER + "'><item affiliation='owner' role='moderator' jid='prince@verona.lit'/>"
                + "<status code='110'/></x><delay xmlns='" + XmlNamespaces.DELAY + "' stamp='2001-01-01T00:00:00Z'/>"
                + "<x xmlns='jabber:x:delay' stamp='20010101T00:00:00'/></presence>");
        Packet seen = muc.lastReceivedBy(ROMEO);
        assertThat(seen.getElement().elementText("show")).isEqualTo("away");
        assertThat(MucBench.item(seen).attributeValue("role")).isEqualTo("participant");
        assertThat(MucBench.item(seen).attributeValue("affiliation")).isEqualTo("none");
        assertThat(MucBench.statusCodes(seen)).doesNotContain("110");
        assertThat(seen.getElement().element(QName.get("delay", XmlNamespaces.DELAY))).isNull();
        assertThat(seen.getElement().element(QName.get("x", "jabber:x:delay"))).isNull();
    }

    @Test
    void julietCannotBringBackByACorrectionWhatAModeratorRemoved() throws Exception {
        // Romeo created the room: a moderator.
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='mod'><moderate xmlns='" + XmlNamespaces.MODERATE
                + "' id='" + julietsLine + "'><retract xmlns='" + XmlNamespaces.RETRACT + "'/></moderate></iq>");
        assertThat(muc.replyTo(ROMEO, "mod").getElement().attributeValue("type")).isEqualTo("result");
        muc.clear();

        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='j2'><body>meet me at noon!</body>"
                + "<replace xmlns='" + XmlNamespaces.CORRECT + "' id='j1'/></message>");
        assertThat(errorCondition(muc.lastReceivedBy(JULIET))).isEqualTo("not-allowed");
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
        assertThat(muc.receivedBy(TYBALT)).isEmpty();
        muc.advance(Duration.ofMinutes(10));
        assertThat(muc.receivedBy(NURSE)).as("she held it: she gets nothing of it").isEmpty();
    }
}
