package org.reconmuc.component.muc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import org.dom4j.Element;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.activity.MessageRate;
import org.xmpp.packet.IQ;

/**
 * XEP-0502 as conversations: Romeo's public, persistent room tells anyone who asks its disco#info
 * how many messages an hour are said in it, beside the occupant count; a room that is not open to
 * anyone says nothing, and a temporary room counts nothing (as Prosody's mod_muc_activity). The
 * clock is the bench's: the figure is exact.
 */
class RoomMessageActivityTest {
    private static final String ROOM = MucBench.ROOM;
    private static final String ROMEO = "romeo@montague.lit/garden";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String PARIS = "paris@verona.lit/church";

    private final MucBench muc = new MucBench();   // 10:00:00

    private void configure(String fields) {
        muc.send("<iq type='set' id='cfg' from='" + ROMEO + "' to='" + ROOM + "'><query xmlns='" + Namespaces.MUC_OWNER
                + "'><x xmlns='jabber:x:data' type='submit'>" + fields + "</x></query></iq>");
        muc.clear();
    }

    private static String field(String var, String value) {
        return "<field var='" + var + "'><value>" + value + "</value></field>";
    }

    /** The muc#roominfo field {@code var} of the room's disco#info, as Paris (not in the room) reads it, or null. */
    private Element roomInfo(String var) {
        muc.send("<iq from='" + PARIS + "' to='" + ROOM + "' type='get' id='info'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        IQ info = (IQ) muc.replyTo(PARIS, "info");
        for (Element form : info.getChildElement().elements("x")) {
            for (Element f : form.elements("field")) {
                if (var.equals(f.attributeValue("var"))) {
                    return f;
                }
            }
        }
        return null;
    }

    private void romeoAndJulietTalk() {
        muc.join(ROMEO, ROOM, "Romeo");
        configure(field("muc#roomconfig_persistentroom", "1"));
        muc.join(JULIET, ROOM, "Juliet");
        muc.advance(Duration.ofMinutes(10));
        for (int i = 0; i < 5; i++) {
            muc.say(ROMEO, ROOM, "line " + i);
        }
        // None of these counts (XEP-0502 §4): a correction, a chat state, a private message.
        muc.send("<message from='" + ROMEO + "' to='" + ROOM + "' type='groupchat' id='c1'><body>line 4!</body>"
                + "<replace xmlns='urn:xmpp:message-correct:0' id='m0'/></message>");
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='s1'>"
                + "<composing xmlns='http://jabber.org/protocol/chatstates'/></message>");
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "/Romeo' type='chat' id='p1'><body>psst</body></message>");
        muc.clear();
    }

    @Test
    void aPublicPersistentRoomShowsItsMessagesPerHourOnceAnHourHasPassed() {
        romeoAndJulietTalk();
        assertEquals("2", roomInfo("muc#roominfo_occupants").elementText("value"));
        assertNull(roomInfo(MessageRate.FIELD), "within the first hour the data is not available: no field (§3)");

        muc.advance(Duration.ofMinutes(50));   // 11:00
        Element activity = roomInfo(MessageRate.FIELD);
        assertEquals("5.00", activity.elementText("value"));
        assertEquals(MessageRate.LABEL, activity.attributeValue("label"));

        muc.say(JULIET, ROOM, "one more, at 11:00");
        muc.advance(Duration.ofHours(1));      // 12:00: 6 messages over two hours
        assertEquals("3.00", roomInfo(MessageRate.FIELD).elementText("value"));
    }

    @Test
    void aRoomNotOpenToAnyoneDoesNotTellItsActivity() {
        romeoAndJulietTalk();
        muc.advance(Duration.ofHours(1));
        assertEquals("5.00", roomInfo(MessageRate.FIELD).elementText("value"));

        configure(field("muc#roomconfig_publicroom", "0"));
        assertNull(roomInfo(MessageRate.FIELD), "hidden from the directory (§8)");
        configure(field("muc#roomconfig_publicroom", "1") + field("muc#roomconfig_membersonly", "1"));
        assertNull(roomInfo(MessageRate.FIELD), "members only (§8)");
        configure(field("muc#roomconfig_membersonly", "0") + field("muc#roomconfig_passwordprotectedroom", "1")
                + field("muc#roomconfig_roomsecret", "nightingale"));
        assertNull(roomInfo(MessageRate.FIELD), "password-protected (§8)");
        configure(field("muc#roomconfig_passwordprotectedroom", "0") + field("muc#roomconfig_roomsecret", ""));
        assertEquals("5.00", roomInfo(MessageRate.FIELD).elementText("value"),
                "open again: the same count (a persistent room counts while it does not publish)");

        configure(field("muc#roomconfig_persistentroom", "0"));
        assertNull(roomInfo(MessageRate.FIELD), "temporary (§3)");
        configure(field("muc#roomconfig_persistentroom", "1"));
        assertNull(roomInfo(MessageRate.FIELD), "a temporary room kept no count: counting starts again, no figure yet");
    }

    @Test
    void aTemporaryRoomCountsNothingAndOneMadePersistentCountsFromThen() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        for (int i = 0; i < 7; i++) {
            muc.say(JULIET, ROOM, "said while the room is temporary " + i);
        }
        muc.advance(Duration.ofMinutes(30));   // 10:30
        configure(field("muc#roomconfig_persistentroom", "1"));
        muc.say(ROMEO, ROOM, "said once it is persistent");
        muc.say(JULIET, ROOM, "and this");
        muc.advance(Duration.ofMinutes(30));   // 11:00: counted since 10:30, half an hour of data
        assertNull(roomInfo(MessageRate.FIELD), "less than an hour counted");

        muc.advance(Duration.ofHours(1));      // 12:00: the hour from 11:00 is complete, and 10:30–11:00 counted
        assertEquals("1.33", roomInfo(MessageRate.FIELD).elementText("value"),
                "two messages over the hour and a half since it became persistent; the seven before are not counted");
    }

    @Test
    void aRelaxedOccupantsRetainedMessagesCountWhenTheRoomReceivesThem() {
        muc.join(ROMEO, ROOM, "Romeo");
        configure(field("muc#roomconfig_persistentroom", "1"));
        muc.join(JULIET, ROOM, "Juliet");
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='set' id='req'><consistency-requirements xmlns='urn:reconmuc:0'>"
                + "<time>7200</time><volume>50</volume></consistency-requirements></iq>");
        for (int i = 0; i < 4; i++) {
            muc.say(ROMEO, ROOM, "retained " + i);
        }
        muc.advance(Duration.ofMinutes(60));   // 11:00
        assertEquals(0, muc.receivedBy(JULIET).stream().filter(p -> p.getElement().asXML().contains("retained")).count(),
                "Juliet has not been sent them yet: her time bound is two hours");
        assertEquals("4.00", roomInfo(MessageRate.FIELD).elementText("value"));
    }
}
