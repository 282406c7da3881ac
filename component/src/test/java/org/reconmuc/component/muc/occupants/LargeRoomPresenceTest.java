package org.reconmuc.component.muc.occupants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.SERVICE;
import static org.reconmuc.component.muc.MucBench.item;

import java.util.List;
import org.dom4j.Element;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.PresenceBroadcastOption;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * A room of more than the service's {@code large-room-occupants} whose owner did not choose its
 * presence broadcast shows only moderators among those who enter (as Jitsi and PeerTube's livechat
 * configure their big rooms), so an entry no longer costs a presence to everyone and everyone's to
 * the newcomer. Here the size is 3: Romeo (the owner, a moderator), Juliet and the Nurse fill the
 * room; Tybalt is the fourth.
 */
class LargeRoomPresenceTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String NURSE = "nurse@capulet.lit/kitchen";
    private static final String TYBALT = "tybalt@capulet.lit/street";
    private static final String PARIS = "paris@verona.lit/palace";

    private final MucBench muc = new MucBench(ServiceConfig.defaults().toBuilder().domain(SERVICE).secret("x")
            .largeRoomOccupants(3).build());

    private void romeoJulietAndTheNurseFillTheRoom() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(NURSE, ROOM, "Nurse");
    }

    private void enter(String who, String nick) {
        muc.send("<presence from='" + who + "' to='" + ROOM + "/" + nick + "' id='join-" + nick + "'>"
                + "<x xmlns='http://jabber.org/protocol/muc'/></presence>");
    }

    private void say(String who, String nick, String show) {
        muc.send("<presence from='" + who + "' to='" + ROOM + "/" + nick + "'><show>" + show + "</show></presence>");
    }

    private void leave(String who, String nick) {
        muc.send("<presence from='" + who + "' to='" + ROOM + "/" + nick + "' type='unavailable'/>");
    }

    private void configure(String fields) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='config'>"
                + "<query xmlns='http://jabber.org/protocol/muc#owner'><x xmlns='jabber:x:data' type='submit'>"
                + "<field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>"
                + fields + "</x></query></iq>");
        assertThat(muc.replyTo(ROMEO, "config").getElement().attributeValue("type")).isEqualTo("result");
    }

    private static List<String> presencesFrom(List<Packet> received) {
        return received.stream().filter(p -> p instanceof Presence)
                .map(p -> p.getFrom().getResource() + (((Presence) p).getType() == Presence.Type.unavailable ? " left" : ""))
                .toList();
    }

    @Test
    void theFourthEntersUnseenAndSeesOnlyTheModeratorAndHimself() {
        romeoJulietAndTheNurseFillTheRoom();

        enter(TYBALT, "Tybalt");
        List<Packet> tybalt = muc.receivedBy(TYBALT);
        assertThat(presencesFrom(tybalt)).as("Romeo the moderator, then his own presence").containsExactly("Romeo", "Tybalt");
        assertThat(tybalt.stream().filter(p -> "join-Tybalt".equals(p.getID())).findFirst().map(MucBench::statusCodes))
                .hasValueSatisfying(codes -> assertThat(codes).contains("110"));
        assertThat(muc.receivedBy(ROMEO)).as("not even the moderator is told").isEmpty();
        assertThat(muc.receivedBy(JULIET)).isEmpty();
        assertThat(muc.receivedBy(NURSE)).isEmpty();

        // His status and his leaving are his alone.
        say(TYBALT, "Tybalt", "away");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).containsExactly("Tybalt");
        leave(TYBALT, "Tybalt");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).containsExactly("Tybalt left");
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
        assertThat(muc.receivedBy(JULIET)).isEmpty();
    }

    @Test
    void whoeverWasSeenBeforeTheRoomGrewStaysSeenAndItsLeavingReachesEveryoneEvenThoseWhoNeverSawIt() {
        romeoJulietAndTheNurseFillTheRoom();
        enter(TYBALT, "Tybalt");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).doesNotContain("Juliet");

        say(JULIET, "Juliet", "dnd");
        assertThat(presencesFrom(muc.receivedBy(ROMEO))).containsExactly("Juliet");
        assertThat(presencesFrom(muc.receivedBy(NURSE))).containsExactly("Juliet");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).as("now he knows she is here").containsExactly("Juliet");

        leave(JULIET, "Juliet");
        for (String everyone : List.of(ROMEO, NURSE, TYBALT)) {
            assertThat(presencesFrom(muc.receivedBy(everyone))).as(everyone).containsExactly("Juliet left");
        }
    }

    @Test
    void whenTheRoomIsNoLongerLargeTheUnseenAppearWithTheirNextStatusAndNewcomersAreSeenAgain() {
        romeoJulietAndTheNurseFillTheRoom();
        enter(TYBALT, "Tybalt");
        assertThat(presencesFrom(muc.receivedBy(ROMEO))).as("the room was large when he entered").isEmpty();
        leave(JULIET, "Juliet");
        leave(NURSE, "Nurse");
        muc.clear();

        say(TYBALT, "Tybalt", "chat");
        assertThat(presencesFrom(muc.receivedBy(ROMEO))).as("a room of two shows everyone").containsExactly("Tybalt");
        muc.receivedBy(TYBALT);

        enter(PARIS, "Paris");
        assertThat(presencesFrom(muc.receivedBy(PARIS))).containsExactly("Romeo", "Tybalt", "Paris");
        assertThat(presencesFrom(muc.receivedBy(ROMEO))).containsExactly("Paris");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).containsExactly("Paris");

        leave(TYBALT, "Tybalt");
        assertThat(presencesFrom(muc.receivedBy(ROMEO))).containsExactly("Tybalt left");
        assertThat(presencesFrom(muc.receivedBy(PARIS))).containsExactly("Tybalt left");
    }

    @Test
    void aModeratorIsAlwaysSeenAndOneMadeModeratorAppears() {
        romeoJulietAndTheNurseFillTheRoom();
        enter(TYBALT, "Tybalt");
        muc.clear();

        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='mod'>"
                + "<query xmlns='http://jabber.org/protocol/muc#admin'><item nick='Tybalt' role='moderator'/></query></iq>");
        for (String everyone : List.of(ROMEO, JULIET, NURSE)) {
            List<Packet> received = muc.receivedBy(everyone);
            assertThat(presencesFrom(received)).as(everyone).containsExactly("Tybalt");
            assertThat(item(received.stream().filter(p -> p instanceof Presence).findFirst().orElseThrow())
                    .attributeValue("role")).isEqualTo("moderator");
        }
        enter(PARIS, "Paris");
        assertThat(presencesFrom(muc.receivedBy(PARIS))).containsExactly("Romeo", "Tybalt", "Paris");
    }

    @Test
    void theOwnersFormOffersTheLimitAndItsChoiceWins() {
        romeoJulietAndTheNurseFillTheRoom();
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='get' id='form'>"
                + "<query xmlns='http://jabber.org/protocol/muc#owner'/></iq>");
        Element form = muc.replyTo(ROMEO, "form").getElement().element("query").element("x");
        Element limit = form.elements("field").stream()
                .filter(f -> PresenceBroadcastOption.LARGE_ROOM_VAR.equals(f.attributeValue("var"))).findFirst().orElseThrow();
        assertThat(limit.attributeValue("type")).isEqualTo("boolean");
        assertThat(limit.elementText("value")).isEqualTo("1");

        // A client that sends the whole form back as it was shown keeps the limit.
        configure("<field var='muc#roomconfig_presencebroadcast'><value>moderator</value><value>participant</value>"
                + "<value>visitor</value></field><field var='" + PresenceBroadcastOption.LARGE_ROOM_VAR + "'><value>1</value></field>");
        enter(TYBALT, "Tybalt");
        assertThat(presencesFrom(muc.receivedBy(JULIET))).isEmpty();
        leave(TYBALT, "Tybalt");
        muc.clear();

        // An owner naming the roles, as on Prosody or ejabberd, chose them for every size.
        configure("<field var='muc#roomconfig_presencebroadcast'><value>moderator</value><value>participant</value>"
                + "<value>visitor</value></field>");
        enter(TYBALT, "Tybalt");
        assertThat(presencesFrom(muc.receivedBy(JULIET))).containsExactly("Tybalt");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).containsExactly("Romeo", "Juliet", "Nurse", "Tybalt");
    }

    @Test
    void withTheLimitTurnedOffAtARoomThatIsLargeTheUnseenAppear() {
        romeoJulietAndTheNurseFillTheRoom();
        enter(TYBALT, "Tybalt");
        muc.clear();

        configure("<field var='" + PresenceBroadcastOption.LARGE_ROOM_VAR + "'><value>0</value></field>");
        assertThat(presencesFrom(muc.receivedBy(JULIET))).containsExactly("Tybalt");
        assertThat(presencesFrom(muc.receivedBy(ROMEO))).containsExactly("Tybalt");
    }

    @Test
    void aServiceWithoutALargeRoomSizeShowsEveryone() {
        MucBench never = new MucBench(ServiceConfig.defaults().toBuilder().domain(SERVICE).secret("x")
                .largeRoomOccupants(0).build());
        never.join(ROMEO, ROOM, "Romeo");
        never.join(JULIET, ROOM, "Juliet");
        never.join(NURSE, ROOM, "Nurse");
        never.send("<presence from='" + TYBALT + "' to='" + ROOM + "/Tybalt'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(presencesFrom(never.receivedBy(TYBALT))).containsExactly("Romeo", "Juliet", "Nurse", "Tybalt");
        assertThat(presencesFrom(never.receivedBy(JULIET))).containsExactly("Tybalt");
    }
}
