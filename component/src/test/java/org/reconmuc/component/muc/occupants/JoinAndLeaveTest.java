package org.reconmuc.component.muc.occupants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.item;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.MucBench;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

class JoinAndLeaveTest {
    private final MucBench muc = new MucBench();

    @Test
    void firstJoinCreatesAnInstantRoomOwnedByTheCreator() {
        muc.send("<presence from='romeo@montague.lit/phone' to='" + ROOM + "/Romeo' id='j1'>"
                + "<x xmlns='http://jabber.org/protocol/muc'/></presence>");

        List<Packet> romeo = muc.receivedBy("romeo@montague.lit/phone");
        assertThat(romeo).hasSize(2);
        Packet self = romeo.get(0);
        assertThat(self.getFrom().toString()).isEqualTo(ROOM + "/Romeo");
        assertThat(self.getID()).isEqualTo("j1");
        assertThat(statusCodes(self)).contains("110", "201");
        assertThat(item(self).attributeValue("affiliation")).isEqualTo("owner");
        assertThat(item(self).attributeValue("role")).isEqualTo("moderator");
        Message subject = (Message) romeo.get(1);
        assertThat(subject.getElement().element("subject")).isNotNull();
        assertThat(subject.getFrom().toString()).isEqualTo(ROOM);
        assertThat(muc.service.roomCount()).isEqualTo(1);
    }

    @Test
    void newcomerGetsOthersPresencesThenItsOwnAndOthersLearnOfIt() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.send("<presence from='juliet@capulet.lit/balcony' to='" + ROOM + "/Juliet'>"
                + "<show>away</show><x xmlns='http://jabber.org/protocol/muc'/></presence>");

        List<Packet> juliet = muc.receivedBy("juliet@capulet.lit/balcony");
        assertThat(juliet.get(0).getFrom().toString()).isEqualTo(ROOM + "/Romeo");
        assertThat(statusCodes(juliet.get(0))).doesNotContain("110");
        assertThat(item(juliet.get(0)).attributeValue("jid")).as("semi-anonymous room").isNull();
        assertThat(juliet.get(1).getFrom().toString()).isEqualTo(ROOM + "/Juliet");
        assertThat(statusCodes(juliet.get(1))).as("her own presence; the room is logged (§7.2.12)").containsExactly("110", "170");
        assertThat(statusCodes(juliet.get(1))).doesNotContain("201");
        assertThat(item(juliet.get(1)).attributeValue("affiliation")).isEqualTo("none");
        assertThat(item(juliet.get(1)).attributeValue("role")).isEqualTo("participant");

