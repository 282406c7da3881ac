package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.disco.ServiceDiscoveryManager;
import org.jivesoftware.smackx.disco.packet.DiscoverInfo;
import org.jivesoftware.smackx.mam.MamManager;
import org.jivesoftware.smackx.mam.MamManager.MamQuery;
import org.jivesoftware.smackx.mam.MamManager.MamQueryArgs;
import org.jivesoftware.smackx.muc.Affiliate;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.xdata.form.FillableForm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * The component crashes: it runs in its own JVM (as {@code Main}, rooms in SQLite), is killed
 * with SIGKILL while ten bots chat, and is started again. The persistent room comes back with its
 * configuration, affiliations, subject and history, and every message that had been reflected to
 * its sender before the kill — acknowledged — is in the archive, exactly once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProsodyCrashIT {
    private XmppServer server;
    private Path dir;
    private ComponentJvm component;

    @BeforeAll
    void start() throws Exception {
        dir = Path.of("target", "it-prosody-crash").toAbsolutePath();
        if (Files.exists(dir.resolve("store"))) {
            try (Stream<Path> old = Files.walk(dir.resolve("store"))) {
                old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        server = XmppServers.start("prosody", Files.createDirectories(dir.resolve("prosody")));
    }

    @AfterAll
    void stop() throws Exception {
        if (component != null) {
            component.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private ComponentJvm startComponent() throws Exception {
        return ComponentJvm.start(server, dir.resolve("component.log"), "--store", "sqlite:" + dir.resolve("store/rooms.db"),
                "--rate-messages-per-second", "1000", "--rate-burst", "1000", "--history-size", "50");
    }

    @Test
    void killedWhileBotsChatThePersistentRoomComesBackWithEveryAcknowledgedMessageOnce() throws Exception {
        component = startComponent();
        EntityBareJid room = JidCreate.entityBareFrom("crash@" + server.componentDomain());
        XMPPTCPConnection ownerC = server.newClient("owner");
        MultiUserChat owner = MultiUserChatManager.getInstanceFor(ownerC).getMultiUserChat(room);
        owner.create(Resourcepart.from("Owner"));
        FillableForm form = owner.getConfigurationForm().getFillableForm();
        form.setAnswer("muc#roomconfig_persistentroom", true);
        form.setAnswer("muc#roomconfig_roomname", "Before the crash");
        form.setAnswer("muc#roomconfig_moderatedroom", true);
        owner.sendConfigurationForm(form);
        owner.grantMembership(JidCreate.bareFrom("nurse@capulet.lit"));
        owner.banUser(JidCreate.bareFrom("tybalt@capulet.lit"), "no swords");
        owner.changeSubject("Kept across crashes");

        int bots = 10;
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        List<XMPPTCPConnection> connections = new ArrayList<>();
        for (int i = 0; i < bots; i++) {
            XMPPTCPConnection c = server.newClient("bot" + i);
            String nick = "bot" + i;
            MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
            m.join(m.getEnterConfigurationBuilder(Resourcepart.from(nick)).requestNoHistory().build());
            owner.grantVoice(Resourcepart.from(nick));
            m.addMessageListener(msg -> {   // its own message reflected: acknowledged
                if (msg.getFrom() != null && nick.equals(String.valueOf(msg.getFrom().getResourceOrNull()))
                        && msg.getBody() != null) {
                    acknowledged.add(msg.getBody());
                }
            });
            connections.add(c);
        }

        // Bots talk; once the room has acknowledged a few rounds the component is killed in the middle of it,
        // and they talk on a little. The kill waits for acknowledgements, not for a number of rounds: on a busy
        // machine the echoes of the first rounds may not be back yet.
        int roundsAfterTheKill = 20;
        int killedAtRound = -1;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (int r = 0; killedAtRound < 0 || r < killedAtRound + roundsAfterTheKill; r++) {
            if (killedAtRound < 0 && (acknowledged.size() > 2 * bots || System.nanoTime() > deadline)) {
                component.kill();
                killedAtRound = r;
            }
            for (int i = 0; i < bots; i++) {
                XMPPTCPConnection c = connections.get(i);
                c.sendStanza(c.getStanzaFactory().buildMessageStanza().to(room).ofType(Message.Type.groupchat)
                        .setBody("b" + i + "-" + r).build());
            }
            Thread.sleep(20);
        }
        Thread.sleep(500);   // echoes in flight before the kill arrive
        Set<String> acknowledgedBeforeTheKill = Set.copyOf(acknowledged);
        assertThat(acknowledgedBeforeTheKill).as("the room acknowledged messages before the kill").hasSizeGreaterThan(bots);

        component = startComponent();

        XMPPTCPConnection auditorC = server.newClient("auditor");
        DiscoverInfo info = ServiceDiscoveryManager.getInstanceFor(auditorC).discoverInfo(room);
        assertThat(info.containsFeature("muc_persistent")).isTrue();
        assertThat(info.containsFeature("muc_moderated")).isTrue();
        assertThat(info.getIdentities().get(0).getName()).isEqualTo("Before the crash");

        // Every acknowledged message is in the archive, once.
        MultiUserChat auditor = MultiUserChatManager.getInstanceFor(auditorC).getMultiUserChat(room);
        MamQuery q = MamManager.getInstanceFor(auditor).queryArchive(MamQueryArgs.builder().setResultPageSize(100).build());
        List<String> archived = new ArrayList<>(bodies(q.getMessages()));
        while (!q.isComplete()) {
            archived.addAll(bodies(q.pageNext(100)));
        }
        assertThat(archived).doesNotHaveDuplicates();
        assertThat(archived).containsAll(acknowledgedBeforeTheKill);

        // The history on join is the archive's newest messages; the subject is back.
        auditor.join(auditor.getEnterConfigurationBuilder(Resourcepart.from("Auditor")).requestMaxStanzasHistory(1000).build());
        List<String> history = new ArrayList<>();
        for (Message m = auditor.nextMessage(3_000); m != null; m = auditor.nextMessage(2_000)) {
            if (m.getBody() != null) {
                history.add(m.getBody());
            }
        }
        assertThat(history).containsExactlyElementsOf(archived.subList(Math.max(0, archived.size() - 50), archived.size()));
        assertThat(auditor.getSubject()).isEqualTo("Kept across crashes");

        // Affiliations: the owner is still the owner (and may list members and outcasts).
        owner = MultiUserChatManager.getInstanceFor(ownerC).getMultiUserChat(room);
        List<String> members = affiliates(owner.getMembers());
        List<String> outcasts = affiliates(owner.getOutcasts());
        assertThat(members).contains("nurse@capulet.lit");
        assertThat(outcasts).contains("tybalt@capulet.lit");
        assertThat(affiliates(owner.getOwners())).contains(ownerC.getUser().asBareJid().toString());
    }

    @Test
    void anUnreachableStoreIsAClearErrorAtStartWithExitCode2() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "org.reconmuc.component.Main",
                "--server-port", String.valueOf(server.componentPort()), "--secret", "s",
                "--store", "jdbc:postgresql://127.0.0.1:1/rooms?user=muc&password=hidden").redirectErrorStream(true).start();
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(output).contains("cannot open the store jdbc:postgresql://127.0.0.1:1/rooms").doesNotContain("hidden");
    }

    private static List<String> bodies(List<Message> messages) {
        return messages.stream().map(Message::getBody).collect(Collectors.toList());
    }

    private static List<String> affiliates(List<Affiliate> list) {
        return list.stream().map(a -> a.getJid().toString()).collect(Collectors.toList());
    }
}
