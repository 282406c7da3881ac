package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Presence levels (reconmuc.md §5.17): each occupant asks for the presences of everyone, of the
 * moderators only, or of nobody but itself, with {@code <presences xmlns='urn:reconmuc:0' level/>}
 * in its presence or in its requirements. Romeo owns the room (a moderator); Juliet and the Nurse
 * ask for nothing.
 */
class PresenceLevelsTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String NURSE = "nurse@capulet.lit/kitchen";
    private static final String TYBALT = "tybalt@capulet.lit/street";
    private static final String BENVOLIO = "benvolio@montague.lit/square";

    private final MucBench muc = new MucBench();

    private void romeoJulietAndTheNurseAreIn() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(NURSE, ROOM, "Nurse");
    }

    private void enterAsking(String who, String nick, String level) {
        muc.send("<presence from='" + who + "' to='" + ROOM + "/" + nick + "' id='join-" + nick + "'>"
                + "<x xmlns='http://jabber.org/protocol/muc'/><presences xmlns='urn:reconmuc:0' level='" + level + "'/></presence>");
    }

    private void say(String who, String nick, String show) {
        muc.send("<presence from='" + who + "' to='" + ROOM + "/" + nick + "'><show>" + show + "</show></presence>");
    }

    private void askFrom(String who, String nick, String level) {
        muc.send("<presence from='" + who + "' to='" + ROOM + "/" + nick + "' id='level-" + nick + "'>"
                + "<presences xmlns='urn:reconmuc:0' level='" + level + "'/></presence>");
    }

    private void leave(String who, String nick) {
        muc.send("<presence from='" + who + "' to='" + ROOM + "/" + nick + "' type='unavailable'/>");
    }

    private void setRole(String nick, String role) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='role-" + nick + "'>"
                + "<query xmlns='http://jabber.org/protocol/muc#admin'><item nick='" + nick + "' role='" + role + "'/></query></iq>");
        assertThat(muc.replyTo(ROMEO, "role-" + nick).getElement().attributeValue("type")).isEqualTo("result");
    }

    private static List<String> presencesFrom(List<Packet> received) {
        return received.stream().filter(p -> p instanceof Presence)
                .map(p -> p.getFrom().getResource() + (((Presence) p).getType() == Presence.Type.unavailable ? " left" : "")
                        + (MucBench.statusCodes(p).contains("110") ? " (self)" : ""))
                .toList();
    }

    @Test
    void tybaltAsksForNoneGetsOnlyHisOwnPresenceWhileTheOthersStillSeeHimEnter() {
        romeoJulietAndTheNurseAreIn();

        enterAsking(TYBALT, "Tybalt", "none");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).containsExactly("Tybalt (self)");
        for (String other : List.of(ROMEO, JULIET, NURSE)) {
            List<Packet> seen = muc.receivedBy(other);
            assertThat(presencesFrom(seen)).as(other).containsExactly("Tybalt");
            assertThat(seen.get(0).getElement().element("presences")).as("his level is his own business").isNull();
        }

        say(JULIET, "Juliet", "away");
        leave(NURSE, "Nurse");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).as("nobody's status, nobody's leaving").isEmpty();
        assertThat(presencesFrom(muc.receivedBy(ROMEO))).containsExactly("Juliet", "Nurse left");

        say(TYBALT, "Tybalt", "dnd");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).containsExactly("Tybalt (self)");
        assertThat(presencesFrom(muc.receivedBy(ROMEO))).containsExactly("Tybalt");
    }

    @Test
    void tybaltAsksForTheModeratorsAndFollowsWhoeverBecomesOneUntilItStopsBeingOne() {
        romeoJulietAndTheNurseAreIn();

        enterAsking(TYBALT, "Tybalt", "moderators");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).as("the moderator, then himself last")
                .containsExactly("Romeo", "Tybalt (self)");

        say(JULIET, "Juliet", "away");
        say(ROMEO, "Romeo", "chat");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).containsExactly("Romeo");
        muc.clear();

        setRole("Juliet", "moderator");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).as("Juliet appears as she becomes a moderator")
                .containsExactly("Juliet");
        assertThat(presencesFrom(muc.receivedBy(NURSE))).containsExactly("Juliet");

        setRole("Juliet", "participant");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).as("and leaves his view when she stops being one")
                .containsExactly("Juliet left");
        assertThat(presencesFrom(muc.receivedBy(NURSE))).as("everyone else still sees her").containsExactly("Juliet");

        leave(JULIET, "Juliet");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).as("he no longer holds her").isEmpty();

        muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo2'/>");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).as("the moderator's nick change, as a 303 and his new presence")
                .containsExactly("Romeo left", "Romeo2");
        leave(ROMEO, "Romeo2");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).containsExactly("Romeo2 left");
    }

    @Test
    void julietWhoAskedForNoneAsksForAllAndIsSentEveryoneSheLacksThenForTheModeratorsAndTheOthersLeaveHerView() {
        muc.join(ROMEO, ROOM, "Romeo");
        enterAsking(JULIET, "Juliet", "none");
        muc.join(NURSE, ROOM, "Nurse");
        muc.clear();

        askFrom(JULIET, "Juliet", "all");
        assertThat(presencesFrom(muc.receivedBy(JULIET))).as("everyone she lacks, then her own")
                .containsExactly("Romeo", "Nurse", "Juliet (self)");
        say(NURSE, "Nurse", "away");
        assertThat(presencesFrom(muc.receivedBy(JULIET))).containsExactly("Nurse");

        askFrom(JULIET, "Juliet", "moderators");
        assertThat(presencesFrom(muc.receivedBy(JULIET))).as("the Nurse leaves her view; Romeo stays")
                .containsExactly("Nurse left", "Juliet (self)");
        leave(NURSE, "Nurse");
        muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo' type='unavailable'/>");
        assertThat(presencesFrom(muc.receivedBy(JULIET))).as("Romeo, whom she kept, is seen leaving")
                .containsExactly("Romeo left");
    }

    @Test
    void aRelaxedOccupantSaysItsLevelInItsRequirementsAndReadsItBack() {
        romeoJulietAndTheNurseAreIn();
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='set' id='req'>"
                + "<consistency-requirements xmlns='urn:reconmuc:0'><presences level='none'/></consistency-requirements></iq>");
        Packet result = muc.replyTo(JULIET, "req");
        assertThat(result.getElement().attributeValue("type")).isEqualTo("result");
        assertThat(result.getElement().element("consistency-requirements").element("presences").attributeValue("level"))
                .isEqualTo("none");
        assertThat(presencesFrom(muc.receivedBy(JULIET))).as("the Nurse and Romeo leave her view")
                .containsExactly("Romeo left", "Nurse left");

        enterAsking(TYBALT, "Tybalt", "all");
        say(NURSE, "Nurse", "away");
        assertThat(presencesFrom(muc.receivedBy(JULIET))).isEmpty();
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).as("Tybalt asked for everyone")
                .containsExactly("Romeo", "Juliet", "Nurse", "Tybalt (self)", "Nurse");

        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='get' id='get'>"
                + "<consistency-requirements xmlns='urn:reconmuc:0'/></iq>");
        assertThat(muc.replyTo(JULIET, "get").getElement().element("consistency-requirements").element("presences")
                .attributeValue("level")).isEqualTo("none");
    }

    @Test
    void aStandardOccupantWhoAsksForNothingGetsEveryoneAsBefore() {
        romeoJulietAndTheNurseAreIn();
        muc.send("<presence from='" + TYBALT + "' to='" + ROOM + "/Tybalt'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(presencesFrom(muc.receivedBy(TYBALT))).containsExactly("Romeo", "Juliet", "Nurse", "Tybalt (self)");
    }

    @Test
    void theRoomSaysItHonoursPresenceLevels() {
        romeoJulietAndTheNurseAreIn();
        muc.send("<iq from='" + TYBALT + "' to='" + ROOM + "' type='get' id='disco'>"
                + "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>");
        assertThat(muc.replyTo(TYBALT, "disco").getElement().element("query").elements("feature"))
                .extracting(f -> f.attributeValue("var")).contains("urn:reconmuc:0#presences");
    }

    @Test
    void anUnknownLevelIsABadRequestAndTheJoinIsRefused() {
        romeoJulietAndTheNurseAreIn();
        enterAsking(BENVOLIO, "Benvolio", "friends");
        Packet error = muc.replyTo(BENVOLIO, "join-Benvolio");
        assertThat(MucBench.errorCondition(error)).isEqualTo("bad-request");
        assertThat(MucBench.errorText(error)).contains("level='all', 'moderators' or 'none'", "'friends'");
        assertThat(muc.receivedBy(ROMEO)).as("nobody entered").isEmpty();

        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='set' id='req'>"
                + "<consistency-requirements xmlns='urn:reconmuc:0'><presences/></consistency-requirements></iq>");
        assertThat(MucBench.errorCondition(muc.replyTo(JULIET, "req"))).isEqualTo("bad-request");
    }
}
