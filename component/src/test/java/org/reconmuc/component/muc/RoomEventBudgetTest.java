package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.errorText;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.config.ServiceConfig;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * The room-wide budget of messages and presences (Prosody's mod_muc_limits): a crowd of guests
 * together may not flood the room, each of them under its own rate; the owner and members are not
 * counted, and leaving is never refused.
 */
class RoomEventBudgetTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String MERCUTIO = "mercutio@verona.lit/street";
    private static final String TYBALT = "tybalt@capulet.lit/sword";

    /** Five events at once for the room, then one a second. */
    private final MucBench muc = new MucBench(ServiceConfig.defaults().toBuilder().domain(MucBench.SERVICE).secret("x")
            .roomEventRate(new ServiceConfig.RoomEventRate(1.0, 5)).build());

    private List<String> bodiesReceivedBy(String jid) {
        return groupchatBodies(muc.receivedBy(jid));
    }

    private static List<String> groupchatBodies(List<Packet> received) {
        return received.stream().filter(p -> p instanceof Message m && m.getType() == Message.Type.groupchat)
                .map(p -> ((Message) p).getBody()).toList();
    }

    @Test
    void guestsTogetherOverTheRoomsBudgetAreToldTheRoomIsOveractive() {
        muc.join(ROMEO, ROOM, "Romeo");          // his join created the room: he enters as its owner, not counted
        muc.join(JULIET, ROOM, "Juliet");        // 1
        muc.join(MERCUTIO, ROOM, "Mercutio");    // 2
        muc.say(JULIET, ROOM, "a");              // 3
        muc.say(MERCUTIO, ROOM, "b");            // 4
        muc.say(MERCUTIO, ROOM, "b2");           // 5
        muc.clear();

        // Juliet has sent one message: far within her own rate, but the room has spent its budget.
        muc.say(JULIET, ROOM, "c");
        Packet refusal = muc.lastReceivedBy(JULIET);
        assertThat(errorCondition(refusal)).isEqualTo("policy-violation");
        assertThat(refusal.getElement().element("error").attributeValue("type")).isEqualTo("wait");
        assertThat(errorText(refusal)).contains("The room is currently overactive, please try again later")
                .contains("1.0 messages and presences per second");
        // A join is an event too.
        muc.send("<presence from='" + TYBALT + "' to='" + ROOM + "/Tybalt'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        Packet refusedJoin = muc.lastReceivedBy(TYBALT);
        assertThat(((Presence) refusedJoin).getType()).isEqualTo(Presence.Type.error);
        assertThat(errorCondition(refusedJoin)).isEqualTo("policy-violation");
        assertThat(bodiesReceivedBy(MERCUTIO)).isEmpty();
        assertThat(muc.receivedBy(MERCUTIO)).as("neither the message nor Tybalt's entry").isEmpty();

        // Romeo owns the room: not counted, as mod_muc_limits skips affiliated users.
        muc.say(ROMEO, ROOM, "Peace, Tybalt");
        assertThat(bodiesReceivedBy(MERCUTIO)).containsExactly("Peace, Tybalt");

        // A second later the room has one event more.
        muc.clear();
        muc.advance(Duration.ofSeconds(1));
        muc.say(MERCUTIO, ROOM, "A plague o' both your houses");
        assertThat(bodiesReceivedBy(JULIET)).containsExactly("A plague o' both your houses");
        muc.say(JULIET, ROOM, "d");
        assertThat(errorCondition(muc.lastReceivedBy(JULIET))).isEqualTo("policy-violation");

        // Leaving is never refused.
        muc.send("<presence from='" + MERCUTIO + "' to='" + ROOM + "/Mercutio' type='unavailable'/>");
        assertThat(((Presence) muc.lastReceivedBy(JULIET)).getType()).isEqualTo(Presence.Type.unavailable);
    }

    @Test
    void withoutABudgetTheRoomCountsNothing() {
        MucBench unlimited = new MucBench();
        unlimited.join(ROMEO, ROOM, "Romeo");
        unlimited.join(JULIET, ROOM, "Juliet");
        unlimited.join(MERCUTIO, ROOM, "Mercutio");
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            lines.add("line " + i);
            unlimited.say(i % 2 == 0 ? JULIET : MERCUTIO, ROOM, "line " + i);
        }
        // Refused nothing, and let everything through: each occupant has every line, in order.
        for (String occupant : List.of(ROMEO, JULIET, MERCUTIO)) {
            List<Packet> received = unlimited.receivedBy(occupant);
            assertThat(received.stream().filter(p -> errorCondition(p) != null)).as(occupant).isEmpty();
            assertThat(groupchatBodies(received)).as(occupant).containsExactlyElementsOf(lines);
        }
    }

    @Test
    void nobodyTheRoomRefusesOnItsOwnAccountSpendsItsBudget() {
        muc.join(ROMEO, ROOM, "Romeo");          // the owner: not counted
        muc.join(JULIET, ROOM, "Juliet");        // 1
        muc.join(MERCUTIO, ROOM, "Mercutio");    // 2
        muc.join("paris@verona.lit/court", ROOM, "Paris");   // 3
        // Romeo takes Paris's voice.
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='v'><query xmlns='" + Namespaces.MUC_ADMIN + "'>"
                + "<item nick='Paris' role='visitor'/></query></iq>");
        assertThat(muc.replyTo(ROMEO, "v").getElement().attributeValue("type")).isEqualTo("result");
        muc.say(MERCUTIO, ROOM, "Where is he?");                                 // 4
        muc.clear();

        // Tybalt never joined: sixty messages, each refused as not an occupant's.
        for (int i = 0; i < 60; i++) {
            muc.say(TYBALT, ROOM, "spam " + i);
            assertThat(errorCondition(muc.lastReceivedBy(TYBALT))).isEqualTo("not-acceptable");
        }
        // Paris has no voice: his refused messages count nothing either.
        for (int i = 0; i < 20; i++) {
            muc.say("paris@verona.lit/court", ROOM, "hear me " + i);
            assertThat(errorCondition(muc.lastReceivedBy("paris@verona.lit/court"))).isEqualTo("forbidden");
        }
        muc.clear();
        muc.say(JULIET, ROOM, "Is the room still ours?");                       // 5: the last event of the burst
        assertThat(bodiesReceivedBy(MERCUTIO)).containsExactly("Is the room still ours?");

        // Now the budget is spent: a message with a body and no type is groupchat, and is refused as one.
        muc.clear();
        muc.send("<message from='" + MERCUTIO + "' to='" + ROOM + "'><body>untyped</body></message>");
        assertThat(errorCondition(muc.lastReceivedBy(MERCUTIO))).isEqualTo("policy-violation");
        assertThat(bodiesReceivedBy(JULIET)).isEmpty();
        // A nick change is an event too.
        muc.send("<presence from='" + JULIET + "' to='" + ROOM + "/Giulietta'/>");
        assertThat(errorCondition(muc.lastReceivedBy(JULIET))).isEqualTo("policy-violation");
        assertThat(muc.receivedBy(MERCUTIO)).isEmpty();
    }

    @Test
    void aMessageAnotherFeatureRefusesSpendsNothing() {
        muc.join(ROMEO, ROOM, "Romeo");          // the owner: not counted
        muc.join(JULIET, ROOM, "Juliet");        // 1
        muc.join(MERCUTIO, ROOM, "Mercutio");    // 2
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='balcony'><body>O Romeo</body></message>");   // 3
        muc.clear();

        // Mercutio "corrects" Juliet's message again and again: each is refused, as not his to correct,
        // before the room's budget is asked.
        for (int i = 0; i < 10; i++) {
            muc.send("<message from='" + MERCUTIO + "' to='" + ROOM + "' type='groupchat' id='fix" + i + "'><body>O Mercutio</body>"
                    + "<replace xmlns='" + XmlNamespaces.CORRECT + "' id='balcony'/></message>");
            assertThat(errorCondition(muc.lastReceivedBy(MERCUTIO))).isEqualTo("forbidden");
        }
        muc.clear();
        muc.say(MERCUTIO, ROOM, "Nay, gentle Romeo");     // 4
        muc.say(JULIET, ROOM, "Good night");              // 5: the last event of the burst
        assertThat(bodiesReceivedBy(ROMEO)).containsExactly("Nay, gentle Romeo", "Good night");
        muc.say(MERCUTIO, ROOM, "one more");
        assertThat(errorCondition(muc.lastReceivedBy(MERCUTIO))).isEqualTo("policy-violation");
    }
}
