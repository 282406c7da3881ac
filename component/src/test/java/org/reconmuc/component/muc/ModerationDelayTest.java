package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.dom4j.Element;
import org.dom4j.QName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.testing.Dom4jBatches;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * Messages held back for moderation (Prosody's mod_muc_moderation_delay): the Prince's room holds
 * a participant's message ten seconds for everyone but its sender and the moderators; a
 * moderator who retracts it in time (XEP-0425) makes sure nobody else ever sees it, nor the
 * retraction. Held messages are pointers into the room's history, delivered by its fan-out: a
 * relaxed occupant counts a held message towards its bounds as any other, but never gets it
 * before its release.
 */
class ModerationDelayTest {
    private static final String RELAXED = "urn:reconmuc:0";
    private static final String PRINCE = "escalus@verona.lit/throne";
    private static final String MERCUTIO = "mercutio@verona.lit/street";
    private static final String BENVOLIO = "benvolio@montague.lit/square";
    private static final String TYBALT = "tybalt@capulet.lit/sword";
    private static final String PARIS = "paris@verona.lit/court";

    private final MucBench muc = new MucBench();

    @BeforeEach
    void thePrinceHoldsMessagesTenSeconds() {
        muc.join(PRINCE, ROOM, "Prince");
        muc.join(MERCUTIO, ROOM, "Mercutio");
        muc.join(BENVOLIO, ROOM, "Benvolio");
        muc.send("<iq from='" + PRINCE + "' to='" + ROOM + "' type='set' id='c'><query xmlns='" + Namespaces.MUC_OWNER + "'>"
                + "<x xmlns='jabber:x:data' type='submit'><field var='muc#roomconfig_moderation_delay'><value>10</value></field>"
                + "</x></query></iq>");
        assertThat(muc.replyTo(PRINCE, "c").getElement().attributeValue("type")).isEqualTo("result");
        muc.clear();
    }

    /** {@code who} says {@code body}; returns its stanza-id, from the echo. */
    private String say(String who, String body, String extra) {
        muc.send("<message from='" + who + "' to='" + ROOM + "' type='groupchat' id='" + body.hashCode() + "'><body>" + body
                + "</body>" + extra + "</message>");
        Message echo = (Message) muc.receivedBy(who).stream().filter(p -> p instanceof Message m && body.equals(m.getBody()))
                .reduce((a, b) -> b).orElseThrow(() -> new AssertionError(who + " got no echo of " + body));
        return echo.getChildElement("stanza-id", XmlNamespaces.STANZA_ID).attributeValue("id");
    }

    /** What {@code who} was sent: bodies, "[batch] body" per batch item, "[retract id]" for a moderation notice. */
    private List<String> seenBy(String who) {
        List<String> seen = new ArrayList<>();
        for (Packet p : muc.receivedBy(who)) {
            if (!(p instanceof Message m)) {
                continue;
            }
            if (m.getBody() != null) {
                seen.add(m.getBody());
            }
            Element retract = m.getElement().element(QName.get("retract", XmlNamespaces.RETRACT));
            if (retract != null) {
                seen.add("[retract " + retract.attributeValue("id") + "]");
            }
            Element batch = m.getElement().element(QName.get("batch", RELAXED));
            if (batch != null) {
                try {
                    for (Element f : Dom4jBatches.items(batch)) {
                        seen.add("[batch] " + f.element("message").elementText("body"));
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
        }
        return seen;
    }

    private void moderate(String stanzaId) {
        muc.send("<iq from='" + PRINCE + "' to='" + ROOM + "' type='set' id='mod'><moderate xmlns='" + XmlNamespaces.MODERATE
                + "' id='" + stanzaId + "'><retract xmlns='" + XmlNamespaces.RETRACT + "'/><reason>Spam</reason></moderate></iq>");
        assertThat(((IQ) muc.replyTo(PRINCE, "mod")).getType()).isEqualTo(IQ.Type.result);
    }

    @Test
    void mercutiosLineReachesTheModeratorAtOnceAndBenvolioTenSecondsLater() {
        muc.send("<iq from='" + BENVOLIO + "' to='" + ROOM + "' type='get' id='i'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        Map<String, String> info = muc.replyTo(BENVOLIO, "i").getElement().element("query").element("x").elements("field").stream()
                .collect(Collectors.toMap(f -> f.attributeValue("var"), f -> String.valueOf(f.elementText("value"))));
        assertThat(info).containsEntry("muc#roominfo_moderation_delay", "10");

        String id = say(MERCUTIO, "A plague o' both your houses", "");
        assertThat(seenBy(PRINCE)).containsExactly("A plague o' both your houses");
        assertThat(seenBy(BENVOLIO)).isEmpty();

        muc.advance(Duration.ofSeconds(9));
        assertThat(seenBy(BENVOLIO)).isEmpty();
        muc.advance(Duration.ofSeconds(1));
        List<Packet> benvolio = muc.receivedBy(BENVOLIO);
        assertThat(benvolio).hasSize(1);
        Message released = (Message) benvolio.get(0);
        assertThat(released.getBody()).isEqualTo("A plague o' both your houses");
        assertThat(released.getFrom().toString()).isEqualTo(ROOM + "/Mercutio");
        assertThat(released.getChildElement("stanza-id", XmlNamespaces.STANZA_ID).attributeValue("id")).isEqualTo(id);
        assertThat(seenBy(PRINCE)).as("the Prince had it already").isEmpty();

        // The Prince, a moderator, is never held back.
        say(PRINCE, "Rebellious subjects", "");
        assertThat(seenBy(BENVOLIO)).containsExactly("Rebellious subjects");
    }

    @Test
    void aLineThePrinceRetractsInTimeNeverReachesAnyoneElseNorDoesItsRetraction() {
        String spam = say(MERCUTIO, "Cheap swords at mercutio.example", "");
        assertThat(seenBy(PRINCE)).containsExactly("Cheap swords at mercutio.example");
        muc.advance(Duration.ofSeconds(4));
        // Tybalt enters meanwhile: the discussion history does not show him what is held.
        muc.send("<presence from='" + TYBALT + "' to='" + ROOM + "/Tybalt'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(seenBy(TYBALT)).isEmpty();

        moderate(spam);
        assertThat(seenBy(PRINCE)).containsExactly("[retract " + spam + "]");
        assertThat(seenBy(MERCUTIO)).as("its author had it, so he learns it was moderated").containsExactly("[retract " + spam + "]");
        assertThat(seenBy(BENVOLIO)).as("neither the message nor its retraction").isEmpty();
        assertThat(seenBy(TYBALT)).isEmpty();

        muc.advance(Duration.ofSeconds(30));
        assertThat(seenBy(BENVOLIO)).isEmpty();
        assertThat(seenBy(TYBALT)).isEmpty();
    }

    @Test
    void whoeverEntersWhileALineIsHeldGetsItAtItsReleaseAndAModeratorsReplyNeverComesBeforeIt() {
        String line = say(MERCUTIO, "Tybalt, you rat-catcher", "");
        muc.advance(Duration.ofSeconds(3));
        muc.send("<presence from='" + TYBALT + "' to='" + ROOM + "/Tybalt'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        seenBy(TYBALT);
        // The Prince answers the held line at once: the others get his answer after the line, never before.
        say(PRINCE, "Hold, Mercutio", "<reply xmlns='urn:xmpp:reply:0' to='" + ROOM + "/Mercutio' id='" + line + "'/>");
        assertThat(seenBy(MERCUTIO)).containsExactly("Hold, Mercutio");
        assertThat(seenBy(BENVOLIO)).isEmpty();
        say(PRINCE, "Good day to all", "");
        assertThat(seenBy(BENVOLIO)).as("a line that answers nothing held goes at once").containsExactly("Good day to all");
        assertThat(seenBy(TYBALT)).containsExactly("Good day to all");

        muc.advance(Duration.ofSeconds(7));
        assertThat(seenBy(BENVOLIO)).containsExactly("Tybalt, you rat-catcher", "Hold, Mercutio");
        assertThat(seenBy(TYBALT)).containsExactly("Tybalt, you rat-catcher", "Hold, Mercutio");
    }

    /** The bodies {@code who} finds in the room's archive (XEP-0313), and the count its fin says. */
    private List<String> archiveSeenBy(String who) {
        muc.send("<iq type='set' id='mam' from='" + who + "' to='" + ROOM + "'><query xmlns='urn:xmpp:mam:2' queryid='q'/></iq>");
        List<String> bodies = new ArrayList<>();
        for (Packet p : muc.receivedBy(who)) {
            Element result = p.getElement().element(QName.get("result", "urn:xmpp:mam:2"));
            if (result != null) {
                bodies.add(result.element("forwarded").element("message").elementText("body"));
            } else if (p instanceof IQ fin) {
                bodies.add("count " + fin.getChildElement().element("set").elementText("count"));
            }
        }
        return bodies;
    }

    @Test
    void theArchiveShowsAHeldLineToTheModeratorsOnlyUntilItsRelease() {
        say(PRINCE, "Hear the sentence of your moved prince", "");
        say(MERCUTIO, "A plague o' both your houses", "");
        muc.clear();
        assertThat(archiveSeenBy(BENVOLIO)).containsExactly("Hear the sentence of your moved prince", "count 1");
        assertThat(archiveSeenBy(PRINCE))
                .containsExactly("Hear the sentence of your moved prince", "A plague o' both your houses", "count 2");
        muc.advance(Duration.ofSeconds(10));
        muc.clear();
        assertThat(archiveSeenBy(BENVOLIO))
                .containsExactly("Hear the sentence of your moved prince", "A plague o' both your houses", "count 2");
    }

    @Test
    void mercutioCorrectsHisHeldLineAndBenvolioGetsOnlyItsFinalForm() {
        say(MERCUTIO, "A plague on your house", "");
        muc.advance(Duration.ofSeconds(2));
        muc.send("<message from='" + MERCUTIO + "' to='" + ROOM + "' type='groupchat' id='fix'><body>A plague o' both your houses</body>"
                + "<replace xmlns='urn:xmpp:message-correct:0' id='" + "A plague on your house".hashCode() + "'/></message>");
        assertThat(seenBy(PRINCE)).containsExactly("A plague on your house", "A plague o' both your houses");

        muc.advance(Duration.ofSeconds(30));
        List<Packet> benvolio = muc.receivedBy(BENVOLIO);
        assertThat(benvolio).hasSize(1);
        assertThat(((Message) benvolio.get(0)).getBody()).isEqualTo("A plague o' both your houses");
        assertThat(benvolio.get(0).getElement().element("replace")).as("the final form, not a correction").isNull();
    }

    @Test
    void aRelaxedOccupantCountsAHeldLineTowardsItsVolumeButGetsItOnlyAtItsRelease() {
        muc.join(PARIS, ROOM, "Paris");
        muc.send("<iq from='" + PARIS + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='" + RELAXED
                + "'><time>300</time><volume>2</volume><aggregation>plain</aggregation></consistency-requirements></iq>");
        assertThat(((IQ) muc.replyTo(PARIS, "req")).getType()).isEqualTo(IQ.Type.result);
        muc.clear();

        say(MERCUTIO, "one", "");                     // held: retained for Paris, and counted
        say(PRINCE, "two", "");                       // his volume of 2 is reached: a flush, without the held line
        assertThat(seenBy(PARIS)).containsExactly("[batch] two");
        muc.advance(Duration.ofSeconds(10));
        assertThat(seenBy(PARIS)).as("released: on its own, in his form").containsExactly("[batch] one");

        // A held line still retained at its release waits for his next flush, by his bounds.
        say(MERCUTIO, "three", "");
        muc.advance(Duration.ofSeconds(10));
        assertThat(seenBy(PARIS)).isEmpty();
        say(PRINCE, "four", "");
        assertThat(seenBy(PARIS)).containsExactly("[batch] three", "[batch] four");
    }

    @Test
    void withoutADelayNothingIsHeld() {
        muc.send("<iq from='" + PRINCE + "' to='" + ROOM + "' type='set' id='c0'><query xmlns='" + Namespaces.MUC_OWNER + "'>"
                + "<x xmlns='jabber:x:data' type='submit'><field var='muc#roomconfig_moderation_delay'><value>0</value></field>"
                + "</x></query></iq>");
        muc.clear();
        say(MERCUTIO, "Men's eyes were made to look", "");
        assertThat(seenBy(BENVOLIO)).containsExactly("Men's eyes were made to look");
    }

    /** What {@code who} was sent, as XML, with the stanza-id {@code id} written as "ID" (to compare two answers). */
    private List<String> answersTo(String who, String id) {
        return muc.receivedBy(who).stream().map(p -> p.toXML().replace(id, "ID")).toList();
    }

    @Test
    void benvolioGuessesTheIdOfAHeldLineAndLearnsNothingOfIt() {
        String line = say(MERCUTIO, "Tybalt, you rat-catcher", "");
        String madeUp = line.substring(0, line.lastIndexOf('-') + 1) + "zz";
        muc.send("<presence from='" + TYBALT + "' to='" + ROOM + "/Tybalt'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        muc.clear();

        // His reply to it: his echo does not name Mercutio, and nobody it is held from has it before the line.
        muc.send("<message from='" + BENVOLIO + "' to='" + ROOM + "' type='groupchat' id='q'><body>Who said that?</body>"
                + "<reply xmlns='urn:xmpp:reply:0' id='" + line + "'/></message>");
        Message echo = (Message) muc.receivedBy(BENVOLIO).get(0);
        assertThat(echo.getBody()).isEqualTo("Who said that?");
        assertThat(echo.getElement().element(QName.get("reply", "urn:xmpp:reply:0")).attributeValue("to")).isNull();
        assertThat(seenBy(TYBALT)).isEmpty();
        assertThat(seenBy(MERCUTIO)).as("held on its own account too: Mercutio is no moderator").isEmpty();

        // Retracting it, correcting it, paging the archive from it: the answers a made-up id gets.
        for (String id : new String[] {line, madeUp}) {
            muc.clear();
            muc.send("<message from='" + BENVOLIO + "' to='" + ROOM + "' type='groupchat' id='r'><retract xmlns='"
                    + XmlNamespaces.RETRACT + "' id='" + id + "'/></message>");
            muc.send("<message from='" + BENVOLIO + "' to='" + ROOM + "' type='groupchat' id='c'><body>fixed</body>"
                    + "<replace xmlns='urn:xmpp:message-correct:0' id='" + id + "'/></message>");
            muc.send("<iq type='set' id='mam' from='" + BENVOLIO + "' to='" + ROOM + "'><query xmlns='urn:xmpp:mam:2'>"
                    + "<set xmlns='http://jabber.org/protocol/rsm'><after>" + id + "</after></set></query></iq>");
            List<String> answers = answersTo(BENVOLIO, id).stream().map(x -> x.replaceAll("stanza-id[^/]*/", "")).toList();
            if (id.equals(line)) {
                assertThat(answers).as("nothing forbidden, nothing found").noneMatch(x -> x.contains("forbidden"))
                        .anyMatch(x -> x.contains("item-not-found"));
                madeUpAnswers.clear();
                madeUpAnswers.addAll(answers);
            } else {
                assertThat(answers).isEqualTo(madeUpAnswers);
            }
        }
        muc.clear();
        muc.advance(Duration.ofSeconds(10));
        assertThat(seenBy(TYBALT)).startsWith("Tybalt, you rat-catcher").contains("Who said that?");
    }

    private final List<String> madeUpAnswers = new ArrayList<>();

    @Test
    void mercutioCorrectsHisLineLateInTheHoldAndThePrinceHasHisWholeDelayForTheNewText() {
        String line = say(MERCUTIO, "A plague on your house", "");
        muc.advance(Duration.ofSeconds(3));
        say(PRINCE, "Mercutio, beware", "<reply xmlns='urn:xmpp:reply:0' id='" + line + "'/>");
        muc.advance(Duration.ofSeconds(5));
        muc.send("<message from='" + MERCUTIO + "' to='" + ROOM + "' type='groupchat' id='fix'><body>A plague o' both your houses</body>"
                + "<replace xmlns='urn:xmpp:message-correct:0' id='" + "A plague on your house".hashCode() + "'/></message>");
        muc.clear();

        muc.advance(Duration.ofSeconds(2));   // the line's first release
        assertThat(seenBy(BENVOLIO)).as("still held: the correction came 2 s before it was due").isEmpty();
        muc.advance(Duration.ofSeconds(7));
        assertThat(seenBy(BENVOLIO)).isEmpty();
        muc.advance(Duration.ofSeconds(1));   // ten seconds after the correction
        assertThat(seenBy(BENVOLIO)).as("the final form, then the Prince's reply to it")
                .containsExactly("A plague o' both your houses", "Mercutio, beware");
    }
}
