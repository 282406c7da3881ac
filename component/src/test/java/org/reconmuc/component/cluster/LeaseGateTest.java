package org.reconmuc.component.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.transport.OutgoingStanza;
import org.xmpp.packet.Message;

/** The gate on this instance's clock, which the test moves: a pause is a jump past the leases' term. */
class LeaseGateTest {
    private static final String LOBBY = "lobby@muc.example.org";
    private static final String HALL = "hall@muc.example.org";

    /** A clock that stands still until the test moves it. */
    private static final class TestClock extends Clock {
        volatile long millis;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }
    }

    private final TestClock clock = new TestClock();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final LeaseGate gate = new LeaseGate(clock, (from, s) -> sent.add(body(s)), 100, Runnable::run);

    private static String body(OutgoingStanza s) {
        return s.toPacket().getElement().elementText("body");
    }

    private void send(String room, String body) {
        Message m = new Message();
        m.setFrom(room == null ? "muc.example.org" : room + "/Juliet");
        m.setTo("romeo@montague.lit/orchard");
        m.setBody(body);
        gate.send(room == null ? "muc.example.org" : room, OutgoingStanza.of(m));
    }

    @Test
    void roomStanzasLeaveWhileTheLeasesRunAndWaitOnceThisInstancesOwnClockSaysTheyMayHaveRunOut() {
        gate.confirmed(4_500, Set.of(LOBBY)::contains, Set.of());
        send(LOBBY, "one");
        assertThat(sent).containsExactly("one");
        clock.millis = 30_000;   // the process was stopped for 30 s: no renewal since
        send(LOBBY, "two");
        send(LOBBY, "three");
        send(null, "the service's own");
        assertThat(gate.holding()).isTrue();
        assertThat(sent).containsExactly("one", "the service's own");
        gate.confirmed(34_500, Set.of(LOBBY)::contains, Set.of());   // the renewal: lobby is still ours
        assertThat(sent).containsExactly("one", "the service's own", "two", "three");
        assertThat(gate.holding()).isFalse();
        send(LOBBY, "four");
        assertThat(sent).endsWith("four");
    }

    @Test
    void whatWaitedForARoomTakenOverIsDroppedAndSoIsWhatItSendsUntilItIsForgottenHere() {
        gate.confirmed(4_500, Set.of(LOBBY, HALL)::contains, Set.of());
        clock.millis = 5_000;
        send(LOBBY, "lobby while paused");
        send(HALL, "hall while paused");
        gate.confirmed(9_500, Set.of(LOBBY)::contains, Set.of(HALL));   // another instance took the hall meanwhile
        assertThat(sent).containsExactly("lobby while paused");
        assertThat(gate.dropped()).isEqualTo(1);
        send(HALL, "hall before it is given up");
        assertThat(sent).containsExactly("lobby while paused");
        Message refusal = new Message();   // a stanza refused because the room moved: the refusal still goes
        refusal.setType(Message.Type.error);
        refusal.setFrom(HALL);
        refusal.setTo("romeo@montague.lit/orchard");
        refusal.setBody("moved");
        gate.send(HALL, OutgoingStanza.of(refusal));
        assertThat(sent).containsExactly("lobby while paused", "moved");
        gate.forgotten(HALL);   // given up here; a new claim of it starts afresh
        send(HALL, "hall claimed again");
        assertThat(sent).containsExactly("lobby while paused", "moved", "hall claimed again");
    }

    @Test
    void nothingLeavesForARoomBeforeTheFirstRenewal() {
        send(LOBBY, "too early");
        assertThat(sent).isEmpty();
        gate.confirmed(4_500, Set.of(LOBBY)::contains, Set.of());
        assertThat(sent).containsExactly("too early");
    }
}
