package org.reconmuc.component.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.reconmuc.component.transport.FakeComponentServer;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.RecordingComponent;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;

/**
 * A room's stanzas and the connection they leave through, over real loopback sockets to a
 * scripted server: while one of an instance's connections is given away (a bucket handed over),
 * what a room sends is neither refused by the closing connection nor sent ahead of what the room
 * queued there before.
 */
class InstanceConnectionsTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final String ROOM = "verona@" + FakeComponentServer.DOMAIN;

    private FakeComponentServer server;
    private InstanceConnections connections;

    @BeforeEach
    void setUp() throws Exception {
        server = new FakeComponentServer();
        ServiceConfig config = ServiceConfig.builder().server("127.0.0.1", server.port())
                .domain(FakeComponentServer.DOMAIN).secret(FakeComponentServer.SECRET).multicast(false).build();
        connections = new InstanceConnections(n -> new ExternalComponentConnection(config, new RecordingComponent()));
    }

    @AfterEach
    void tearDown() throws Exception {
        connections.closeAll();
        server.close();
    }

    private FakeComponentServer.Conn openOne() throws Exception {
        connections.open(1);
        FakeComponentServer.Conn conn = server.nextConnection(WAIT);
        conn.acceptHandshake();
        return conn;
    }

    private static OutgoingStanza message(String body) {
        Message m = new Message();
        m.setType(Message.Type.groupchat);
        m.setFrom(new JID(ROOM + "/Romeo"));
        m.setTo(new JID("carol@localhost/home"));
        m.setBody(body);
        return OutgoingStanza.of(m);
    }

    private void send(String body) {
        connections.send(ROOM, c -> c.send(message(body)));
    }

    @Test
    void aStanzaSentWhileTheRoomsConnectionClosesLeavesThroughAnotherAfterWhatWasQueuedThere() throws Exception {
        FakeComponentServer.Conn first = openOne();
        FakeComponentServer.Conn second = openOne();
        for (ExternalComponentConnection c : connections.all()) {
            assertThat(c.awaitConnected(WAIT)).isTrue();
        }
        // The room's first stanza fixes its connection: whichever of the two received it.
        send("257");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!first.received().contains(">257<") && !second.received().contains(">257<")) {
            assertThat(System.nanoTime()).as("257 reached the server").isLessThan(deadline);
            Thread.sleep(5);
        }
        boolean onFirst = first.received().contains(">257<");
        FakeComponentServer.Conn given = onFirst ? first : second;
        FakeComponentServer.Conn kept = onFirst ? second : first;
        ExternalComponentConnection closing = connections.all().get(onFirst ? 0 : 1);

        // The bucket is handed over: the server has stopped reading that connection, so its close
        // (which waits for the server's end of the stream) lasts until the server reads again.
        given.pauseReading();
        send("257b");   // ends the read in progress: the server reads nothing after it
        given.awaitContains(">257b<", WAIT);
        connections.remove(closing);
        CompletableFuture<Void> close = CompletableFuture.runAsync(closing::close);
        while (!closing.isClosing()) {
            Thread.sleep(1);
        }
        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> send("258"));
        Thread.sleep(100);
        assertThat(sent).as("258 waits for the closing connection to write what the room queued there").isNotDone();
        given.resumeReading();
        close.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        sent.get(WAIT.toSeconds(), TimeUnit.SECONDS);

        kept.awaitContains(">258<", WAIT);
        assertThat(given.received()).doesNotContain(">258<");
        assertThat(closing.droppedAfterClose()).as("stanzas the closing connection refused").isZero();
    }
}
