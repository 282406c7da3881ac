package org.reconmuc.component.muc.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.mucUser;

import java.util.List;
import org.dom4j.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.muc.MucBench;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

class MessagesTest {
    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoAndJulietAreIn() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.join("juliet@capulet.lit/balcony", ROOM, "Juliet");
    }

    @Test
    void aGroupchatMessageReachesEveryoneWithOneRoomStanzaIdAndTheOriginIdKept() {
        muc.send("<message from='juliet@capulet.lit/balcony' to='" + ROOM + "' type='groupchat' id='abc'>"
                + "<body>Wherefore art thou?</body><origin-id xmlns='urn:xmpp:sid:0' id='orig-1'/>"
                + "<stanza-id xmlns='urn:xmpp:sid:0' id='forged' by='" + ROOM + "'/></message>");

        Message toRomeo = (Message) muc.lastReceivedBy("romeo@montague.lit/phone");
        Message echo = (Message) muc.lastReceivedBy("juliet@capulet.lit/balcony");
        for (Message m : List.of(toRomeo, echo)) {
            assertThat(m.getFrom().toString()).isEqualTo(ROOM + "/Juliet");
            assertThat(m.getType()).isEqualTo(Message.Type.groupchat);
            assertThat(m.getID()).isEqualTo("abc");
            assertThat(m.getBody()).isEqualTo("Wherefore art thou?");
            assertThat(m.getChildElement("origin-id", XmlNamespaces.STANZA_ID).attributeValue("id")).isEqualTo("orig-1");
            List<Element> ids = m.getElement().elements(org.dom4j.QName.get("stanza-id", XmlNamespaces.STANZA_ID));
            assertThat(ids).hasSize(1);
            assertThat(ids.get(0).attributeValue("by")).isEqualTo(ROOM);
            assertThat(ids.get(0).attributeValue("id")).isNotEqualTo("forged").isNotBlank();
        }
        assertThat(toRomeo.getChildElement("stanza-id", XmlNamespaces.STANZA_ID).attributeValue("id"))
                .isEqualTo(echo.getChildElement("stanza-id", XmlNamespaces.STANZA_ID).attributeValue("id"));
    }

    @Test
    void aNonOccupantCannotSpeakInTheRoom() {
        muc.send("<message from='tybalt@capulet.lit/x' to='" + ROOM + "' type='groupchat' id='t1'><body>hi</body></message>");
        Packet error = muc.lastReceivedBy("tybalt@capulet.lit/x");
        assertThat(errorCondition(error)).isEqualTo("not-acceptable");
        assertThat(error.getID()).isEqualTo("t1");
        assertThat(error.getFrom().toString()).isEqualTo(ROOM);
        assertThat(muc.receivedBy("romeo@montague.lit/phone")).isEmpty();
    }

    @Test
    void aMessageToAMissingRoomIsItemNotFound() {
        muc.send("<message from='romeo@montague.lit/phone' to='nowhere@chat.example' type='groupchat'><body>x</body></message>");
        assertThat(errorCondition(muc.lastReceivedBy("romeo@montague.lit/phone"))).isEqualTo("item-not-found");
        assertThat(muc.service.roomCount()).isEqualTo(1);
    }

    @Test
    void stanzaIdsAreUniqueShortAndOnlyOnLoggedMessages() {
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (int i = 0; i < 50; i++) {
            muc.say("juliet@capulet.lit/balcony", ROOM, "line " + i);
            muc.send("<message from='juliet@capulet.lit/balcony' to='" + ROOM + "' type='groupchat'>"
                    + "<composing xmlns='http://jabber.org/protocol/chatstates'/></message>");
            muc.clock.advance(java.time.Duration.ofSeconds(1));
        }
        for (Packet p : muc.receivedBy("romeo@montague.lit/phone")) {
            Element sid = ((Message) p).getChildElement("stanza-id", XmlNamespaces.STANZA_ID);
            if (((Message) p).getBody() == null) {
                assertThat(sid).as("a chat state is not logged").isNull();
            } else {
                assertThat(ids.add(sid.attributeValue("id"))).as("unique").isTrue();
                assertThat(sid.attributeValue("id")).hasSizeLessThan(20);
            }
        }
        assertThat(ids).hasSize(50);
    }

    @Test
    void chatStatesAreBroadcastButNotKeptInHistory() {
        muc.send("<message from='juliet@capulet.lit/balcony' to='" + ROOM + "' type='groupchat'>"
                + "<composing xmlns='http://jabber.org/protocol/chatstates'/></message>");
        assertThat(muc.receivedBy("romeo@montague.lit/phone")).hasSize(1);
        muc.send("<presence from='nurse@capulet.lit/x' to='" + ROOM + "/Nurse'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(muc.receivedBy("nurse@capulet.lit/x")).noneMatch(p -> p.getElement().element("composing") != null);
    }

    @Test
    void privateMessagesGoOnlyToTheNamedOccupantFromTheSendersRoomAddress() {
        muc.send("<message from='romeo@montague.lit/phone' to='" + ROOM + "/Juliet' type='chat' id='pm1'><body>psst</body></message>");
        Message pm = (Message) muc.lastReceivedBy("juliet@capulet.lit/balcony");
        assertThat(pm.getFrom().toString()).isEqualTo(ROOM + "/Romeo");
        assertThat(pm.getBody()).isEqualTo("psst");
        assertThat(pm.getType()).isEqualTo(Message.Type.chat);
        assertThat(mucUser(pm)).isNotNull();
        assertThat(muc.receivedBy("romeo@montague.lit/phone")).isEmpty();
    }

    @Test
    void aPrivateMessageToAnUnknownNickIsItemNotFound() {
        muc.send("<message from='romeo@montague.lit/phone' to='" + ROOM + "/Mercutio' type='chat'><body>?</body></message>");
        Packet error = muc.lastReceivedBy("romeo@montague.lit/phone");
        assertThat(errorCondition(error)).isEqualTo("item-not-found");
        assertThat(MucBench.errorText(error)).contains("Mercutio");
    }

    @Test
    void aPrivateMessageFromANonOccupantIsNotAcceptable() {
        muc.send("<message from='tybalt@capulet.lit/x' to='" + ROOM + "/Juliet' type='chat'><body>hi</body></message>");
        assertThat(errorCondition(muc.lastReceivedBy("tybalt@capulet.lit/x"))).isEqualTo("not-acceptable");
        assertThat(muc.receivedBy("juliet@capulet.lit/balcony")).isEmpty();
    }

    @Test
    void aGroupchatToAnOccupantIsABadRequest() {
        muc.send("<message from='romeo@montague.lit/phone' to='" + ROOM + "/Juliet' type='groupchat'><body>?</body></message>");
        assertThat(errorCondition(muc.lastReceivedBy("romeo@montague.lit/phone"))).isEqualTo("bad-request");
    }

    @Test
    void theOwnerSetsTheSubjectAndNewcomersGetItLast() {
        muc.send("<message from='romeo@montague.lit/phone' to='" + ROOM + "' type='groupchat'><subject>Verona</subject></message>");
        assertThat(((Message) muc.lastReceivedBy("juliet@capulet.lit/balcony")).getSubject()).isEqualTo("Verona");

        muc.send("<presence from='nurse@capulet.lit/x' to='" + ROOM + "/Nurse'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        Message last = (Message) muc.lastReceivedBy("nurse@capulet.lit/x");
        assertThat(last.getSubject()).isEqualTo("Verona");
        assertThat(last.getFrom().toString()).isEqualTo(ROOM + "/Romeo");
    }

    @Test
    void aParticipantMayNotChangeTheSubjectByDefault() {
        muc.send("<message from='juliet@capulet.lit/balcony' to='" + ROOM + "' type='groupchat'><subject>Mine</subject></message>");
        assertThat(errorCondition(muc.lastReceivedBy("juliet@capulet.lit/balcony"))).isEqualTo("forbidden");
        assertThat(muc.receivedBy("romeo@montague.lit/phone")).isEmpty();
    }

    @Test
    void aFloodIsRateLimitedWithAnErrorAndTheRoomCarriesOn() {
        int burst = muc.service.config().messageBurst();
        for (int i = 0; i < burst + 5; i++) {
            muc.say("juliet@capulet.lit/balcony", ROOM, "spam " + i);
        }
        List<Packet> juliet = muc.receivedBy("juliet@capulet.lit/balcony");
        assertThat(juliet.stream().filter(p -> errorCondition(p) == null)).hasSize(burst);
        assertThat(juliet.stream().filter(p -> "policy-violation".equals(errorCondition(p)))).hasSize(5);
        assertThat(muc.receivedBy("romeo@montague.lit/phone")).hasSize(burst);

        muc.clock.advance(java.time.Duration.ofSeconds(1));
        muc.say("juliet@capulet.lit/balcony", ROOM, "calm again");
        assertThat(((Message) muc.lastReceivedBy("romeo@montague.lit/phone")).getBody()).isEqualTo("calm again");
    }

    @Test
    void aMediatedInvitationReachesTheInvitee() {
        muc.send("<message from='juliet@capulet.lit/balcony' to='" + ROOM + "'><x xmlns='http://jabber.org/protocol/muc#user'>"
                + "<invite to='nurse@capulet.lit'><reason>come</reason></invite></x></message>");
        Message invite = (Message) muc.lastReceivedBy("nurse@capulet.lit");
        assertThat(invite.getFrom().toString()).isEqualTo(ROOM);
        Element i = mucUser(invite).element("invite");
        assertThat(i.attributeValue("from")).isEqualTo(ROOM + "/Juliet");
        assertThat(i.elementText("reason")).isEqualTo("come");
    }
}
