package org.reconmuc.component.muc.iq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.item;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.util.List;
import org.dom4j.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.MucBench;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

class AdminTest {
    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoOwnsTheRoomJulietAndTybaltAreIn() {
        muc.join("romeo@montague.lit/phone", ROOM, "Romeo");
        muc.join("juliet@capulet.lit/balcony", ROOM, "Juliet");
        muc.join("tybalt@capulet.lit/sword", ROOM, "Tybalt");
    }

    private void admin(String from, String type, String items) {
        muc.send("<iq from='" + from + "' to='" + ROOM + "' type='" + type + "' id='a1'>"
                + "<query xmlns='http://jabber.org/protocol/muc#admin'>" + items + "</query></iq>");
    }

    @Test
    void theOwnerKicksTybaltWithAReason() {
        admin("romeo@montague.lit/phone", "set", "<item nick='Tybalt' role='none'><reason>fighting</reason></item>");

        Presence kicked = (Presence) muc.lastReceivedBy("tybalt@capulet.lit/sword");
        assertThat(kicked.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(statusCodes(kicked)).contains("307", "110");
        assertThat(item(kicked).elementText("reason")).isEqualTo("fighting");
        assertThat(item(kicked).element("actor").attributeValue("nick")).isEqualTo("Romeo");
        assertThat(statusCodes(muc.lastReceivedBy("juliet@capulet.lit/balcony"))).contains("307");
        assertThat(muc.lastReceivedBy("romeo@montague.lit/phone").getElement().attributeValue("type")).isEqualTo("result");

        muc.say("tybalt@capulet.lit/sword", ROOM, "still here?");
        assertThat(errorCondition(muc.lastReceivedBy("tybalt@capulet.lit/sword"))).isEqualTo("not-acceptable");
    }

    @Test
    void aParticipantMayNotKick() {
        admin("juliet@capulet.lit/balcony", "set", "<item nick='Tybalt' role='none'/>");
        assertThat(errorCondition(muc.lastReceivedBy("juliet@capulet.lit/balcony"))).isEqualTo("forbidden");
        assertThat(muc.receivedBy("tybalt@capulet.lit/sword")).isEmpty();
    }

    @Test
    void theOwnerCannotBeKicked() {
        admin("romeo@montague.lit/phone", "set", "<item affiliation='admin' jid='juliet@capulet.lit'/>");
        muc.clear();
        admin("juliet@capulet.lit/balcony", "set", "<item nick='Romeo' role='none'/>");
        assertThat(errorCondition(muc.lastReceivedBy("juliet@capulet.lit/balcony"))).isEqualTo("not-allowed");
    }

    @Test
    void kickingAnUnknownNickIsItemNotFound() {
        admin("romeo@montague.lit/phone", "set", "<item nick='Paris' role='none'/>");
        assertThat(errorCondition(muc.lastReceivedBy("romeo@montague.lit/phone"))).isEqualTo("item-not-found");
    }

    @Test
    void aBanRemovesTheUserAndKeepsItOut() {
        admin("romeo@montague.lit/phone", "set", "<item affiliation='outcast' jid='tybalt@capulet.lit'><reason>no</reason></item>");
        Presence banned = (Presence) muc.lastReceivedBy("tybalt@capulet.lit/sword");
        assertThat(statusCodes(banned)).contains("301");

        muc.send("<presence from='tybalt@capulet.lit/other' to='" + ROOM + "/Tybalt2'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(errorCondition(muc.lastReceivedBy("tybalt@capulet.lit/other"))).isEqualTo("forbidden");

        muc.clear();
        admin("romeo@montague.lit/phone", "get", "<item affiliation='outcast'/>");
        Packet list = muc.lastReceivedBy("romeo@montague.lit/phone");
        List<Element> items = list.getElement().element("query").elements("item");
        assertThat(items).extracting(i -> i.attributeValue("jid")).containsExactly("tybalt@capulet.lit");
    }

    @Test
    void revokingVoiceMakesAVisitorWhoCannotSpeak() {
        admin("romeo@montague.lit/phone", "set", "<item nick='Tybalt' role='visitor'><reason>brawling</reason></item>");
        // §8.4: the new role, who changed it (his nick; his real JID only to moderators) and why.
        Element atJuliet = item(muc.lastReceivedBy("juliet@capulet.lit/balcony"));
        assertThat(atJuliet.attributeValue("role")).isEqualTo("visitor");
        assertThat(atJuliet.element("actor").attributeValue("nick")).isEqualTo("Romeo");
        assertThat(atJuliet.element("actor").attributeValue("jid")).as("semi-anonymous room").isNull();
        assertThat(atJuliet.elementText("reason")).isEqualTo("brawling");
        Element atRomeo = item(muc.receivedBy("romeo@montague.lit/phone").stream().filter(p -> p instanceof Presence)
                .findFirst().orElseThrow());
        assertThat(atRomeo.element("actor").attributeValue("jid")).isEqualTo("romeo@montague.lit/phone");
        muc.say("tybalt@capulet.lit/sword", ROOM, "let me speak");
        assertThat(errorCondition(muc.lastReceivedBy("tybalt@capulet.lit/sword"))).isEqualTo("forbidden");
    }

    @Test
    void theLastOwnerCannotStepDown() {
        admin("romeo@montague.lit/phone", "set", "<item affiliation='member' jid='romeo@montague.lit'/>");
        assertThat(errorCondition(muc.lastReceivedBy("romeo@montague.lit/phone"))).isEqualTo("conflict");
    }

    @Test
    void anAdminCannotMakeOwnersAndAMalformedItemIsABadRequest() {
        admin("romeo@montague.lit/phone", "set", "<item affiliation='admin' jid='juliet@capulet.lit'/>");
        muc.clear();
        admin("juliet@capulet.lit/balcony", "set", "<item affiliation='owner' jid='tybalt@capulet.lit'/>");
        assertThat(errorCondition(muc.lastReceivedBy("juliet@capulet.lit/balcony"))).isEqualTo("forbidden");
        admin("juliet@capulet.lit/balcony", "set", "<item/>");
        assertThat(errorCondition(muc.lastReceivedBy("juliet@capulet.lit/balcony"))).isEqualTo("bad-request");
        admin("juliet@capulet.lit/balcony", "set", "<item affiliation='emperor' jid='tybalt@capulet.lit'/>");
        assertThat(errorCondition(muc.lastReceivedBy("juliet@capulet.lit/balcony"))).isEqualTo("bad-request");
    }

    @Test
    void aRequestWithOneBadItemChangesNothing() {
        admin("romeo@montague.lit/phone", "set", "<item nick='Tybalt' role='none'/><item nick='Nobody' role='none'/>");
        assertThat(errorCondition(muc.lastReceivedBy("romeo@montague.lit/phone"))).isEqualTo("item-not-found");
        assertThat(muc.receivedBy("tybalt@capulet.lit/sword")).isEmpty();
    }
}
