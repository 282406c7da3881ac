package org.reconmuc.component.muc.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.SERVICE;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.mucUser;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.MucBench;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * Mediated invitations and declines (XEP-0045 §7.8.2) as Prosody sends them: one invitation per
 * message, counted against the sender's rate, and nothing the room sends comes back to it.
 */
class InvitationTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String MALLORY = "mallory@evil.example/x";
    private static final String NURSE = "nurse@capulet.lit/x";

    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoOwnsTheRoomMalloryIsIn() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(MALLORY, ROOM, "Mallory");
    }

    private static String invites(String... to) {
        StringBuilder x = new StringBuilder("<x xmlns='http://jabber.org/protocol/muc#user'>");
        for (String t : to) {
            x.append("<invite to='").append(t).append("'/>");
        }
        return x.append("</x>").toString();
    }

    private void send(String from, String to, String x) {
        muc.send("<message from='" + from + "' to='" + to + "' id='m'>" + x + "</message>");
    }

    /** Everything the room sent to addresses outside the room's occupants. */
    private List<Packet> invitations() {
        return muc.outbox.stream().filter(p -> p instanceof Message m && mucUser(m) != null && mucUser(m).element("invite") != null)
                .toList();
    }

    @Test
    void malloryInvitesFortyPeopleInOneMessageAndTheRoomSendsOneInvitation() {
        String[] forty = new String[40];
        for (int i = 0; i < forty.length; i++) {
            forty[i] = "victim" + i + "@example.net";
        }
        send(MALLORY, ROOM, invites(forty));
        assertThat(invitations()).extracting(p -> p.getTo().toString()).containsExactly("victim0@example.net");
        assertThat(muc.receivedBy(MALLORY)).as("the first is sent, as Prosody sends it: no error").isEmpty();
    }

    @Test
    void eachInvitationCountsAgainstTheSendersMessageRate() {
        int burst = muc.service.config().messageBurst();
        for (int i = 0; i < burst + 3; i++) {
            send(MALLORY, ROOM, invites("victim" + i + "@example.net"));
        }
        assertThat(invitations()).hasSize(burst);
        List<Packet> refused = muc.receivedBy(MALLORY).stream().filter(p -> errorCondition(p) != null).toList();
        assertThat(refused).hasSize(3).allSatisfy(p -> {
            assertThat(errorCondition(p)).isEqualTo("policy-violation");
            assertThat(MucBench.errorText(p)).contains("too fast").contains("invitation");
        });
        // Her messages share the same budget.
        muc.say(MALLORY, ROOM, "and now?");
        assertThat(errorCondition(muc.lastReceivedBy(MALLORY))).isEqualTo("policy-violation");
    }

    @Test
    void malloryWhoseVoiceWasRevokedMayNotInvite() {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='v'><query xmlns='http://jabber.org/protocol/muc#admin'>"
                + "<item nick='Mallory' role='visitor'/></query></iq>");
        muc.clear();
        send(MALLORY, ROOM, invites("victim@example.net"));
        assertThat(invitations()).isEmpty();
        Packet refused = muc.lastReceivedBy(MALLORY);
        assertThat(errorCondition(refused)).isEqualTo("forbidden");
        assertThat(MucBench.errorText(refused)).contains("Visitors");
    }

    @Test
    void anInvitationToAnAddressOfThisServiceIsRefusedNotLoopedBack() {
        for (String to : List.of(ROOM + "/Romeo", ROOM, "other@" + SERVICE, SERVICE)) {
            muc.clear();
            send(MALLORY, ROOM, invites(to));
            assertThat(invitations()).as(to).isEmpty();
            Packet refused = muc.lastReceivedBy(MALLORY);
            assertThat(errorCondition(refused)).as(to).isEqualTo("bad-request");
            assertThat(MucBench.errorText(refused)).contains("their own address");
        }
    }

    @Test
    void theNurseDeclinesToRomeoInTheRoomAndRomeoGetsIt() {
        // Prosody delivers a decline addressed to an occupant JID to that occupant's sessions.
        send(NURSE, ROOM, "<x xmlns='http://jabber.org/protocol/muc#user'><decline to='" + ROOM + "/Romeo'>"
                + "<reason>busy</reason></decline></x>");
        Message decline = (Message) muc.lastReceivedBy(ROMEO);
        assertThat(decline.getFrom().toString()).isEqualTo(ROOM);
        assertThat(mucUser(decline).element("decline").attributeValue("from")).isEqualTo("nurse@capulet.lit");
        assertThat(mucUser(decline).element("decline").elementText("reason")).isEqualTo("busy");
        assertThat(muc.outbox).as("nothing goes to an address of the service").noneMatch(p -> p.getTo().getDomain().equals(SERVICE));
    }

    @Test
    void aDeclineThatWouldLoopBackIsRefused() {
        send(NURSE, ROOM, "<x xmlns='http://jabber.org/protocol/muc#user'><decline to='" + ROOM + "/Nobody'/></x>");
        assertThat(errorCondition(muc.lastReceivedBy(NURSE))).isEqualTo("item-not-found");
        for (String to : List.of(ROOM, "other@" + SERVICE + "/Romeo", SERVICE)) {
            send(NURSE, ROOM, "<x xmlns='http://jabber.org/protocol/muc#user'><decline to='" + to + "'/></x>");
            Packet refused = muc.lastReceivedBy(NURSE);
            assertThat(errorCondition(refused)).as(to).isEqualTo("bad-request");
            assertThat(MucBench.errorText(refused)).contains("inviter's own address");
        }
        assertThat(muc.outbox).noneMatch(p -> p.getTo().getDomain().equals(SERVICE));
    }
}
