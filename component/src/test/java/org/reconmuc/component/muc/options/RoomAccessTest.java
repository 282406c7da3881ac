package org.reconmuc.component.muc.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.SERVICE;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.util.List;
import org.dom4j.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.reconmuc.component.muc.RoomAccess;
import org.reconmuc.component.muc.RoomArchive;

/**
 * The room's one access rule ({@link RoomAccess}) per kind of room, as conversations: who may
 * enter, read the archive and see the occupants, and when a room is in the room directory.
 * Romeo owns the room and Juliet is in it; Benvolio is a member who is not in it, Tybalt an
 * admin, the Nurse nobody to the room.
 */
class RoomAccessTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String BENVOLIO = "benvolio@montague.lit/a";
    private static final String TYBALT = "tybalt@capulet.lit/sword";
    private static final String NURSE = "nurse@capulet.lit/x";

    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoOwnsTheRoomJulietIsInBenvolioIsAMember() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        affiliate("juliet@capulet.lit", "member");
        affiliate("benvolio@montague.lit", "member");
        affiliate("tybalt@capulet.lit", "admin");
        muc.say(JULIET, ROOM, "Wherefore art thou");
        muc.clear();
    }

    private void affiliate(String bareJid, String affiliation) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='a'><query xmlns='" + Namespaces.MUC_ADMIN
                + "'><item affiliation='" + affiliation + "' jid='" + bareJid + "'/></query></iq>");
    }

    private void configure(String fields) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='c'><query xmlns='" + Namespaces.MUC_OWNER + "'>"
                + "<x xmlns='jabber:x:data' type='submit'>"
                + "<field var='FORM_TYPE'><value>" + Namespaces.MUC_ROOMCONFIG + "</value></field>" + fields + "</x></query></iq>");
        assertThat(muc.replyTo(ROMEO, "c").getElement().attributeValue("type")).isEqualTo("result");
        muc.clear();
    }

    private static String field(String var, String value) {
        return "<field var='" + var + "'><value>" + value + "</value></field>";
    }

    /** The occupant JIDs {@code user} is shown in disco#items of the room. */
    private List<String> occupantsShownTo(String user) {
        muc.send("<iq from='" + user + "' to='" + ROOM + "' type='get' id='i'><query xmlns='" + Namespaces.DISCO_ITEMS + "'/></iq>");
        return muc.replyTo(user, "i").getElement().element("query").elements("item").stream()
                .map(i -> i.attributeValue("jid")).toList();
    }

    /** The rooms the service lists to anyone (disco#items of the service). */
    private List<String> roomDirectory() {
        muc.send("<iq from='" + NURSE + "' to='" + SERVICE + "' type='get' id='d'><query xmlns='" + Namespaces.DISCO_ITEMS + "'/></iq>");
        return muc.replyTo(NURSE, "d").getElement().element("query").elements("item").stream()
                .map(i -> i.attributeValue("jid")).toList();
    }

    private List<String> roomFeatures() {
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "' type='get' id='f'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        return muc.replyTo(NURSE, "f").getElement().element("query").elements("feature").stream()
                .map(f -> f.attributeValue("var")).toList();
    }

    /** {@code user} asks the archive for everything: the error condition, or null when it answers. */
    private String archiveRefusalTo(String user) {
        muc.send("<iq from='" + user + "' to='" + ROOM + "' type='set' id='q'><query xmlns='" + RoomArchive.NAMESPACE + "'/></iq>");
        String condition = errorCondition(muc.replyTo(user, "q"));
        muc.clear();
        return condition;
    }

    private void joinWithPassword(String user, String nick, String password) {
        muc.send("<presence from='" + user + "' to='" + ROOM + "/" + nick + "'><x xmlns='http://jabber.org/protocol/muc'>"
                + (password == null ? "" : "<password>" + password + "</password>") + "</x></presence>");
    }

    @Test
    void aMembersOnlyRoomShowsItsOccupantsOnlyToItsMembers() {
        assertThat(occupantsShownTo(NURSE)).as("an open public room, to anyone").hasSize(2);
        configure(field("muc#roomconfig_membersonly", "1"));

        assertThat(occupantsShownTo(NURSE)).as("a members-only room, to an outsider").isEmpty();
        assertThat(occupantsShownTo(BENVOLIO)).as("to a member who is not in it")
                .containsExactly(ROOM + "/Romeo", ROOM + "/Juliet");
        assertThat(occupantsShownTo(JULIET)).as("to an occupant").hasSize(2);
    }

    @Test
    void aRoomMadeMembersOnlyLeavesTheRoomDirectoryUntilItsOwnerListsItAgain() {
        assertThat(roomDirectory()).containsExactly(ROOM);

        // A client submitting the whole form sends publicroom back as it was shown: that is no choice to list it.
        configure(field("muc#roomconfig_membersonly", "1") + field("muc#roomconfig_publicroom", "1"));
        assertThat(roomDirectory()).isEmpty();
        assertThat(roomFeatures()).contains("muc_membersonly", "muc_hidden");

        configure(field("muc#roomconfig_publicroom", "1"));
        assertThat(roomDirectory()).containsExactly(ROOM);
        assertThat(occupantsShownTo(NURSE)).as("listed, but still members-only").isEmpty();
    }

    @Test
    void aHiddenRoomShowsItsOccupantsToItsMembersButNotToOutsiders() {
        configure(field("muc#roomconfig_publicroom", "0"));

        assertThat(occupantsShownTo(NURSE)).isEmpty();
        assertThat(occupantsShownTo(BENVOLIO)).containsExactly(ROOM + "/Romeo", ROOM + "/Juliet");
        assertThat(archiveRefusalTo(NURSE)).as("hidden is not private: its archive is as open as the room").isNull();
    }

    @Test
    void anAdminGivesThePasswordLikeEveryoneElse() {
        configure(field("muc#roomconfig_passwordprotectedroom", "1") + field("muc#roomconfig_roomsecret", "capulet"));

        joinWithPassword(TYBALT, "Tybalt", null);
        assertThat(errorCondition(muc.lastReceivedBy(TYBALT))).isEqualTo("not-authorized");
        joinWithPassword(TYBALT, "Tybalt", "capulet");
        assertThat(muc.receivedBy(TYBALT)).anyMatch(p -> statusCodes(p).contains("110"));
    }

    @Test
    void aPasswordProtectedRoomIsReadFromInsideOnly() {
        configure(field("muc#roomconfig_passwordprotectedroom", "1") + field("muc#roomconfig_roomsecret", "capulet"));

        assertThat(occupantsShownTo(NURSE)).as("public, but the password guards who is in it").isEmpty();
        assertThat(occupantsShownTo(BENVOLIO)).as("a member outside has not given the password").isEmpty();
        assertThat(archiveRefusalTo(BENVOLIO)).isEqualTo("forbidden");

        joinWithPassword(BENVOLIO, "Benvolio", "capulet");
        muc.clear();
        assertThat(occupantsShownTo(BENVOLIO)).hasSize(3);
        assertThat(archiveRefusalTo(BENVOLIO)).isNull();
        assertThat(archiveRefusalTo(JULIET)).as("Juliet entered before the password was set: she is inside").isNull();
    }

    @Test
    void anOutcastSeesNothingOfAPublicRoom() {
        affiliate("tybalt@capulet.lit", "outcast");

        assertThat(occupantsShownTo(TYBALT)).isEmpty();
        assertThat(archiveRefusalTo(TYBALT)).isEqualTo("forbidden");
        assertThat(occupantsShownTo(NURSE)).hasSize(2);
        assertThat(archiveRefusalTo(NURSE)).isNull();
    }

    @Test
    void aRoomThatIsNotLoggedHasNoArchiveEvenForItsOwner() {
        configure(field("muc#roomconfig_enablelogging", "0"));

        assertThat(archiveRefusalTo(ROMEO)).isEqualTo("feature-not-implemented");
        configure(field("muc#roomconfig_membersonly", "1"));
        assertThat(archiveRefusalTo(NURSE)).as("who may read comes before whether there is anything").isEqualTo("forbidden");
    }

    @Test
    void theMembersOnlyRuleRemovesWhoeverLosesMembership() {
        configure(field("muc#roomconfig_membersonly", "1"));
        affiliate("juliet@capulet.lit", "none");

        Element x = muc.receivedBy(JULIET).stream().filter(p -> statusCodes(p).contains("110")).findFirst().orElseThrow()
                .getElement().element("x");
        assertThat(x.elements("status")).extracting(s -> s.attributeValue("code")).contains("321");
        assertThat(occupantsShownTo(ROMEO)).containsExactly(ROOM + "/Romeo");
    }
}
