package org.reconmuc.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.MessageTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The harness itself, against each real server: start, log in, chat, component port open, stop. */
class XmppServerSmokeIT {

    @ParameterizedTest
    @ValueSource(strings = {"prosody", "ejabberd", "openfire"})
    void startsLogsInDeliversAChatAndStops(String kind) throws Exception {
        Path runDir = Path.of("target", "it-servers", "smoke-" + kind);
        XmppServer server = XmppServers.start(kind, runDir);
        long pid = server.pid();
        XMPPTCPConnection alice;
        XMPPTCPConnection bob;
        try {
            assertThat(server.kind()).isEqualTo(kind);
            assertThat(server.isAlive()).isTrue();
            assertThat(Files.isRegularFile(server.logFile())).isTrue();

            alice = server.newClient("alice");
            bob = server.newClient("bob");
            assertThat(alice.isAuthenticated()).isTrue();
            assertThat(bob.isAuthenticated()).isTrue();
            assertThat(alice.getUser().asBareJid().toString()).isNotEqualTo(bob.getUser().asBareJid().toString());
            assertThat(alice.getUser().getDomain().toString()).isEqualTo(server.loginDomain());
            if (!kind.equals("openfire")) {   // Openfire picks the resource of an anonymous session itself
                assertThat(alice.getUser().getResourceOrEmpty().toString()).isEqualTo("alice");
            }
            XMPPTCPConnection alice2 = server.newClient("alice");
            assertThat(alice2.getUser().asBareJid().toString()).isNotEqualTo(alice.getUser().asBareJid().toString());

            String body = "hello from alice on " + kind + " " + System.nanoTime();
            try (StanzaCollector inbox = bob.createStanzaCollector(
                    new AndFilter(MessageTypeFilter.CHAT, FromMatchesFilter.createFull(alice.getUser())))) {
                alice.sendStanza(alice.getStanzaFactory().buildMessageStanza()
                        .to(bob.getUser()).ofType(Message.Type.chat).setBody(body).build());
                Message received = inbox.nextResult(10_000);
                assertThat(received).as("chat message delivered by " + kind).isNotNull();
                assertThat(received.getBody()).isEqualTo(body);
            }

            XMPPTCPConnection anonymous = server.newAnonymousClient("anon");
            // Openfire's template has no catch-all accounts: every client there is anonymous on localhost.
            assertThat(anonymous.getUser().getDomain().toString())
                    .isEqualTo(kind.equals("openfire") ? "localhost" : "anon.localhost");

            String header = StreamProbe.componentStreamHeader(server.host(), server.componentPort(),
                    server.componentDomain(), Duration.ofSeconds(5));
            assertThat(StreamProbe.streamId(header)).as("stream id in " + header).isNotBlank();
            String handshake = handshake(server, server.componentSecret());
            assertThat(StreamProbe.handshakeSucceeded(handshake)).as("handshake answer " + handshake).isTrue();
            String refused = handshake(server, "wrong-" + server.componentSecret());
            assertThat(StreamProbe.handshakeSucceeded(refused)).as("wrong secret answer " + refused).isFalse();
        } finally {
            server.close();
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .as(kind + " pid " + pid + " gone after close()").isFalse();
        assertThat(server.isAlive()).isFalse();
        assertThat(alice.isConnected()).isFalse();
        assertThat(bob.isConnected()).isFalse();
    }

    /**
     * A component handshake. Openfire refuses a new session for a domain (internal-server-error,
     * a header without id) until it has torn down the previous one, which takes a moment after a
     * probe closes: retried, bounded, as a component's reconnect would.
     */
    private static String handshake(XmppServer server, String secret) throws Exception {
        IOException last = null;
        for (int attempt = 0; attempt < 40; attempt++) {
            try {
                return StreamProbe.componentHandshake(server.host(), server.componentPort(), server.componentDomain(),
                        secret, Duration.ofSeconds(5));
            } catch (IOException e) {
                last = e;
                Thread.sleep(250);
            }
        }
        throw last;
    }
}
