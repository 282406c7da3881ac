package org.reconmuc.component.muc.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.errorText;
import static org.reconmuc.component.muc.MucBench.item;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.util.List;
import org.dom4j.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.MucBench;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * XEP-0045 §10.2 {@code muc#roomconfig_presencebroadcast}: the roles whose presence the others in
 * the room are sent. A room of thousands that broadcasts only its moderators' presences spares
 * everyone the presences of everyone else entering, leaving and changing status.
 */
class PresenceBroadcastTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String NURSE = "nurse@capulet.lit/kitchen";

    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoOwnsTheRoom() {
        muc.join(ROMEO, ROOM, "Romeo");
    }

    private void configure(String fields) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='config'>"
                + "<query xmlns='http://jabber.org/protocol/muc#owner'><x xmlns='jabber:x:data' type='submit'>"
                + "<field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>"
                + fields + "</x></query></iq>");
    }

    private void broadcastOnly(String... roles) {
        StringBuilder values = new StringBuilder();
        for (String r : roles) {
            values.append("<value>").append(r).append("</value>");
        }
        configure("<field var='muc#roomconfig_presencebroadcast'>" + values + "</field>");
        assertThat(muc.replyTo(ROMEO, "config").getElement().attributeValue("type")).isEqualTo("result");
    }

    private void enter(String who, String nick) {
        muc.send("<presence from='" + who + "' to='" + ROOM + "/" + nick + "' id='join-" + nick + "'>"
                + "<x xmlns='http://jabber.org/protocol/muc'/></presence>");
    }

    private void julietEntersARoomThatShowsOnlyModerators() {
        broadcastOnly("moderator");
        enter(JULIET, "Juliet");
        muc.clear();
    }

    private void romeoGivesJuliet(String role) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='role-" + role + "'>"
                + "<query xmlns='http://jabber.org/protocol/muc#admin'><item nick='Juliet' role='" + role + "'/></query></iq>");
    }

    private static List<Packet> presencesFrom(List<Packet> received, String nick) {
        return received.stream().filter(p -> p instanceof Presence && (ROOM + "/" + nick).equals(p.getFrom().toString())).toList();
    }

    @Test
    void theFormOffersTheThreeRolesAndShowsAllOfThemByDefault() {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='get' id='form'>"
                + "<query xmlns='http://jabber.org/protocol/muc#owner'/></iq>");
        Element form = muc.replyTo(ROMEO, "form").getElement().element("query").element("x");
        Element field = form.elements("field").stream()
                .filter(f -> "muc#roomconfig_presencebroadcast".equals(f.attributeValue("var"))).findFirst().orElseThrow();
        assertThat(field.attributeValue("type")).isEqualTo("list-multi");
        assertThat(field.elements("value")).extracting(Element::getText).containsExactly("moderator", "participant", "visitor");
        assertThat(field.elements("option")).extracting(o -> o.elementText("value"))
                .containsExactly("moderator", "participant", "visitor");
    }

    @Test
    void inARoomThatShowsOnlyModeratorsJulietEntersUnseenButSeesRomeoAndReadsTheChat() {
        broadcastOnly("moderator");
        assertThat(statusCodes(muc.lastReceivedBy(ROMEO))).as("the 104 of a changed configuration").contains("104");

        enter(JULIET, "Juliet");
        List<Packet> juliet = muc.receivedBy(JULIET);
        assertThat(presencesFrom(juliet, "Romeo")).as("Romeo is a moderator: Juliet sees him").hasSize(1);
        Presence self = (Presence) presencesFrom(juliet, "Juliet").get(0);
        assertThat(statusCodes(self)).contains("110");
        assertThat(item(self).attributeValue("role")).isEqualTo("participant");
        assertThat(muc.receivedBy(ROMEO)).as("Romeo is not told of a participant entering").isEmpty();

        enter(NURSE, "Nurse");
        assertThat(presencesFrom(muc.receivedBy(NURSE), "Juliet")).as("the Nurse does not see Juliet either").isEmpty();
        assertThat(muc.receivedBy(JULIET)).isEmpty();

        // Messages reach everyone as always.
        muc.say(JULIET, ROOM, "Good night");
        assertThat(muc.receivedBy(ROMEO)).singleElement().isInstanceOf(Message.class);
        assertThat(muc.receivedBy(NURSE)).singleElement().isInstanceOf(Message.class);
        muc.receivedBy(JULIET);

        // A status change and her leaving are for her alone.
        muc.send("<presence from='" + JULIET + "' to='" + ROOM + "/Juliet'><show>away</show></presence>");
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
        assertThat(statusCodes(muc.lastReceivedBy(JULIET))).contains("110");
        muc.send("<presence from='" + JULIET + "' to='" + ROOM + "/Juliet' type='unavailable' id='bye'/>");
        assertThat(((Presence) muc.replyTo(JULIET, "bye")).getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
        assertThat(muc.receivedBy(NURSE)).isEmpty();
    }

    @Test
    void julietAppearsWhenMadeModeratorAndLeavesTheirViewWhenNoLongerOne() {
        julietEntersARoomThatShowsOnlyModerators();

        romeoGivesJuliet("moderator");
        Presence appears = (Presence) presencesFrom(muc.receivedBy(ROMEO), "Juliet").get(0);
        assertThat(appears.getType()).isNull();
        assertThat(item(appears).attributeValue("role")).isEqualTo("moderator");
        assertThat(item(muc.lastReceivedBy(JULIET)).attributeValue("role")).isEqualTo("moderator");

        enter(NURSE, "Nurse");
        assertThat(presencesFrom(muc.receivedBy(NURSE), "Juliet")).as("newcomers see the moderator Juliet").hasSize(1);

        romeoGivesJuliet("participant");
        Presence gone = (Presence) presencesFrom(muc.receivedBy(NURSE), "Juliet").get(0);
        assertThat(gone.getType()).as("no longer shown: unavailable to the others").isEqualTo(Presence.Type.unavailable);
        Presence own = (Presence) presencesFrom(muc.receivedBy(JULIET), "Juliet").get(0);
        assertThat(own.getType()).as("Juliet herself is still in the room").isNull();
        assertThat(item(own).attributeValue("role")).isEqualTo("participant");
        assertThat(statusCodes(own)).contains("110");

        // Her leaving now concerns only her.
        muc.clear();
        muc.send("<presence from='" + JULIET + "' to='" + ROOM + "/Juliet' type='unavailable'/>");
        assertThat(muc.receivedBy(NURSE)).isEmpty();
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
    }

    @Test
    void whenTheRoomShowsParticipantsAgainTheHiddenOnesAppear() {
        julietEntersARoomThatShowsOnlyModerators();

        broadcastOnly("moderator", "participant", "visitor");
        List<Packet> romeo = muc.receivedBy(ROMEO);
        assertThat(presencesFrom(romeo, "Juliet")).singleElement().satisfies(p -> assertThat(((Presence) p).getType()).isNull());
        muc.clear();

        broadcastOnly("moderator");
        assertThat(presencesFrom(muc.receivedBy(ROMEO), "Juliet")).singleElement()
                .satisfies(p -> assertThat(((Presence) p).getType()).isEqualTo(Presence.Type.unavailable));
    }

    @Test
    void anEmptyListShowsNobodyAndAnUnknownRoleIsRefusedWithTheFieldNamed() {
        configure("<field var='muc#roomconfig_presencebroadcast'><value>moderator</value><value>none</value></field>");
        Packet refused = muc.replyTo(ROMEO, "config");
        assertThat(errorCondition(refused)).isEqualTo("not-acceptable");
        assertThat(errorText(refused)).contains("muc#roomconfig_presencebroadcast").contains("'none'");

        configure("<field var='muc#roomconfig_presencebroadcast'/>");
        assertThat(muc.replyTo(ROMEO, "config").getElement().attributeValue("type")).isEqualTo("result");
        muc.clear();
        enter(JULIET, "Juliet");
        assertThat(presencesFrom(muc.receivedBy(JULIET), "Romeo")).as("not even the moderator is shown").isEmpty();
    }
}
