package org.reconmuc.component.muc.occupants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Only the room's own evidence removes an occupant (issue 33): an error that answers a request
 * Mallory had the room pass on is Mallory's answer, not a sign that the answering session is gone;
 * and a client that does not do XEP-0199 stays when it answers the room's reconnect ping with an
 * error. Romeo owns the room; Juliet watches; Mallory is the hostile one.
 */
class OccupantEvidenceTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String MALLORY = "mallory@evil.example/x";
    private static final String STANZAS = "urn:ietf:params:xml:ns:xmpp-stanzas";

    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoJulietAndMalloryAreIn() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(MALLORY, ROOM, "Mallory");
    }

    /** Mallory asks Romeo {@code query}; Romeo's client answers with {@code condition}; Mallory gets that answer. */
    private void malloryAsksAndRomeosClientAnswers(String query, String condition) {
        malloryAsksAndRomeoAnswers(query, ROMEO, condition);
    }

    /** As above, the room asking Romeo at {@code askedAt}, which answers with {@code condition}. */
    private void malloryAsksAndRomeoAnswers(String query, String askedAt, String condition) {
        muc.send("<iq from='" + MALLORY + "' to='" + ROOM + "/Romeo' type='get' id='mal-1'>" + query + "</iq>");
        IQ asked = (IQ) muc.lastReceivedBy(askedAt);
        assertThat(asked.getFrom().toString()).isEqualTo(ROOM + "/Mallory");
        muc.send("<iq from='" + askedAt + "' to='" + ROOM + "/Mallory' type='error' id='" + asked.getID() + "'>" + query
                + "<error type='cancel'><" + condition + " xmlns='" + STANZAS + "'/></error></iq>");

        Packet answer = muc.lastReceivedBy(MALLORY);
        assertThat(answer.getID()).isEqualTo("mal-1");
        assertThat(answer.getFrom().toString()).isEqualTo(ROOM + "/Romeo");
        assertThat(errorCondition(answer)).isEqualTo(condition);
        romeoIsStillIn();
    }

    /** Nobody was told that Romeo left, Romeo was told nothing, and he gets the next message. */
    private void romeoIsStillIn() {
        assertThat(muc.receivedBy(JULIET)).as("Juliet sees no departure").isEmpty();
        assertThat(muc.receivedBy(ROMEO)).as("Romeo is told nothing").isEmpty();
        muc.say(JULIET, ROOM, "still with us?");
        assertThat(muc.receivedBy(ROMEO)).extracting(p -> ((Message) p).getBody()).containsExactly("still with us?");
        muc.clear();
    }

    @Test
    void malloryAsksRomeoSomethingHisClientDoesNotKnowAndOnlyMalloryHearsTheAnswer() {
        malloryAsksAndRomeosClientAnswers("<query xmlns='urn:example:unknown'/>", "service-unavailable");
    }

    @Test
    void malloryAsksForADiscoNodeRomeosClientLacksAndRomeoStays() {
        malloryAsksAndRomeosClientAnswers("<query xmlns='http://jabber.org/protocol/disco#info' node='urn:example:none'/>",
                "item-not-found");
    }

    @Test
    void malloryFetchesRomeosAvatarWhichHeHasNotAndRomeoStays() {
        // As Prosody's MUC, the room asks Romeo's account (his bare JID): his server answers for it.
        malloryAsksAndRomeoAnswers("<vCard xmlns='vcard-temp'/>", "romeo@montague.lit", "item-not-found");
    }

    @Test
    void malloryFetchesRomeosAvatarAndGetsIt() {
        muc.send("<iq from='" + MALLORY + "' to='" + ROOM + "/Romeo' type='get' id='mal-2'><vCard xmlns='vcard-temp'/></iq>");
        IQ asked = (IQ) muc.lastReceivedBy("romeo@montague.lit");
        muc.send("<iq from='romeo@montague.lit' to='" + ROOM + "/Mallory' type='result' id='" + asked.getID() + "'>"
                + "<vCard xmlns='vcard-temp'><NICKNAME>Romeo</NICKNAME></vCard></iq>");

        IQ answer = (IQ) muc.lastReceivedBy(MALLORY);
        assertThat(answer.getType()).isEqualTo(IQ.Type.result);
        assertThat(answer.getID()).isEqualTo("mal-2");
        assertThat(answer.getFrom().toString()).isEqualTo(ROOM + "/Romeo");
        assertThat(answer.getChildElement().elementText("NICKNAME")).isEqualTo("Romeo");
    }

    @Test
    void julietCannotAnswerWhatMalloryAskedRomeo() {
        muc.send("<iq from='" + MALLORY + "' to='" + ROOM + "/Romeo' type='get' id='mal-3'><query xmlns='jabber:iq:version'/></iq>");
        IQ asked = (IQ) muc.lastReceivedBy(ROMEO);
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "/Mallory' type='result' id='" + asked.getID() + "'>"
                + "<query xmlns='jabber:iq:version'><name>forged</name></query></iq>");

        assertThat(muc.receivedBy(MALLORY)).isEmpty();
    }

    @Test
    void anErrorToAnOccupantThatAnswersNothingTheRoomPassedOnIsDropped() {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "/Mallory' type='error' id='mucproxy-1'>"
                + "<error type='cancel'><service-unavailable xmlns='" + STANZAS + "'/></error></iq>");

        assertThat(muc.receivedBy(MALLORY)).isEmpty();
        romeoIsStillIn();
    }

    @Test
    void anErrorToTheRoomThatAnswersNoPingOfItsOwnRemovesNobody() {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='error' id='whatever'>"
                + "<error type='cancel'><service-unavailable xmlns='" + STANZAS + "'/></error></iq>");

        romeoIsStillIn();
    }

    /** The component's link comes back: the room pings every occupant's session. The ping to {@code user}. */
    private IQ reconnectPingTo(String user) {
        muc.service.connected();
        muc.service.connected();
        List<Packet> got = muc.receivedBy(user);
        assertThat(got).hasSize(1);
        IQ ping = (IQ) got.get(0);
        assertThat(ping.getChildElement().getNamespaceURI()).isEqualTo(Namespaces.PING);
        assertThat(ping.getFrom().toString()).isEqualTo(ROOM);
        muc.clear();
        return ping;
    }

    private void romeoAnswers(IQ ping, String condition) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='error' id='" + ping.getID() + "'>"
                + "<ping xmlns='urn:xmpp:ping'/><error type='cancel'><" + condition + " xmlns='" + STANZAS + "'/></error></iq>");
    }

    /**
     * The ping was ambiguous: Romeo's client, not knowing XEP-0199, says service-unavailable, and so
     * would his server for a session it no longer has. The room asks again with what only a server
     * answers: a groupchat message with nothing to show. Returns it.
     */
    private Message probeTo(String user) {
        List<Packet> got = muc.receivedBy(user);
        assertThat(got).hasSize(1);
        Message probe = (Message) got.get(0);
        assertThat(probe.getType()).isEqualTo(Message.Type.groupchat);
        assertThat(probe.getFrom().toString()).isEqualTo(ROOM);
        assertThat(probe.getBody()).isNull();
        assertThat(probe.getSubject()).isNull();
        return probe;
    }

    @Test
    void romeosClientWithoutXep0199AnswersTheReconnectPingServiceUnavailableAndStays() {
        romeoAnswers(reconnectPingTo(ROMEO), "service-unavailable");

        probeTo(ROMEO);   // a live client takes no notice of it: no answer
        romeoIsStillIn();
    }

    @Test
    void romeosClientAnswersTheReconnectPingFeatureNotImplementedAndStays() {
        romeoAnswers(reconnectPingTo(ROMEO), "feature-not-implemented");

        probeTo(ROMEO);
        romeoIsStillIn();
    }

    @Test
    void romeosSessionEndedWhileTheLinkWasDownAndHisServerBouncesThePingAndTheProbe() {
        // Prosody (mod_iq, mod_message) and ejabberd (ejabberd_sm) answer for a session they no
        // longer have from its full JID: service-unavailable to the IQ and to a groupchat message.
        romeoAnswers(reconnectPingTo(ROMEO), "service-unavailable");
        Message probe = probeTo(ROMEO);
        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "' type='error' id='" + probe.getID() + "'>"
                + "<error type='cancel'><service-unavailable xmlns='" + STANZAS + "'/></error></message>");

        Presence seen = (Presence) muc.lastReceivedBy(JULIET);
        assertThat(seen.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(seen.getFrom().toString()).isEqualTo(ROOM + "/Romeo");
        assertThat(statusCodes(seen)).contains("333");
    }

    @Test
    void romeosServerSaysHisSessionIsGoneAndHeIsRemoved() {
        romeoAnswers(reconnectPingTo(ROMEO), "recipient-unavailable");

        Presence seen = (Presence) muc.lastReceivedBy(JULIET);
        assertThat(seen.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(statusCodes(seen)).contains("333");
    }

    @Test
    void malloryCannotAnswerRomeosPingForHim() {
        IQ ping = reconnectPingTo(ROMEO);
        muc.send("<iq from='" + MALLORY + "' to='" + ROOM + "' type='error' id='" + ping.getID() + "'>"
                + "<error type='cancel'><recipient-unavailable xmlns='" + STANZAS + "'/></error></iq>");

        romeoIsStillIn();
    }

    /** What Romeo's server sends back for {@code m}, from his full JID: his session is gone. */
    private void romeosServerBounces(Message m) {
        muc.send("<message from='" + ROMEO + "' to='" + m.getFrom() + "' type='error' id='" + m.getID() + "'><body>"
                + m.getBody() + "</body><error type='cancel'><service-unavailable xmlns='" + STANZAS + "'/></error></message>");
    }

    @Test
    void romeoBackUnderTheSameAddressStaysWhenHisServerBouncesWhatHisOldSessionHadNotAcknowledged() {
        muc.say(JULIET, ROOM, "before the tunnel");
        Message unacknowledged = (Message) muc.lastReceivedBy(ROMEO);
        // Romeo's phone loses its connection and is back under the same full JID, joining again, before
        // his server gave up the old session (XEP-0198 resumption pending)
        muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo'><x xmlns='" + Namespaces.MUC + "'/></presence>");
        muc.clear();
        // his server ends the old session now, and bounces what it had not delivered, from the same full JID
        romeosServerBounces(unacknowledged);
        romeoIsStillIn();

        // what the room sent since he came back bouncing is his session's end: he is removed
        muc.say(JULIET, ROOM, "after the tunnel");
        Message sinceBack = (Message) muc.lastReceivedBy(ROMEO);
        muc.clear();
        romeosServerBounces(sinceBack);
        Presence seen = (Presence) muc.lastReceivedBy(JULIET);
        assertThat(seen.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(statusCodes(seen)).contains("333");
    }

    @Test
    void benvolioWhoseServerBouncesTheHistoryHeWasSentOnEnteringIsRemoved() {
        String benvolio = "benvolio@montague.lit/street";
        muc.say(JULIET, ROOM, "said before Benvolio came");
        muc.clear();
        muc.send("<presence from='" + benvolio + "' to='" + ROOM + "/Benvolio'><x xmlns='" + Namespaces.MUC + "'/></presence>");
        Message history = muc.receivedBy(benvolio).stream().filter(p -> p instanceof Message m && m.getBody() != null)
                .map(Message.class::cast).findFirst().orElseThrow();
        assertThat(history.getChildElement("delay", "urn:xmpp:delay")).as("a copy from the history").isNotNull();
        muc.clear();
        // sent after he entered, though older than his entry: his session's end
        muc.send("<message from='" + benvolio + "' to='" + history.getFrom() + "' type='error' id='" + history.getID() + "'>"
                + "<body>" + history.getBody() + "</body><delay xmlns='urn:xmpp:delay' stamp='2026-01-01T00:00:00Z'/>"
                + "<error type='cancel'><service-unavailable xmlns='" + STANZAS + "'/></error></message>");
        Presence seen = (Presence) muc.lastReceivedBy(JULIET);
        assertThat(seen.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(seen.getFrom().toString()).isEqualTo(ROOM + "/Benvolio");
        assertThat(statusCodes(seen)).contains("333");
    }

    @Test
    void romeosServerBouncesAGroupchatMessageWithAnErrorThatNamesNoConditionAndRomeoIsRemoved() {
        muc.say(JULIET, ROOM, "hello");
        muc.clear();
        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "/Juliet' type='error'><error type='cancel'/></message>");

        Presence seen = (Presence) muc.lastReceivedBy(JULIET);
        assertThat(seen.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(statusCodes(seen)).contains("333");
    }
}
