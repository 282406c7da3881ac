package org.reconmuc.component.muc.occupants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.item;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.MucBench;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

class NickAndPresenceTest {
    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoAndJulietAreIn() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.join("juliet@capulet.lit/balcony", ROOM, "Juliet");
    }

    @Test
    void aNickChangeIsAnUnavailableWith303ThenAnAvailableUnderTheNewNick() {
        muc.send("<presence from='juliet@capulet.lit/balcony' to='" + ROOM + "/Jules' id='n1'/>");

        List<Packet> romeo = muc.receivedBy("romeo@montague.lit/phone");
        assertThat(romeo).hasSize(2);
        Presence gone = (Presence) romeo.get(0);
        assertThat(gone.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(gone.getFrom().toString()).isEqualTo(ROOM + "/Juliet");
        assertThat(statusCodes(gone)).containsExactly("303");
        assertThat(item(gone).attributeValue("nick")).isEqualTo("Jules");
        assertThat(item(gone).attributeValue("role")).as("§7.6: the current role, not none").isEqualTo("participant");
        assertThat(item(gone).attributeValue("affiliation")).isEqualTo("none");
        Presence back = (Presence) romeo.get(1);
        assertThat(back.getType()).isNull();
        assertThat(back.getFrom().toString()).isEqualTo(ROOM + "/Jules");

        List<Packet> juliet = muc.receivedBy("juliet@capulet.lit/balcony");
        assertThat(statusCodes(juliet.get(0))).contains("303", "110");
        assertThat(statusCodes(juliet.get(1))).contains("110");
        assertThat(juliet.get(1).getID()).isEqualTo("n1");

        muc.say("romeo@montague.lit/phone", ROOM, "hi Jules");
        muc.send("<message from='romeo@montague.lit/phone' to='" + ROOM + "/Jules' type='chat'><body>pm</body></message>");
        assertThat(muc.receivedBy("juliet@capulet.lit/balcony")).hasSize(2);
    }

    @Test
    void romeoOnTwoDevicesChangesHisNickAndBothDevicesFollow() {
        muc.send("<presence from='romeo@montague.lit/laptop' to='" + ROOM + "/Romeo'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        muc.clear();

        muc.send("<presence from='romeo@montague.lit/phone' to='" + ROOM + "/Romeo2' id='n2'/>");
        for (String device : List.of("romeo@montague.lit/phone", "romeo@montague.lit/laptop")) {
            List<Packet> got = muc.receivedBy(device);
            Presence gone = (Presence) got.stream().filter(p -> ((Presence) p).getType() == Presence.Type.unavailable)
                    .findFirst().orElseThrow(() -> new AssertionError(device + " got no 303: " + got));
            assertThat(statusCodes(gone)).as(device).contains("303", "110");
            assertThat(item(gone).attributeValue("nick")).isEqualTo("Romeo2");
            Presence back = (Presence) got.get(got.size() - 1);
            assertThat(back.getType()).isNull();
            assertThat(back.getFrom().toString()).isEqualTo(ROOM + "/Romeo2");
            assertThat(statusCodes(back)).as(device).contains("110");
            // Only the device that asked gets its request's id back.
            assertThat(back.getID()).isEqualTo(device.endsWith("phone") ? "n2" : null);
        }
        List<Packet> juliet = muc.receivedBy("juliet@capulet.lit/balcony");
        assertThat(juliet).hasSize(2);
        assertThat(statusCodes(juliet.get(0))).containsExactly("303");
        assertThat(juliet.get(1).getFrom().toString()).isEqualTo(ROOM + "/Romeo2");

        // Both devices speak under the new nick.
        muc.send("<message from='romeo@montague.lit/laptop' to='" + ROOM + "' type='groupchat'><body>still me</body></message>");
        assertThat(muc.lastReceivedBy("juliet@capulet.lit/balcony").getFrom().toString()).isEqualTo(ROOM + "/Romeo2");
    }

    @Test
    void aNickChangeToATakenNickIsAConflict() {
        muc.send("<presence from='juliet@capulet.lit/balcony' to='" + ROOM + "/Romeo'/>");
        Packet error = muc.lastReceivedBy("juliet@capulet.lit/balcony");
        assertThat(errorCondition(error)).isEqualTo("conflict");
        assertThat(muc.receivedBy("romeo@montague.lit/phone")).isEmpty();
    }

    @Test
    void aPresenceUpdateIsBroadcast() {
        muc.send("<presence from='juliet@capulet.lit/balcony' to='" + ROOM + "/Juliet'><show>dnd</show><status>busy</status></presence>");
        Presence seen = (Presence) muc.lastReceivedBy("romeo@montague.lit/phone");
        assertThat(seen.getShow()).isEqualTo(Presence.Show.dnd);
        assertThat(seen.getStatus()).isEqualTo("busy");
        assertThat(statusCodes(muc.lastReceivedBy("juliet@capulet.lit/balcony"))).contains("110");
    }

    @Test
    void aSelfPingIsAnsweredByTheRoomAndAnotherOccupantsIqIsProxied() {
        muc.send("<iq from='juliet@capulet.lit/balcony' to='" + ROOM + "/Juliet' type='get' id='p1'><ping xmlns='urn:xmpp:ping'/></iq>");
        Packet pong = muc.lastReceivedBy("juliet@capulet.lit/balcony");
        assertThat(pong.getElement().attributeValue("type")).isEqualTo("result");

        muc.send("<iq from='tybalt@capulet.lit/x' to='" + ROOM + "/Juliet' type='get' id='p2'><ping xmlns='urn:xmpp:ping'/></iq>");
        assertThat(errorCondition(muc.lastReceivedBy("tybalt@capulet.lit/x"))).isEqualTo("not-acceptable");

        muc.send("<iq from='romeo@montague.lit/phone' to='" + ROOM + "/Juliet' type='get' id='v1'><query xmlns='jabber:iq:version'/></iq>");
        Packet forwarded = muc.lastReceivedBy("juliet@capulet.lit/balcony");
        assertThat(forwarded.getFrom().toString()).isEqualTo(ROOM + "/Romeo");
        muc.send("<iq from='juliet@capulet.lit/balcony' to='" + ROOM + "/Romeo' type='result' id='" + forwarded.getID() + "'>"
                + "<query xmlns='jabber:iq:version'><name>Balcony</name></query></iq>");
        Packet answer = muc.lastReceivedBy("romeo@montague.lit/phone");
        assertThat(answer.getID()).isEqualTo("v1");
        assertThat(answer.getFrom().toString()).isEqualTo(ROOM + "/Juliet");
        assertThat(answer.getElement().element("query").elementText("name")).isEqualTo("Balcony");
    }
}
