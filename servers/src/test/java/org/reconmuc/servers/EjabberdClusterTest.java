package org.reconmuc.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an ejabberd cluster refuses before starting anything, and what its nodes are configured with. */
class EjabberdClusterTest {
    @TempDir
    Path dir;

    @Test
    void aClusterHasOneToEightNodes() {
        assertThatThrownBy(() -> EjabberdCluster.start(dir, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an ejabberd cluster has 1 to 8 nodes, not 0");
        assertThatThrownBy(() -> EjabberdCluster.start(dir, 9)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an ejabberd cluster has 1 to 8 nodes, not 9");
    }

    @Test
    void aClusterRunsOnLoopbackOnly() {
        ServerOptions inNamespace = ServerOptions.DEFAULT.withPlacement(ServerPlacement.inNamespace("ns", "10.0.0.2"));
        assertThatThrownBy(() -> EjabberdCluster.start(dir, 3, inNamespace)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("an ejabberd cluster runs on loopback only");
    }

    @Test
    void theDistributionPortIsFreeOnEveryNodesAddress() throws Exception {
        List<InetAddress> addresses = List.of(InetAddress.getByName("127.0.3.1"), InetAddress.getByName("127.0.3.2"));
        int port = FreePorts.onAll(addresses);
        for (InetAddress a : addresses) {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(a, port));
            }
        }
    }

    @Test
    void theTestsLimitsAreWhatTheTemplateHadAndTheBotsAreBig() {
        Map<String, String> tests = EjabberdServer.Limits.TESTS.placeholders();
        assertThat(tests).containsEntry("C2S_MAX_FSM_QUEUE", "10000").containsEntry("SM_MAX_ACK_QUEUE", "5000")
                .containsEntry("MUC_MAX_USERS", "5000").containsEntry("MUC_MAX_USERS_ADMIN_THRESHOLD", "20")
                .containsEntry("MUC_ROOM_MAX_USERS", "1000");
        assertThat(EjabberdServer.Limits.TESTS.erlangFlags()).isEmpty();
        assertThat(EjabberdServer.Limits.BOTS.placeholders()).containsEntry("MUC_ROOM_MAX_USERS", "200000")
                .containsEntry("MUC_MAX_USERS", "200000").containsEntry("C2S_MAX_FSM_QUEUE", "1000000");
    }
}
