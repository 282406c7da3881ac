package org.reconmuc.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.ImageHistory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.disco.ServiceDiscoveryManager;
import org.jivesoftware.smackx.disco.packet.DiscoverInfo;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.xdata.form.FillableForm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.jxmpp.jid.impl.JidCreate;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.output.OutputFrame.OutputType;
import org.testcontainers.utility.LogUtils;

/**
 * The image's own promises (README, Dockerfile): no secret in it, exit code 2 without one, a user
 * that is not root, and persistent rooms kept on the store's volume across containers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReconMucImageIT {
    private String image;
    private DockerClient docker;
    private XmppServer server;

    @BeforeAll
    void start() throws Exception {
        image = LocalImage.name();
        docker = DockerClientFactory.instance().client();
        server = XmppServers.startProsody(Path.of("target", "it-servers", "image-prosody"));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theImageHoldsNoSecretAndRunsAsItsOwnUser() throws Exception {
        InspectImageResponse inspected = docker.inspectImageCmd(image).exec();
        List<String> env = Arrays.asList(inspected.getConfig().getEnv());
        assertThat(env).as("the image's environment").noneMatch(e -> e.startsWith("RECONMUC_SECRET"));
        assertThat(env).contains("RECONMUC_STORE=sqlite:/var/lib/reconmuc/rooms.db");
        assertThat(inspected.getConfig().getUser()).isEqualTo("reconmuc");
        List<ImageHistory> history = docker.imageHistoryCmd(image).exec();
        assertThat(history).extracting(ImageHistory::getCreatedBy).as("the image's build steps")
                .noneMatch(step -> step != null && step.contains("SECRET="));
        // What the image carries of its own: the jar and the health check; the store is empty.
        String files = runOnce("find", "/app", "/var/lib/reconmuc", "-type", "f");
        assertThat(files.lines().sorted())
                .containsExactly("/app/healthcheck", "/app/reconmuc-component.jar");
        assertThat(runOnce("id", "-u").strip()).isEqualTo("10001");
    }

    @Test
    void withoutASecretItExitsWithCode2AndSaysWhy() {
        String container = docker.createContainerCmd(image).exec().getId();
        try {
            docker.startContainerCmd(container).exec();
            int code = docker.waitContainerCmd(container).start().awaitStatusCode(120, TimeUnit.SECONDS);
            assertThat(code).isEqualTo(2);
            assertThat(LogUtils.getOutput(docker, container)).contains("no component secret");
        } finally {
            docker.removeContainerCmd(container).withForce(true).withRemoveVolumes(true).exec();
        }
    }

    @Test
    void aPersistentRoomIsStillThereInTheNextContainerOnTheSameVolume() throws Exception {
        String volume = "reconmuc-it-store-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        String room;
        try {
            try (ReconMucContainer first = reconmuc(volume)) {
                first.start();
                room = first.roomAddress("orchard");
                // Juliet makes the room persistent and names it; Romeo joins, and they talk.
                XMPPTCPConnection julietC = server.newClient("juliet");
                MultiUserChat juliet = Rooms.join(julietC, room, "Juliet");   // locked: she configures it
                FillableForm form = juliet.getConfigurationForm().getFillableForm();
                form.setAnswer("muc#roomconfig_persistentroom", true);
                form.setAnswer("muc#roomconfig_roomname", "The Capulets' orchard");
                juliet.sendConfigurationForm(form);
                MultiUserChat romeo = Rooms.join(server.newClient("romeo"), room, "Romeo");
                assertThat(Rooms.sayAndReceive(romeo, juliet, "With love's light wings did I o'erperch these walls"))
                        .isEqualTo(room + "/Romeo");
                assertThat(first.execInContainer("id", "-u").getStdout().strip()).as("the component's user").isEqualTo("10001");
            }
            // A new container with the same volume: the room is there, as Juliet left it.
            try (ReconMucContainer second = reconmuc(volume)) {
                second.start();
                XMPPTCPConnection benvolioC = server.newClient("benvolio");
                DiscoverInfo info = ServiceDiscoveryManager.getInstanceFor(benvolioC).discoverInfo(JidCreate.from(room));
                assertThat(info.containsFeature("muc_persistent")).isTrue();
                assertThat(info.getIdentities().get(0).getName()).isEqualTo("The Capulets' orchard");
                MultiUserChat benvolio = Rooms.join(benvolioC, room, "Benvolio");
                MultiUserChat mercutio = Rooms.join(server.newClient("mercutio"), room, "Mercutio");
                assertThat(Rooms.sayAndReceive(mercutio, benvolio, "He jests at scars that never felt a wound"))
                        .isEqualTo(room + "/Mercutio");
            }
        } finally {
            try {
                docker.removeVolumeCmd(volume).exec();
            } catch (NotFoundException e) {
                // never made: the first container did not start
            }
        }
    }

    private ReconMucContainer reconmuc(String volume) {
        return new ReconMucContainer(image)
                .withNetworkMode("host")
                .withXmppServer("127.0.0.1", server.componentPort())
                .withDomain(server.componentDomain())
                .withSecret(server.componentSecret())
                .withStoreVolume(volume);
    }

    /** What {@code command} prints in a fresh container of the image (no secret needed: not the component). */
    private String runOnce(String... command) throws Exception {
        String container = docker.createContainerCmd(image).withEntrypoint(command).exec().getId();
        try {
            docker.startContainerCmd(container).exec();
            int code = docker.waitContainerCmd(container).start().awaitStatusCode(60, TimeUnit.SECONDS);
            assertThat(code).as(String.join(" ", command) + ": " + LogUtils.getOutput(docker, container)).isZero();
            return LogUtils.getOutput(docker, container, OutputType.STDOUT);
        } finally {
            docker.removeContainerCmd(container).withForce(true).withRemoveVolumes(true).exec();
        }
    }
}
