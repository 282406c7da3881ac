package org.reconmuc.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.HealthState;
import com.github.dockerjava.api.model.Container;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.LogUtils;

/**
 * deploy/compose/compose.yaml as an operator starts it: Prosody and ReConMUC come up healthy, and
 * two users of the server meet in a room of ReConMUC, whose broadcasts go through Prosody's multicast
 * module. With podman it runs podman-compose (what
 * Debian packages for podman users; Docker's users have `docker compose`, which reads the same file),
 * and runs the health checks itself: podman schedules them with systemd timers, and a machine
 * without systemd has none. The images are this checkout's (LocalImage) and a Prosody image built
 * by the compose file on the local Debian base image.
 */
class OperatorComposeIT {
    private static final String DOMAIN = "verona.test";
    private static final String MUC_DOMAIN = "muc.verona.test";
    private final String project = "reconmuc-it-" + ProcessHandle.current().pid();
    private final Path log = Path.of("target", "compose.log").toAbsolutePath();
    private final List<XMPPTCPConnection> clients = new ArrayList<>();
    private final Map<String, String> env = new HashMap<>();
    private List<String> compose;

    @Test
    void prosodyAndReconMucComeUpHealthyAndTwoUsersTalkInARoom() throws Exception {
        String image = LocalImage.name();
        boolean podman = LocalImage.engine().equals("podman");
        compose = podman ? List.of("podman-compose") : List.of("docker", "compose");
        if (podman && !LocalImage.onPath("podman-compose")) {
            if ("required".equals(System.getenv("RECONMUC_CONTAINER_TESTS"))) {
                throw new IllegalStateException("no podman-compose (scripts/install-deps.sh --test installs it)");
            }
            Assumptions.abort("no podman-compose");
        }
        int c2sPort = freePort();
        env.putAll(Map.of("XMPP_DOMAIN", DOMAIN, "RECONMUC_DOMAIN", MUC_DOMAIN,
                "RECONMUC_SECRET", UUID.randomUUID().toString(), "XMPP_C2S_PORT", Integer.toString(c2sPort),
                "XMPP_C2S_REQUIRE_ENCRYPTION", "false", "RECONMUC_IMAGE", image,
                "PROSODY_IMAGE", "localhost/reconmuc-prosody:test",
                "DEBIAN_IMAGE", "localhost/reconmuc-base/debian:bookworm"));

        compose("build", "prosody");   // ReConMUC's image exists: up does not build it
        compose("up", "-d");
        DockerClient docker = DockerClientFactory.instance().client();
        String prosody = containerOf(docker, "prosody");
        String reconmuc = containerOf(docker, "reconmuc");
        awaitHealthy(docker, podman, prosody, reconmuc);
        // Prosody's multicast module is there and lets ReConMUC in: the rooms' broadcasts go through it.
        awaitLog(docker, reconmuc, "the server's XEP-0033 multicast at multicast." + DOMAIN);

        LocalImage.run(log, 60, List.of(LocalImage.engine(), "exec", prosody, "prosodyctl", "register", "romeo", DOMAIN, "r0meo"));
        LocalImage.run(log, 60, List.of(LocalImage.engine(), "exec", prosody, "prosodyctl", "register", "juliet", DOMAIN, "jul1et"));
        String room = "balcony@" + MUC_DOMAIN;
        MultiUserChat romeo = Rooms.create(login("romeo", "r0meo", c2sPort), room, "Romeo");
        MultiUserChat juliet = Rooms.join(login("juliet", "jul1et", c2sPort), room, "Juliet");
        assertThat(Rooms.sayAndReceive(romeo, juliet, "Lady, by yonder blessed moon I vow")).isEqualTo(room + "/Romeo");
        assertThat(Rooms.sayAndReceive(juliet, romeo, "O, swear not by the moon")).isEqualTo(room + "/Juliet");
    }

    @AfterEach
    void down() throws Exception {
        clients.forEach(XMPPTCPConnection::disconnect);
        if (compose == null || env.isEmpty()) {
            return;
        }
        try {
            compose("logs");
        } finally {
            compose("down", "-v");
            if (compose.get(0).equals("podman-compose")) {   // podman-compose 1.0.3 leaves its network behind
                LocalImage.run(log, 60, List.of("podman", "network", "rm", "-f", project + "_default"));
            }
        }
    }

    private void compose(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(compose);
        command.addAll(List.of("-p", project, "-f", "deploy/compose/compose.yaml"));
        command.addAll(List.of(args));
        List<String> withEnv = new ArrayList<>(List.of("env"));
        env.forEach((k, v) -> withEnv.add(k + "=" + v));
        withEnv.addAll(command);
        LocalImage.run(log, 600, withEnv);
    }

    private String containerOf(DockerClient docker, String service) {
        List<Container> found = docker.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of("com.docker.compose.project", project, "com.docker.compose.service", service)).exec();
        assertThat(found).as("the " + service + " container of " + project).hasSize(1);
        return found.get(0).getId();
    }

    private void awaitHealthy(DockerClient docker, boolean podman, String... containers) throws Exception {
        long deadline = System.nanoTime() + 180_000_000_000L;
        Map<String, String> status = new HashMap<>();
        while (System.nanoTime() < deadline) {
            for (String c : containers) {
                if (podman) {   // what podman's systemd timer would do
                    new ProcessBuilder("podman", "healthcheck", "run", c).redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start().waitFor();
                }
                HealthState health = docker.inspectContainerCmd(c).exec().getState().getHealth();
                status.put(c, health == null ? "no health check" : health.getStatus());
            }
            if (status.values().stream().allMatch("healthy"::equals)) {
                return;
            }
            Thread.sleep(2000);
        }
        assertThat(status).as("health of prosody and reconmuc (log " + log + ")").allSatisfy((c, s) -> assertThat(s).isEqualTo("healthy"));
    }

    private static void awaitLog(DockerClient docker, String container, String line) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        String log = "";
        while (System.nanoTime() < deadline) {
            log = LogUtils.getOutput(docker, container);
            if (log.contains(line)) {
                return;
            }
            Thread.sleep(500);
        }
        assertThat(log).as("ReConMUC's log").contains(line);
    }

    private XMPPTCPConnection login(String user, String password, int port) throws Exception {
        XMPPTCPConnection c = new XMPPTCPConnection(XMPPTCPConnectionConfiguration.builder()
                .setXmppDomain(DOMAIN).setHostAddress(InetAddress.getLoopbackAddress()).setPort(port)
                .setSecurityMode(SecurityMode.disabled).setUsernameAndPassword(user, password).setResource("compose")
                .build());
        c.setReplyTimeout(30_000);
        clients.add(c);
        c.connect().login();
        return c;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
