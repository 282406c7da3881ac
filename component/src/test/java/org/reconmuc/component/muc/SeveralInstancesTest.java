package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.store.RoomLeases;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.store.StoreLocation;
import org.xmpp.packet.Packet;
import org.xmpp.packet.PacketError;

/**
 * A room served under a lease, as one of several instances: claims are decided by the test (the
 * lease table of a real H2 store), so the conversations below are deterministic.
 */
class SeveralInstancesTest {
    private static final String ROMEO = "romeo@montague.lit/orchard";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String HALL = "hall@" + MucBench.SERVICE;
    private static final long LEASE = 5_000;

    @TempDir
    Path dir;
    private Store store;

    /** Claims wait here until the test decides them, as the claims' thread would later. */
    private static final class Claims implements RoomOwnership {
        final RoomLeases leases;
        final Deque<Runnable> pending = new ArrayDeque<>();
        long now;

        Claims(RoomLeases leases) {
            this.leases = leases;
        }

        @Override
        public void claim(RoomJid room, LongConsumer decided) {
            pending.add(() -> {
                try {
                    decided.accept(leases.claim(room.toString(), now, LEASE) instanceof RoomLeases.Granted g ? g.epoch() : 0);
                } catch (java.sql.SQLException e) {
                    throw new AssertionError(e);
                }
            });
        }

