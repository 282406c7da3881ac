package org.reconmuc.component.muc.iq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.mucUser;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import org.dom4j.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.MucBench;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

class OwnerTest {
    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoOwnsTheRoomJulietIsIn() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.join("juliet@capulet.lit/balcony", ROOM, "Juliet");
    }

    private void configure(String from, String fields) {
        muc.send("<iq from='" + from + "' to='" + ROOM + "' type='set' id='c1'><query xmlns='http://jabber.org/protocol/muc#owner'>"
                + "<x xmlns='jabber:x:data' type='submit'>"
                + "<field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>"
                + fields + "</x></query></iq>");
    }

    private static String field(String var, String value) {
        return "<field var='" + var + "'><value>" + value + "</value></field>";
    }

    @Test
    void theOwnerGetsTheConfigurationForm() {
        muc.send("<iq from='romeo@montague.lit/phone' to='" + ROOM + "' type='get' id='g'><query xmlns='http://jabber.org/protocol/muc#owner'/></iq>");
        Packet result = muc.lastReceivedBy("romeo@montague.lit/phone");
        Element form = result.getElement().element("query").element("x");
        assertThat(form.attributeValue("type")).isEqualTo("form");
        assertThat(form.elements("field")).extracting(f -> f.attributeValue("var"))
                .contains("FORM_TYPE", "muc#roomconfig_membersonly", "muc#roomconfig_roomsecret", "muc#roomconfig_whois");
    }

    @Test
    void aParticipantCannotConfigure() {
        configure("juliet@capulet.lit/balcony", field("muc#roomconfig_roomname", "Mine"));
        assertThat(errorCondition(muc.lastReceivedBy("juliet@capulet.lit/balcony"))).isEqualTo("forbidden");
    }

    @Test
    void membersOnlyRemovesNonMembersAndRequiresRegistration() {
        configure("romeo@montague.lit/phone", field("muc#roomconfig_membersonly", "1"));
        Presence removed = (Presence) muc.receivedBy("juliet@capulet.lit/balcony").stream()
                .filter(p -> p instanceof Presence).reduce((a, b) -> b).orElseThrow();
        assertThat(statusCodes(removed)).contains("322");

        muc.send("<presence from='juliet@capulet.lit/balcony' to='" + ROOM + "/Juliet'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(errorCondition(muc.lastReceivedBy("juliet@capulet.lit/balcony"))).isEqualTo("registration-required");

        muc.send("<iq from='romeo@montague.lit/phone' to='" + ROOM + "' type='set' id='m'><query xmlns='http://jabber.org/protocol/muc#admin'>"
                + "<item affiliation='member' jid='juliet@capulet.lit'/></query></iq>");
        muc.send("<presence from='juliet@capulet.lit/balcony' to='" + ROOM + "/Juliet'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(statusCodes(muc.receivedBy("juliet@capulet.lit/balcony").get(1))).contains("110");
    }

    @Test
    void aPasswordProtectedRoomAsksForThePassword() {
        configure("romeo@montague.lit/phone", field("muc#roomconfig_passwordprotectedroom", "1")
                + field("muc#roomconfig_roomsecret", "capulet"));
        Packet notice = muc.lastReceivedBy("juliet@capulet.lit/balcony");
        assertThat(statusCodes(notice)).contains("104");

        muc.send("<presence from='nurse@capulet.lit/x' to='" + ROOM + "/Nurse'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(errorCondition(muc.lastReceivedBy("nurse@capulet.lit/x"))).isEqualTo("not-authorized");
        muc.send("<presence from='nurse@capulet.lit/x' to='" + ROOM + "/Nurse'><x xmlns='http://jabber.org/protocol/muc'><password>montague</password></x></presence>");
        assertThat(errorCondition(muc.lastReceivedBy("nurse@capulet.lit/x"))).isEqualTo("not-authorized");
        muc.send("<presence from='nurse@capulet.lit/x' to='" + ROOM + "/Nurse'><x xmlns='http://jabber.org/protocol/muc'><password>capulet</password></x></presence>");
        assertThat(muc.receivedBy("nurse@capulet.lit/x")).anyMatch(p -> statusCodes(p).contains("110"));
    }

    @Test
    void anInvalidFormChangesNothing() {
        configure("romeo@montague.lit/phone", field("muc#roomconfig_membersonly", "1") + field("muc#roomconfig_maxusers", "lots"));
        Packet error = muc.lastReceivedBy("romeo@montague.lit/phone");
        assertThat(errorCondition(error)).isEqualTo("not-acceptable");
        assertThat(MucBench.errorText(error)).contains("maxusers");
        muc.send("<presence from='nurse@capulet.lit/x' to='" + ROOM + "/Nurse'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(muc.receivedBy("nurse@capulet.lit/x")).anyMatch(p -> statusCodes(p).contains("110"));
    }

    @Test
    void aFullRoomRefusesNewcomers() {
        configure("romeo@montague.lit/phone", field("muc#roomconfig_maxusers", "2"));
        muc.send("<presence from='nurse@capulet.lit/x' to='" + ROOM + "/Nurse'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(errorCondition(muc.lastReceivedBy("nurse@capulet.lit/x"))).isEqualTo("service-unavailable");
    }

    @Test
    void destroyingTheRoomSendsEveryoneOut() {
        muc.send("<iq from='romeo@montague.lit/phone' to='" + ROOM + "' type='set' id='d'><query xmlns='http://jabber.org/protocol/muc#owner'>"
                + "<destroy jid='other@chat.example'><reason>moving</reason></destroy></query></iq>");
        Presence out = (Presence) muc.lastReceivedBy("juliet@capulet.lit/balcony");
        assertThat(out.getType()).isEqualTo(Presence.Type.unavailable);
        Element destroy = mucUser(out).element("destroy");
        assertThat(destroy.attributeValue("jid")).isEqualTo("other@chat.example");
        assertThat(destroy.elementText("reason")).isEqualTo("moving");
        assertThat(muc.receivedBy("juliet@capulet.lit/balcony")).as("only her own departure").isEmpty();
        assertThat(muc.service.roomCount()).isZero();

        muc.say("juliet@capulet.lit/balcony", ROOM, "hello?");
        assertThat(errorCondition(muc.lastReceivedBy("juliet@capulet.lit/balcony"))).isEqualTo("item-not-found");
    }

    @Test
    void aPersistentRoomOutlivesItsLastOccupant() {
        configure("romeo@montague.lit/phone", field("muc#roomconfig_persistentroom", "1"));
        muc.send("<presence from='juliet@capulet.lit/balcony' to='" + ROOM + "/Juliet' type='unavailable'/>");
        muc.send("<presence from='romeo@montague.lit/phone' to='" + ROOM + "/Romeo' type='unavailable'/>");
        assertThat(muc.service.roomCount()).isEqualTo(1);
    }
}
