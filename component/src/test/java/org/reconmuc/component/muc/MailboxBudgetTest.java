package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.testing.Await;

import org.dom4j.DocumentHelper;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.transport.OutgoingStanza;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Back-pressure at the service's entrance: when rooms cannot keep up (their threads wait for a
 * slow server), the thread that hands stanzas to them waits too, instead of the mailboxes growing.
 */
class MailboxBudgetTest {

    /** Room threads that run only when the test says so: rooms held back by a slow server. */
    private static final class HeldBackRooms implements Executor {
        final Queue<Runnable> waiting = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable r) {
            waiting.add(r);
        }

        synchronized Runnable next() {
            return waiting.poll();
        }

        void runAll() {
            for (Runnable r = next(); r != null; r = next()) {
                r.run();
            }
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Await.until(condition, Duration.ofSeconds(5), what);
    }

    /** The bodies of the messages sent so far, in order. */
    private static List<String> bodies(List<OutgoingStanza> out) {
        List<String> bodies = new ArrayList<>();
        synchronized (out) {
            for (OutgoingStanza stanza : out) {
                if (stanza.toPacket() instanceof Message m && m.getBody() != null) {
                    bodies.add(m.getBody());
                }
            }
        }
        return bodies;
    }

    private static Packet parse(String xml) throws Exception {
        var e = DocumentHelper.parseText(xml).getRootElement();
        return e.getName().equals("presence") ? new Presence(e, true) : new Message(e, true);
    }

    @Test
    void theReaderWaitsWhenTheMailboxesAreFullAndGoesOnAsRoomsCatchUp() throws Exception {
        HeldBackRooms rooms = new HeldBackRooms();
        List<OutgoingStanza> out = new ArrayList<>();
        ServiceConfig config = ServiceConfig.builder().domain("muc.example").maxStanzaBytes(65536)
                .messageRate(1000.0, 1000).maxOccupantsPerRoom(100).maxPendingStanzas(3).maxQueuedChars(1L << 20)
                .presencesAndIqsPerSecond(1000.0).presenceAndIqBurst(1000).build();
        MucService service = new MucService(config, Clock.systemUTC(), rooms, p -> {
            synchronized (out) {
                out.add(p);
            }
        }, (delay, task) -> { }, RoomFeatures.ALL);
        String room = "lobby@muc.example";
        service.processPacket(parse("<presence from='romeo@montague.lit/phone' to='" + room + "/Romeo'/>"));
        service.processPacket(parse("<message from='romeo@montague.lit/phone' to='" + room + "' type='groupchat'><body>1</body></message>"));
        service.processPacket(parse("<message from='romeo@montague.lit/phone' to='" + room + "' type='groupchat'><body>2</body></message>"));
        assertThat(service.pendingStanzas()).isEqualTo(3);

        Thread reader = new Thread(() -> {
            try {
                service.processPacket(parse("<message from='romeo@montague.lit/phone' to='" + room
                        + "' type='groupchat'><body>3</body></message>"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "reader");
        reader.start();
        await(() -> reader.getState() == Thread.State.TIMED_WAITING, "the reader to wait for the rooms");
        assertThat(service.pendingStanzas()).isEqualTo(3);

        rooms.runAll();   // the rooms catch up: the reader's stanza gets in
        reader.join(5_000);
        assertThat(reader.isAlive()).isFalse();
        rooms.runAll();
        assertThat(service.pendingStanzas()).isZero();
        List<String> bodies = bodies(out);
        assertThat(bodies).containsExactly("1", "2", "3");   // Romeo's echoes, in order, none lost
        service.shutdown();
    }

    @Test
    void aRoomWhosePingOfItsOccupantsFailsHandlesRomeosNextMessageAndGivesBackEveryPlace() throws Exception {
        HeldBackRooms rooms = new HeldBackRooms();
        List<OutgoingStanza> out = new ArrayList<>();
        ServiceConfig config = ServiceConfig.builder().domain("muc.example").maxPendingStanzas(10).build();
        MucService service = new MucService(config, Clock.systemUTC(), rooms, p -> {
            if (p.toPacket() instanceof org.xmpp.packet.IQ) {
                throw new IllegalStateException("the ping cannot be sent");
            }
            synchronized (out) {
                out.add(p);
            }
        }, (delay, task) -> { }, RoomFeatures.ALL);
        String room = "lobby@muc.example";
        service.processPacket(parse("<presence from='romeo@montague.lit/phone' to='" + room + "/Romeo'/>"));
        rooms.runAll();
        service.connected();
        service.connected();   // back after an outage: the room pings Romeo, and that task throws
        service.processPacket(parse("<message from='romeo@montague.lit/phone' to='" + room
                + "' type='groupchat'><body>after the outage</body></message>"));
        // A pool thread dies of what its task threw, as an executor's does; the room must not go with it.
        for (Runnable r = rooms.next(); r != null; r = rooms.next()) {
            try {
                r.run();
            } catch (RuntimeException thrown) {
                // the pool's thread is gone; the next task gets another
            }
        }
        assertThat(service.pendingStanzas()).isZero();
        List<String> bodies = bodies(out);
        assertThat(bodies).containsExactly("after the outage");
        service.shutdown();
    }
}