        @Override
        public void release(RoomJid room, long epoch) {
            try {
                leases.release(room.toString(), epoch);
            } catch (java.sql.SQLException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public void forgotten(RoomJid room) {
        }

        void decideAll() {
            while (!pending.isEmpty()) {
                pending.poll().run();
            }
        }
    }

    private MucBench instance(String name, Claims[] claims) throws Exception {
        return instance(name, claims, ServiceConfig.builder().domain(MucBench.SERVICE)
                .roomLocking(ServiceConfig.RoomLocking.OFF).build());
    }

    private MucBench instance(String name, Claims[] claims, ServiceConfig config) throws Exception {
        store = Store.openFencedWithoutThreads(StoreLocation.parse("h2:" + dir.resolve("rooms")), name);
        MucBench bench = new MucBench(config, Instant.parse("2026-01-01T10:00:00Z"), store);
        claims[0] = new Claims(store.leases(name));
        bench.service.serveUnderLeases(claims[0]);
        return bench;
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private static String join(String room, String nick, String who) {
        return "<presence from='" + who + "' to='" + room + "/" + nick + "'><x xmlns='http://jabber.org/protocol/muc'/></presence>";
    }

    @Test
    void aRoomWhoseClaimWaitsHoldsUpNoOtherRoomAndGetsItsStanzasInOrderOnceClaimed() throws Exception {
        Claims[] claims = new Claims[1];
        MucBench muc = instance("a", claims);
        muc.send(join(MucBench.ROOM, "Romeo", ROMEO));
        muc.send("<message from='" + ROMEO + "' to='" + MucBench.ROOM + "' type='groupchat'><body>first</body></message>");
        // Romeo's stanzas wait for lobby's claim; Juliet's room is claimed first and she is in at once.
        Runnable lobby = claims[0].pending.poll();
        muc.send(join(HALL, "Juliet", JULIET));
        claims[0].decideAll();
        muc.commit();   // a join writes who is in the room, for the next owner: its answer waits for the commit
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
        assertThat(muc.receivedBy(JULIET)).anyMatch(p -> MucBench.statusCodes(p).contains("110"));
        lobby.run();
        muc.commit();
        List<Packet> romeo = muc.receivedBy(ROMEO);
        assertThat(romeo).anyMatch(p -> MucBench.statusCodes(p).contains("110"));
        assertThat(romeo.get(romeo.size() - 1).getElement().elementText("body")).isEqualTo("first");
    }

    @Test
    void aRoomAnotherInstanceKeepsIsRefusedWithAWait() throws Exception {
        Claims[] claims = new Claims[1];
        MucBench muc = instance("a", claims);
        try (RoomLeases other = store.leases("b")) {
            other.claim(MucBench.ROOM, 0, LEASE);
        }
        muc.send(join(MucBench.ROOM, "Romeo", ROMEO));
        claims[0].decideAll();
        List<Packet> romeo = muc.receivedBy(ROMEO);
        assertThat(romeo).hasSize(1);
        assertThat(romeo.get(0).getError().getCondition()).isEqualTo(PacketError.Condition.resource_constraint);
        assertThat(romeo.get(0).getError().getType()).isEqualTo(PacketError.Type.wait);
    }

    @Test
    void aRoomTakenOverTellsTheSessionsItHadUnderItsLastOwnerToJoinAgain() throws Exception {
        Claims[] claims = new Claims[1];
        MucBench a = instance("a", claims);
        a.send(join(MucBench.ROOM, "Juliet", JULIET));
        claims[0].decideAll();
        a.commit();
        a.receivedBy(JULIET);
        store.close();
        // a is gone; b takes the room over once a's lease has run out, when Romeo comes.
        MucBench b = instance("b", claims);
        claims[0].now = LEASE + 1;
        b.send(join(MucBench.ROOM, "Romeo", ROMEO));
        claims[0].decideAll();
        b.commit();
        List<Packet> juliet = b.receivedBy(JULIET);
        assertThat(juliet).hasSize(1);
        assertThat(juliet.get(0).getElement().attributeValue("type")).isEqualTo("unavailable");
        assertThat(juliet.get(0).getFrom().toString()).isEqualTo(MucBench.ROOM + "/Juliet");
        assertThat(MucBench.statusCodes(juliet.get(0))).contains("110", "333");
        assertThat(b.receivedBy(ROMEO)).anyMatch(p -> MucBench.statusCodes(p).contains("110"));
    }

    @Test
    void underALeaseARestrictedCreationIsRefusedAndARoomAnotherInstanceStoredIsEnteredNotCreated() throws Exception {
        ServiceConfig anyone = ServiceConfig.builder().domain(MucBench.SERVICE).roomLocking(ServiceConfig.RoomLocking.OFF)
                .roomDefaultPersistent(true).build();
        Claims[] claims = new Claims[1];
        MucBench a = instance("a", claims, anyone);
        a.send(join(MucBench.ROOM, "Juliet", JULIET));
        claims[0].decideAll();
        a.commit();
        assertThat(a.receivedBy(JULIET)).anyMatch(p -> MucBench.statusCodes(p).contains("201"));
        store.close();
        // On b only Montague users may create rooms: the lobby a stored is not a creation.
        MucBench b = instance("b", claims, anyone.withRoomCreation(
                org.reconmuc.component.config.RoomCreation.DEFAULT.withCreators("montague.lit")));
        claims[0].now = LEASE + 1;
        int rooms = b.service.roomCount();
        b.send(join(HALL, "Juliet", JULIET));
        claims[0].decideAll();
        b.commit();
        List<Packet> refused = b.receivedBy(JULIET);
        assertThat(refused).hasSize(1);
        assertThat(refused.get(0).getError().getCondition()).isEqualTo(PacketError.Condition.not_allowed);
        assertThat(b.service.roomCount()).as("no hall left behind").isEqualTo(rooms);

        b.send(join(MucBench.ROOM, "Juliet", JULIET));
        claims[0].decideAll();
        b.commit();
        assertThat(b.receivedBy(JULIET)).anyMatch(p -> MucBench.statusCodes(p).contains("110"))
                .noneMatch(p -> MucBench.statusCodes(p).contains("201") || p.getError() != null);
        b.send(join(HALL, "Romeo", ROMEO));
        claims[0].decideAll();
        b.commit();
        assertThat(b.receivedBy(ROMEO)).anyMatch(p -> MucBench.statusCodes(p).contains("201"));
    }
}
