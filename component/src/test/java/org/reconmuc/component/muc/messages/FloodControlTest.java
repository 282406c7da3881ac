package org.reconmuc.component.muc.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;


import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.MucBench;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/** Presence and IQ floods from one occupant are refused; the room carries on for everyone else. */
class FloodControlTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final int BURST = 5;

    private final MucBench muc = new MucBench(ServiceConfig.defaults().toBuilder().domain(MucBench.SERVICE).secret("x")
            .presencesAndIqsPerSecond(2.0).presenceAndIqBurst(BURST).build());

    @BeforeEach
    void romeoAndJulietAreIn() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.join(JULIET, ROOM, "Juliet");
        muc.clear();
    }

    private static long count(List<Packet> packets, String condition) {
        return packets.stream().filter(p -> condition.equals(errorCondition(p))).count();
    }

    @Test
    void romeoFloodsThePresenceAndIsToldToWaitWhileJulietChatsOn() {
        // Creating the room took two tokens (the join and accepting the instant room); Romeo sends
        // twenty status updates at once.
        for (int i = 0; i < 20; i++) {
            muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo'><status>" + i + "</status></presence>");
        }
        List<Packet> romeo = muc.receivedBy(ROMEO);
        long refused = count(romeo, "policy-violation");
        assertThat(refused).isEqualTo(20 - (BURST - 2));
        Presence error = (Presence) romeo.stream().filter(p -> "policy-violation".equals(errorCondition(p))).findFirst().orElseThrow();
        assertThat(error.getType()).isEqualTo(Presence.Type.error);
        assertThat(error.getError().getType().toXMPP()).isEqualTo("wait");
        assertThat(error.getError().getText()).contains("too fast");
        // Juliet saw only the updates that were admitted.
        assertThat(muc.receivedBy(JULIET).stream().filter(p -> p instanceof Presence)).hasSize(BURST - 2);

        muc.say(JULIET, ROOM, "still here");
        assertThat(((Message) muc.lastReceivedBy(ROMEO)).getBody()).isEqualTo("still here");

        // Leaving is never refused, even mid-flood.
        muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo' type='unavailable'/>");
        assertThat(((Presence) muc.lastReceivedBy(JULIET)).getType()).isEqualTo(Presence.Type.unavailable);
    }

    @Test
    void romeoFloodsTheRoomWithRequestsAndGetsPolicyViolationUntilHeSlowsDown() {
        for (int i = 0; i < 12; i++) {
            muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='get' id='d" + i + "'>"
                    + "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>");
        }
        // Creating the room took two tokens of the burst: the join and accepting the instant room.
        List<Packet> romeo = muc.receivedBy(ROMEO);
        assertThat(romeo.stream().filter(p -> p instanceof IQ iq && iq.getType() == IQ.Type.result)).hasSize(BURST - 2);
        assertThat(count(romeo, "policy-violation")).isEqualTo(12 - (BURST - 2));

        muc.clear();
        muc.clock.advance(Duration.ofSeconds(1));   // two more tokens
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='get' id='later'>"
                + "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>");
        assertThat(((IQ) muc.lastReceivedBy(ROMEO)).getType()).isEqualTo(IQ.Type.result);

        // Juliet's requests have their own allowance.
        muc.send("<iq from='" + JULIET + "' to='" + ROOM + "' type='get' id='j1'>"
                + "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>");
        assertThat(((IQ) muc.lastReceivedBy(JULIET)).getType()).isEqualTo(IQ.Type.result);
    }

    @Test
    void answersToTheRoomsOwnPingsAreNeverRefused() {
        for (int i = 0; i < 20; i++) {
            muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='result' id='ping" + i + "'/>");
        }
        assertThat(count(muc.receivedBy(ROMEO), "policy-violation")).isZero();
    }
}