        Presence toRomeo = (Presence) muc.lastReceivedBy("romeo@montague.lit/phone");
        assertThat(toRomeo.getFrom().toString()).isEqualTo(ROOM + "/Juliet");
        assertThat(toRomeo.getShow()).isEqualTo(Presence.Show.away);
        assertThat(item(toRomeo).attributeValue("jid")).as("moderators see real JIDs")
                .isEqualTo("juliet@capulet.lit/balcony");
    }

    @Test
    void aTakenNickIsAConflict() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.send("<presence from='tybalt@capulet.lit/x' to='" + ROOM + "/Romeo' id='j2'>"
                + "<x xmlns='http://jabber.org/protocol/muc'/></presence>");

        Packet error = muc.lastReceivedBy("tybalt@capulet.lit/x");
        assertThat(((Presence) error).getType()).isEqualTo(Presence.Type.error);
        assertThat(errorCondition(error)).isEqualTo("conflict");
        assertThat(error.getFrom().toString()).isEqualTo(ROOM + "/Romeo");
        assertThat(error.getID()).isEqualTo("j2");
        assertThat(muc.receivedBy("romeo@montague.lit/phone")).isEmpty();
    }

    @Test
    void aJoinWithoutNickIsMalformed() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.send("<presence from='juliet@capulet.lit/b' to='" + ROOM + "'/>");
        assertThat(errorCondition(muc.lastReceivedBy("juliet@capulet.lit/b"))).isEqualTo("jid-malformed");
    }

    @Test
    void leavingTellsEveryoneAndTheLastLeaveRemovesATemporaryRoom() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.join("juliet@capulet.lit/balcony", ROOM, "Juliet");
        muc.send("<presence from='juliet@capulet.lit/balcony' to='" + ROOM + "/Juliet' type='unavailable'>"
                + "<status>bye</status></presence>");

        Presence self = (Presence) muc.lastReceivedBy("juliet@capulet.lit/balcony");
        assertThat(self.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(statusCodes(self)).contains("110");
        Presence seen = (Presence) muc.lastReceivedBy("romeo@montague.lit/phone");
        assertThat(seen.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(seen.getStatus()).isEqualTo("bye");
        assertThat(item(seen).attributeValue("role")).isEqualTo("none");

        muc.send("<presence from='romeo@montague.lit/phone' to='" + ROOM + "/Romeo' type='unavailable'/>");
        assertThat(muc.service.roomCount()).isZero();
    }

    @Test
    void aRecreatedRoomHasANewOwnerAndNoHistory() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.say("romeo@montague.lit/phone", ROOM, "hello");
        muc.send("<presence from='romeo@montague.lit/phone' to='" + ROOM + "/Romeo' type='unavailable'/>");
        muc.clear();

        muc.send("<presence from='juliet@capulet.lit/b' to='" + ROOM + "/Juliet'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        List<Packet> juliet = muc.receivedBy("juliet@capulet.lit/b");
        assertThat(juliet).hasSize(2);
        assertThat(item(juliet.get(0)).attributeValue("affiliation")).isEqualTo("owner");
    }

    @Test
    void aSecondSessionOfTheSameUserSharesTheNick() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.join("juliet@capulet.lit/balcony", ROOM, "Juliet");
        muc.send("<presence from='romeo@montague.lit/laptop' to='" + ROOM + "/Romeo'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(muc.receivedBy("romeo@montague.lit/laptop")).anyMatch(p -> statusCodes(p).contains("110"));
        muc.clear();

        muc.say("juliet@capulet.lit/balcony", ROOM, "both of you?");
        assertThat(muc.receivedBy("romeo@montague.lit/phone")).hasSize(1);
        assertThat(muc.receivedBy("romeo@montague.lit/laptop")).hasSize(1);

        muc.clear();
        muc.send("<presence from='romeo@montague.lit/phone' to='" + ROOM + "/Romeo' type='unavailable'/>");
        assertThat(muc.receivedBy("juliet@capulet.lit/balcony"))
                .noneMatch(p -> ((Presence) p).getType() == Presence.Type.unavailable);
        assertThat(statusCodes(muc.lastReceivedBy("romeo@montague.lit/phone"))).contains("110");
        muc.clear();
        muc.say("juliet@capulet.lit/balcony", ROOM, "just you now");
        assertThat(muc.receivedBy("romeo@montague.lit/phone")).isEmpty();
        assertThat(muc.receivedBy("romeo@montague.lit/laptop")).hasSize(1);
    }

    @Test
    void aSessionThatBouncesIsRemovedAsAGhost() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.join("juliet@capulet.lit/balcony", ROOM, "Juliet");
        muc.send("<message from='juliet@capulet.lit/balcony' to='" + ROOM + "' type='error'>"
                + "<error type='cancel'><recipient-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></message>");

        Presence seen = (Presence) muc.lastReceivedBy("romeo@montague.lit/phone");
        assertThat(seen.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(statusCodes(seen)).contains("333");
    }

    @Test
    void aRejoinFromAJoinedSessionResendsTheRoomState() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.join("juliet@capulet.lit/balcony", ROOM, "Juliet");
        muc.say("romeo@montague.lit/phone", ROOM, "still there?");
        muc.clear();
        muc.send("<presence from='juliet@capulet.lit/balcony' to='" + ROOM + "/Juliet'><x xmlns='http://jabber.org/protocol/muc'/></presence>");

        List<Packet> juliet = muc.receivedBy("juliet@capulet.lit/balcony");
        assertThat(juliet).extracting(p -> p.getElement().getName())
                .containsExactly("presence", "presence", "message", "message");
        assertThat(statusCodes(juliet.get(1))).contains("110");
        assertThat(muc.receivedBy("romeo@montague.lit/phone")).isEmpty();
    }
}
