package org.reconmuc.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * What a user of {@link ReconMucContainer} writes: their own XMPP server (here a real Prosody on the
 * test's machine), ReConMUC started beside it through Testcontainers, and real Smack clients that
 * meet in a room of it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReconMucContainerIT {
    private XmppServer server;
    private ReconMucContainer reconmuc;

    @BeforeAll
    void start() throws Exception {
        String image = LocalImage.name();
        server = XmppServers.startProsody(Path.of("target", "it-servers", "testcontainers-prosody"));
        reconmuc = new ReconMucContainer(image)
                .withNetworkMode("host")   // Prosody listens on the host's 127.0.0.1
                .withXmppServer("127.0.0.1", server.componentPort())
                .withDomain(server.componentDomain())
                .withSecret(server.componentSecret());
        reconmuc.start();
    }

    @AfterAll
    void stop() {
        if (reconmuc != null) {
            reconmuc.stop();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void withoutASecretTheContainerIsNotStartedAndSaysWhatIsMissing() throws Exception {
        try (ReconMucContainer noSecret = new ReconMucContainer(LocalImage.name()).withNetworkMode("host")
                .withXmppServer("127.0.0.1", server.componentPort()).withDomain(server.componentDomain())) {
            assertThatThrownBy(noSecret::start).hasStackTraceContaining("needs withSecret");
        }
    }

    @Test
    void romeoAndJulietTalkInARoomOfTheContainer() throws Exception {
        XMPPTCPConnection romeoC = server.newClient("romeo");
        XMPPTCPConnection julietC = server.newClient("juliet");
        String room = reconmuc.roomAddress("balcony");
        MultiUserChat romeo = Rooms.create(romeoC, room, "Romeo");
        MultiUserChat juliet = Rooms.join(julietC, room, "Juliet");

        // Romeo speaks: Juliet hears it, from Romeo's nick in the room.
        assertThat(Rooms.sayAndReceive(romeo, juliet, "But soft, what light through yonder window breaks?"))
                .isEqualTo(room + "/Romeo");
        // Juliet answers: Romeo hears it.
        assertThat(Rooms.sayAndReceive(juliet, romeo, "Wherefore art thou Romeo?")).isEqualTo(room + "/Juliet");
        assertThat(juliet.getOccupants()).extracting(o -> o.getResourceOrEmpty().toString())
                .containsExactlyInAnyOrder("Romeo", "Juliet");
    }
}
