package org.reconmuc.component.muc.occupants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.item;

import java.util.List;
import org.dom4j.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Registration with a room (XEP-0045 §7.10) and reserved nicknames, as Prosody's
 * {@code register.lib.lua} has them: nobody makes itself a member unless the owner opened
 * registration, registering never outranks a moderator, and a reservation ends with the
 * affiliation it came with.
 */
class RegistrationTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String MALLORY = "mallory@evil.example/x";
    private static final String NURSE = "nurse@capulet.lit/x";

    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoOwnsTheRoomMalloryIsIn() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(MALLORY, ROOM, "Mallory");
    }

    private void configure(String fields) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='cfg'><query xmlns='http://jabber.org/protocol/muc#owner'>"
                + "<x xmlns='jabber:x:data' type='submit'>" + fields + "</x></query></iq>");
        assertThat(muc.replyTo(ROMEO, "cfg").getElement().attributeValue("type")).isEqualTo("result");
        muc.clear();
    }

    private static String field(String var, String value) {
        return "<field var='" + var + "'><value>" + value + "</value></field>";
    }

    private Packet register(String from, String nick) {
        muc.send("<iq from='" + from + "' to='" + ROOM + "' type='set' id='reg'><query xmlns='jabber:iq:register'>"
                + "<x xmlns='jabber:x:data' type='submit'>" + field("FORM_TYPE", "http://jabber.org/protocol/muc#register")
                + field("muc#register_roomnick", nick) + "</x></query></iq>");
        return muc.replyTo(from, "reg");
    }

    private Packet admin(String type, String items) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='" + type + "' id='adm'>"
                + "<query xmlns='http://jabber.org/protocol/muc#admin'>" + items + "</query></iq>");
        return muc.replyTo(ROMEO, "adm");
    }

    private void join(String user, String nick) {
        muc.send("<presence from='" + user + "' to='" + ROOM + "/" + nick + "'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
    }

    private Element memberList() {
        return admin("get", "<item affiliation='member'/>").getElement().element("query");
    }

    @Test
    void malloryMayNotMakeHerselfAMemberUntilRomeoOpensRegistration() {
        // Prosody: registration-required for an unaffiliated user, the form included.
        muc.send("<iq from='" + MALLORY + "' to='" + ROOM + "' type='get' id='form'><query xmlns='jabber:iq:register'/></iq>");
        assertThat(errorCondition(muc.replyTo(MALLORY, "form"))).isEqualTo("registration-required");
        Packet refused = register(MALLORY, "Mallory");
        assertThat(errorCondition(refused)).isEqualTo("registration-required");
        assertThat(MucBench.errorText(refused)).contains("ask an admin");
        assertThat(memberList().elements("item")).isEmpty();
        assertThat(muc.receivedBy(ROMEO)).as("nobody is told of a membership that did not happen").isEmpty();

        // The option is in the owner's form, off; once Romeo turns it on, Mallory registers.
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='get' id='f'><query xmlns='http://jabber.org/protocol/muc#owner'/></iq>");
        Element option = muc.replyTo(ROMEO, "f").getElement().element("query").element("x").elements("field").stream()
                .filter(f -> "reconmuc#roomconfig_allowregister".equals(f.attributeValue("var"))).findFirst().orElseThrow();
        assertThat(option.elementText("value")).isEqualTo("0");
        configure(field("reconmuc#roomconfig_allowregister", "1"));
        assertThat(register(MALLORY, "Mal").getElement().attributeValue("type")).isEqualTo("result");
        assertThat(memberList().elements("item")).extracting(i -> i.attributeValue("jid"), i -> i.attributeValue("nick"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple("mallory@evil.example", "Mal"));
    }

    @Test
    void aMembersOnlyRoomRefusesOutsidersRegistrationWhateverTheOptionSays() {
        configure(field("muc#roomconfig_membersonly", "1") + field("reconmuc#roomconfig_allowregister", "1"));
        Packet refused = register(NURSE, "Nurse");
        assertThat(errorCondition(refused)).as("as Prosody answers an unaffiliated user").isEqualTo("registration-required");
        assertThat(MucBench.errorText(refused)).contains("members-only");
        assertThat(memberList().elements("item")).isEmpty();
    }

    @Test
    void aNickNoOccupantJidCouldCarryIsABadRequestNotAWriteTheStoreCannotKeep() {
        admin("set", "<item affiliation='member' jid='nurse@capulet.lit'/>");
        for (String nick : List.of("x".repeat(1024), "private\uE000use")) {
            Packet refused = register(NURSE, nick);
            assertThat(errorCondition(refused)).isEqualTo("bad-request");
            assertThat(MucBench.errorText(refused)).contains("Invalid nickname");
        }
        assertThat(memberList().element("item").attributeValue("nick")).isNull();
        assertThat(register(NURSE, "x".repeat(1023)).getElement().attributeValue("type")).isEqualTo("result");
    }

    @Test
    void aVisitorWhoRegistersInAModeratedRoomStaysAVisitor() {
        configure(field("muc#roomconfig_moderatedroom", "1") + field("reconmuc#roomconfig_allowregister", "1"));
        join(NURSE, "Nurse");
        muc.clear();

        assertThat(register(NURSE, "Nurse").getElement().attributeValue("type")).isEqualTo("result");
        Presence seen = (Presence) muc.lastReceivedBy(ROMEO);
        assertThat(item(seen).attributeValue("affiliation")).isEqualTo("member");
        assertThat(item(seen).attributeValue("role")).as("membership by registering gives no voice").isEqualTo("visitor");
        muc.say(NURSE, ROOM, "I have voice now?");
        assertThat(errorCondition(muc.lastReceivedBy(NURSE))).isEqualTo("forbidden");
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
    }

    @Test
    void aParticipantWhoseVoiceWasRevokedDoesNotGetItBackByRegistering() {
        configure(field("reconmuc#roomconfig_allowregister", "1"));
        admin("set", "<item nick='Mallory' role='visitor'/>");
        muc.clear();

        assertThat(register(MALLORY, "Mallory").getElement().attributeValue("type")).isEqualTo("result");
        assertThat(item(muc.lastReceivedBy(ROMEO)).attributeValue("role")).isEqualTo("visitor");
        muc.say(MALLORY, ROOM, "back again");
        assertThat(errorCondition(muc.lastReceivedBy(MALLORY))).isEqualTo("forbidden");
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
    }

    @Test
    void malloryDoesNotSeeAHiddenRoomsOccupantsByRegistering() {
        configure(field("muc#roomconfig_publicroom", "0"));
        muc.send("<presence from='" + MALLORY + "' to='" + ROOM + "/Mallory' type='unavailable'/>");
        register(MALLORY, "Mallory");
        muc.send("<iq from='" + MALLORY + "' to='" + ROOM + "' type='get' id='items'><query xmlns='"
                + Namespaces.DISCO_ITEMS + "'/></iq>");
        Packet items = muc.replyTo(MALLORY, "items");
        assertThat(items.getElement().element("query") == null
                || items.getElement().element("query").elements("item").isEmpty()).isTrue();
    }

    @Test
    void romeoTakesBackHisNickFromAMemberWhoReservedItByBanningOrUnaffiliatingHer() {
        configure(field("reconmuc#roomconfig_allowregister", "1"));
        // Romeo is "Romeo" in the room; Mallory reserves his other nick "Montague" while he is not using it.
        assertThat(register(MALLORY, "Montague").getElement().attributeValue("type")).isEqualTo("result");
        muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Montague'/>");
        assertThat(errorCondition(muc.lastReceivedBy(ROMEO))).isEqualTo("conflict");

        // Romeo sees the reservation in the member list (§9.5: the nick attribute) ...
        assertThat(memberList().element("item").attributeValue("nick")).isEqualTo("Montague");
        // ... and clears it by taking the membership away: the nick is free again.
        assertThat(admin("set", "<item affiliation='none' jid='mallory@evil.example'/>").getElement()
                .attributeValue("type")).isEqualTo("result");
        muc.clear();
        muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Montague'/>");
        Packet changed = muc.lastReceivedBy(ROMEO);
        assertThat(errorCondition(changed)).isNull();
        assertThat(changed.getFrom().toString()).isEqualTo(ROOM + "/Montague");
        // Mallory asks which nick she has: none.
        muc.send("<iq from='" + MALLORY + "' to='" + ROOM + "' type='get' id='n'><query xmlns='" + Namespaces.DISCO_INFO
                + "' node='x-roomuser-item'/></iq>");
        assertThat(muc.replyTo(MALLORY, "n").getElement().element("query").element("identity")).isNull();

        // She reserves "Capulet" next; a ban (§17.4: outcasts keep no nick) frees that too.
        muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo'/>");
        register(MALLORY, "Capulet");
        admin("set", "<item affiliation='outcast' jid='mallory@evil.example'/>");
        muc.clear();
        muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Capulet'/>");
        assertThat(errorCondition(muc.lastReceivedBy(ROMEO))).isNull();
        assertThat(memberList().elements("item")).isEmpty();
    }

    @Test
    void aMemberWhoCancelsHerRegistrationIsNoLongerAMemberAndHerNickIsFree() {
        admin("set", "<item affiliation='member' jid='nurse@capulet.lit'/>");
        assertThat(register(NURSE, "Angelica").getElement().attributeValue("type")).isEqualTo("result");
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "' type='set' id='rm'><query xmlns='jabber:iq:register'><remove/></query></iq>");
        assertThat(muc.replyTo(NURSE, "rm").getElement().attributeValue("type")).isEqualTo("result");
        assertThat(memberList().elements("item")).isEmpty();
        muc.clear();
        join("paris@verona.lit/p", "Angelica");
        List<Packet> in = muc.receivedBy("paris@verona.lit/p");
        assertThat(in).noneMatch(p -> errorCondition(p) != null);
        assertThat(in).anyMatch(p -> p instanceof Message);
    }
}
