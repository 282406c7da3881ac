package org.reconmuc.component.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.config.ClusterConfig;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.muc.RoomThreads;
import org.reconmuc.component.store.InstanceLock;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.config.StoreLocation;
import org.reconmuc.component.testing.Await;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.reconmuc.servers.PostgresServer;
import org.xmpp.packet.Message;
import org.xmpp.packet.Presence;

/**
 * Instances of the service on a real PostgreSQL (a local process, a database per test), each with
 * its own clock and a stand-in for the server's component port that records what it is sent:
 * a slow instance is not taken for a dead one, a dead one is found within a second, and a paused
 * one sends nothing for its rooms until it knows they are still its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InstanceFailureIT {
    private static final String DOMAIN = "muc.example.org";
    private static final String LOBBY = "lobby@" + DOMAIN;
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String ROMEO = "romeo@montague.lit/orchard";
    private static final Duration LEASE = Duration.ofSeconds(4);
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private PostgresServer postgres;
    private String url;
    private final Deque<AutoCloseable> toClose = new ArrayDeque<>();

    @BeforeAll
    void startPostgres() throws Exception {
        postgres = PostgresServer.start();
    }

    @AfterAll
    void stopPostgres() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @BeforeEach
    void database() throws Exception {
        url = postgres.newDatabase("failure" + DATABASES.incrementAndGet());
    }

    @AfterEach
    void closeAll() throws Exception {
        while (!toClose.isEmpty()) {
            toClose.pop().close();
        }
    }

    /** This instance's clock: the system's, moved by {@code shiftMillis} (a late heartbeat, or a pause). */
    private static final class ShiftedClock extends Clock {
        volatile long shiftMillis;

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
            return Instant.ofEpochMilli(millis());
        }

        @Override
        public long millis() {
            return System.currentTimeMillis() + shiftMillis;
        }
    }

    /** The server's component port, as far as a component sees it: a handshake, then whatever it is sent. */
    private static final class ComponentPort implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final StringBuffer received = new StringBuffer();
        final List<Socket> accepted = new CopyOnWriteArrayList<>();

        ComponentPort() throws IOException {
            Thread t = new Thread(this::accept, "component-port");
            t.setDaemon(true);
            t.start();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    accepted.add(s);
                    Thread t = new Thread(() -> serve(s), "component-port-connection");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket s) {
            StringBuilder stream = new StringBuilder();
            boolean opened = false;
            boolean shookHands = false;
            byte[] buffer = new byte[8192];
            try (InputStream in = s.getInputStream()) {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    String text = new String(buffer, 0, n, StandardCharsets.UTF_8);
                    stream.append(text);
                    int header = stream.indexOf("<stream:stream");
                    if (!opened && header >= 0 && stream.indexOf(">", header) > 0) {
                        opened = true;
                        write(s, "<?xml version='1.0'?><stream:stream xmlns:stream='http://etherx.jabber.org/streams'"
                                + " xmlns='jabber:component:accept' from='" + DOMAIN + "' id='x" + s.getPort() + "'>");
                    }
                    if (opened && !shookHands && stream.indexOf("</handshake>") >= 0) {
                        shookHands = true;
                        write(s, "<handshake/>");
                    } else if (shookHands) {
                        received.append(text);
                    }
                }
            } catch (IOException e) {
                // closed
            }
        }

        private static void write(Socket s, String xml) throws IOException {
            s.getOutputStream().write(xml.getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
        }

        int port() {
            return socket.getLocalPort();
        }

        boolean got(String text) {
            return received.indexOf(text) >= 0;
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    /** One instance: its store, rooms, cluster node and component port, in this JVM. */
    private final class Instance implements AutoCloseable {
        final String id;
        final ShiftedClock clock = new ShiftedClock();
        final ComponentPort port = new ComponentPort();
        final Store store;
        final ExecutorService rooms;
        final MucService service;
        final ClusterNode node;

        Instance(String name) throws Exception {
            id = name + "-" + Long.toHexString(System.nanoTime() & 0xffffff);
            ServiceConfig config = ServiceConfig.builder().domain(DOMAIN).server("127.0.0.1", port.port())
                    .secret("s3cret").roomLocking(ServiceConfig.RoomLocking.OFF).build();
            store = Store.openFenced(StoreLocation.parse(url), config.maxQueuedChars(), id);
            rooms = RoomThreads.start("room-" + name);
            ClusterNode[] self = new ClusterNode[1];
            service = new MucService(config, clock, rooms, stanza -> self[0].send(stanza), null, store, RoomFeatures.ALL);
            node = new ClusterNode(new ClusterConfig(name, 1, LEASE), service, () -> store.leases(id), clock,
                    i -> new ExternalComponentConnection(config, new ConnectionOfInstance(service, i)));
            self[0] = node;
            node.start();
            toClose.push(this);
            Await.until(() -> node.connections().stream().allMatch(ExternalComponentConnection::isConnected),
                    Duration.ofSeconds(10), id + " connected");
        }

        void join(String room, String nick, String who) {
            Presence p = new Presence();
            p.setFrom(who);
            p.setTo(room + "/" + nick);
            p.addChildElement("x", "http://jabber.org/protocol/muc");
            service.processPacket(p, 0);
        }

        void say(String room, String who, String body) {
            Message m = new Message();
            m.setType(Message.Type.groupchat);
            m.setFrom(who);
            m.setTo(room);
            m.setBody(body);
            service.processPacket(m, 0);
        }

        /** As a process that is killed: its threads stop and the database ends its sessions. */
        void kill() throws Exception {
            node.stopBeating();
            long key = InstanceLock.key(id);
            try (Connection c = DriverManager.getConnection(url);
                 PreparedStatement p = c.prepareStatement("SELECT pg_terminate_backend(pid) FROM pg_locks"
                         + " WHERE locktype = 'advisory' AND classid::bigint = ? AND objid::bigint = ? AND objsubid = 1")) {
                p.setLong(1, key >>> 32);
                p.setLong(2, key & 0xffffffffL);
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rs.next()).as("the session holding " + id + "'s instance lock").isTrue();
                }
            }
        }

        @Override
        public void close() throws Exception {
            node.stopBeating();
            node.closeConnections();
            service.shutdown();
            RoomThreads.stop(rooms);
            store.close();
            node.close();
            port.close();
        }
    }

    private boolean registered(String id) throws Exception {
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement p = c.prepareStatement("SELECT 1 FROM reconmuc_instance WHERE id = ?")) {
            p.setString(1, id);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next();
            }
        }
    }

    private long heartbeat(String id) throws Exception {
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement p = c.prepareStatement("SELECT heartbeat_ms FROM reconmuc_instance WHERE id = ?")) {
            p.setString(1, id);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Juliet is in the lobby on {@code a}, and has seen her own presence come back. */
    private static void julietInTheLobby(Instance a) throws InterruptedException {
        a.join(LOBBY, "Juliet", JULIET);
        Await.until(() -> a.port.got("status code='110'") || a.port.got("status code=\"110\""), Duration.ofSeconds(10),
                "Juliet's self-presence");
    }

    @Test
    void anInstanceWhoseHeartbeatRunsFarPastItsLeaseIsNotAdoptedWhileItsSessionHoldsItsLock() throws Exception {
        Instance a = new Instance("a");
        Instance b = new Instance("b");
        julietInTheLobby(a);
        // a's heartbeats are written a minute late (as if its renewals ran that late); it is alive all along
        a.clock.shiftMillis = -60_000;
        Thread.sleep(LEASE.toMillis() + 1_000);
        assertThat(b.node.connections()).as("b opened no connection in a's place").hasSize(1);
        assertThat(registered(a.id)).isTrue();
        a.say(LOBBY, JULIET, "still served by a");
        Await.until(() -> a.port.got("still served by a"), Duration.ofSeconds(5), "a serving the lobby");
        // a's lock goes (its session ends): now b adopts it
        a.kill();
        Await.until(() -> b.node.connections().size() == 2, Duration.ofSeconds(3), "b adopting a");
        assertThat(registered(a.id)).isFalse();
    }

    @Test
    void aRestartOfPostgresqlFreesEveryLockAtOnceAndNoInstanceAdoptsALiveOne() throws Exception {
        Instance a = new Instance("a");
        Instance b = new Instance("b");
        julietInTheLobby(a);
        // every session ends, every instance's lock with it, until each one's next renewal takes it again
        postgres.restart();
        Thread.sleep(2 * LEASE.toMillis());
        assertThat(a.node.connections()).as("a opened no connection in b's place").hasSize(1);
        assertThat(b.node.connections()).as("b opened no connection in a's place").hasSize(1);
        assertThat(registered(a.id)).isTrue();
        assertThat(registered(b.id)).isTrue();
        a.say(LOBBY, JULIET, "still served by a after the restart");
        Await.until(() -> a.port.got("still served by a after the restart"), Duration.ofSeconds(10), "a serving the lobby");
        // death is still told at once afterwards
        a.kill();
        Await.until(() -> b.node.connections().size() == 2, Duration.ofSeconds(5), "b adopting a");
    }

    @Test
    void aRoomsCommitThatHoldsItsLeaseRowDoesNotHoldUpTheRenewal() throws Exception {
        Instance a = new Instance("a");
        julietInTheLobby(a);
        try (Connection commit = DriverManager.getConnection(url)) {
            // a long group commit: its fence locks the lobby's lease row until it ends
            commit.setAutoCommit(false);
            try (PreparedStatement p = commit.prepareStatement("UPDATE reconmuc_lease SET epoch = epoch WHERE room = ?")) {
                p.setString(1, LOBBY);
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            long before = heartbeat(a.id);
            Thread.sleep(LEASE.toMillis());
            assertThat(heartbeat(a.id)).as("a's heartbeat, a lease later").isGreaterThan(before);
            assertThat(a.node.holdingRoomStanzas()).isFalse();
            commit.rollback();
        }
    }

    @Test
    void aKilledInstanceIsFoundDeadWithinASecondAndItsRoomsAreFreeAtOnce() throws Exception {
        Instance a = new Instance("a");
        Instance b = new Instance("b");
        julietInTheLobby(a);
        a.kill();
        long killedAt = System.nanoTime();
        Await.until(() -> b.node.connections().size() == 2, Duration.ofSeconds(10), "b adopting a");
        long millis = (System.nanoTime() - killedAt) / 1_000_000;
        System.out.printf("InstanceFailureIT: the killed instance was adopted %d ms after its session ended%n", millis);
        assertThat(millis).isLessThan(1_000);
        // its room is b's as soon as a stanza for it reaches b (no lease to wait out), and Juliet is still in it,
        // told nothing: Romeo entering sees her
        long claimedFrom = System.nanoTime();
        b.join(LOBBY, "Romeo", ROMEO);
        Await.until(() -> b.port.got(LOBBY + "/Juliet"), Duration.ofSeconds(5), "Juliet carried on by b");
        assertThat((System.nanoTime() - claimedFrom) / 1_000_000).isLessThan(LEASE.toMillis() / 2);
        assertThat(b.port.got("code='333'") || b.port.got("code=\"333\"")).as("nobody told to rejoin").isFalse();
    }

    @Test
    void anInstancePausedPastItsLeaseSendsNothingForItsRoomsUntilARenewalSaysTheyAreStillItsOwn() throws Exception {
        Instance a = new Instance("a");
        julietInTheLobby(a);
        try (Connection stall = DriverManager.getConnection(url)) {
            // a's renewals stall (they wait for its row), and its own clock jumps past the lease, as after a SIGSTOP
            stall.setAutoCommit(false);
            try (PreparedStatement p = stall.prepareStatement("SELECT 1 FROM reconmuc_instance WHERE id = ? FOR UPDATE")) {
                p.setString(1, a.id);
                p.executeQuery().close();
            }
            a.clock.shiftMillis = 2 * LEASE.toMillis();
            a.say(LOBBY, JULIET, "said after the pause");
            Thread.sleep(1_000);
            assertThat(a.port.got("said after the pause")).as("the echo waits for a renewal").isFalse();
            assertThat(a.node.holdingRoomStanzas()).isTrue();
            stall.commit();   // the renewal goes through: the lobby is still a's
        }
        Await.until(() -> a.port.got("said after the pause"), Duration.ofSeconds(5), "the echo after the renewal");
        Await.until(() -> !a.node.holdingRoomStanzas(), Duration.ofSeconds(5), "the gate open again");
    }

    @Test
    void anInstancePausedWhileAnotherTookItsRoomNeverSendsWhatItHeldAndTheNewOwnerCarriesItsOccupantsOn()
            throws Exception {
        Instance a = new Instance("a");
        Instance b = new Instance("b");
        julietInTheLobby(a);
        try (Connection stall = DriverManager.getConnection(url)) {
            stall.setAutoCommit(false);
            try (PreparedStatement p = stall.prepareStatement("SELECT 1 FROM reconmuc_instance WHERE id = ? FOR UPDATE")) {
                p.setString(1, a.id);
                p.executeQuery().close();
            }
            a.clock.shiftMillis = 2 * LEASE.toMillis();
            a.say(LOBBY, JULIET, "said after the pause");
            // the lobby's stanzas reach b now; once a's lease has run out b takes the room, Juliet still in it
            b.join(LOBBY, "Romeo", ROMEO);
            Await.until(() -> b.port.got(LOBBY + "/Juliet"), Duration.ofSeconds(15), "Juliet carried on by b");
            assertThat(b.port.got("code='333'") || b.port.got("code=\"333\"")).as("nobody told to rejoin").isFalse();
            assertThat(a.port.got("said after the pause")).isFalse();
            stall.commit();   // a's renewal goes through and finds the lobby gone
        }
        Await.until(() -> a.service.roomCount() == 0, Duration.ofSeconds(5), "a giving the lobby up");
        Thread.sleep(500);
        assertThat(a.port.got("said after the pause")).as("a never sends what it cannot back").isFalse();
        Await.until(() -> !a.node.holdingRoomStanzas(), Duration.ofSeconds(5), "the gate open again");
    }
}
