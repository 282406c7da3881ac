package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.packet.StanzaError;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.disco.ServiceDiscoveryManager;
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
import org.reconmuc.component.ReconMuc;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.testing.Await;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * Faults with real processes: the XMPP server is restarted, or stops reading for ten seconds,
 * while occupants chat; one occupant floods the room. Nothing accepted is lost, nothing
 * deadlocks, and the room carries on.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProsodyFaultToleranceIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private XmppServer server;
    private ReconMuc muc;
    private final AtomicInteger rooms = new AtomicInteger();

    @BeforeAll
    void start() throws Exception {
        server = XmppServers.start("prosody", Files.createDirectories(Path.of("target", "it-prosody-faults")));
        ServiceConfig config = ServiceConfig.builder().server(server.host(), server.componentPort())
                .domain(server.componentDomain()).secret(server.componentSecret())
                .historySize(5_000)
                // A frozen server delivers what it buffered as one burst: the message burst allows for it.
                .messageRate(10.0, 200)
                .reconnectMaxBackoff(Duration.ofSeconds(1))
                .presencesAndIqsPerSecond(5.0).presenceAndIqBurst(10)
                .build();
        muc = ReconMuc.start(config);
        assertThat(muc.awaitConnected(Duration.ofSeconds(20))).isTrue();
    }

    @AfterAll
    void stop() {
        if (muc != null) {
            muc.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private EntityBareJid newRoom() throws Exception {
        return JidCreate.entityBareFrom("faults" + rooms.incrementAndGet() + "-" + System.nanoTime() % 100_000
                + "@" + server.componentDomain());
    }

    private static MultiUserChat muc(XMPPTCPConnection c, EntityBareJid room) {
        return MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
    }

    private static MultiUserChat joinWithoutHistory(XMPPTCPConnection c, EntityBareJid room, String nick) throws Exception {
        MultiUserChat m = muc(c, room);
        m.join(m.getEnterConfigurationBuilder(Resourcepart.from(nick)).requestNoHistory().build());
        return m;
    }

    private static void await(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        Await.until(condition, timeout, what);
    }

    /** Joins as the creator of a new room and accepts the instant room (XEP-0045 §10.1.2). */
    private static MultiUserChat createInstant(XMPPTCPConnection c, EntityBareJid room, String nick) throws Exception {
        MultiUserChat m = muc(c, room);
        MultiUserChat.MucCreateConfigFormHandle handle = m.createOrJoin(Resourcepart.from(nick));
        if (handle != null) {
            handle.makeInstant();
        }
        return m;
    }

    private static Message groupchat(XMPPTCPConnection c, EntityBareJid room, String body) {
        return c.getStanzaFactory().buildMessageStanza().to(room).ofType(Message.Type.groupchat).setBody(body).build();
    }

    @Test
    void theServerRestartsWhileFiftyBotsChatAndTheRoomKeepsEveryAcceptedMessage() throws Exception {
        EntityBareJid room = newRoom();
        MultiUserChat owner = createInstant(server.newClient("owner"), room, "Owner");
        FillableForm form = owner.getConfigurationForm().getFillableForm();
        form.setAnswer("muc#roomconfig_persistentroom", true);
        owner.sendConfigurationForm(form);

        int bots = 50;
        int rounds = 16;
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        List<XMPPTCPConnection> connections = new ArrayList<>();
        for (int i = 0; i < bots; i++) {
            XMPPTCPConnection c = server.newClient("bot" + i);
            String nick = "bot" + i;
            MultiUserChat m = joinWithoutHistory(c, room, nick);
            m.addMessageListener(msg -> {   // an echo of its own message: the room accepted it
                if (msg.getFrom() != null && nick.equals(String.valueOf(msg.getFrom().getResourceOrNull()))
                        && msg.getBody() != null) {
                    accepted.add(msg.getBody());
                }
            });
            connections.add(c);
        }

        AtomicInteger sendFailures = new AtomicInteger();
        long connectionsBefore = muc.connection().connections();
        Thread restarter = null;
        for (int r = 0; r < rounds; r++) {
            if (r == rounds / 2) {
                // The restart must find messages already accepted; on a busy machine the echoes of the
                // first rounds can take longer than the rounds themselves, so wait for them, not the clock.
                await(() -> accepted.size() > bots, WAIT, "the room to accept the first rounds before the restart");
                restarter = new Thread(() -> {
                    try {
                        server.restart();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, "restart-prosody");
                restarter.start();
            }
            for (int i = 0; i < bots; i++) {
                try {
                    connections.get(i).sendStanza(groupchat(connections.get(i), room, "b" + i + "-" + r));
                } catch (Exception e) {
                    sendFailures.incrementAndGet();   // the bot's server went away: nothing was accepted
                }
            }
            Thread.sleep(250);
        }
        restarter.join(TimeUnit.SECONDS.toMillis(60));
        Set<String> acceptedBeforeRestart = new HashSet<>(accepted);

        await(() -> muc.connection().connections() > connectionsBefore && muc.connection().isConnected(), WAIT,
                "the component to reconnect to the restarted server");

        // A newcomer reads the whole history: everything accepted is there, once.
        XMPPTCPConnection auditorC = server.newClient("auditor");
        MultiUserChat auditor = muc(auditorC, room);
        auditor.join(auditor.getEnterConfigurationBuilder(Resourcepart.from("Auditor")).requestMaxStanzasHistory(5_000).build());
        List<String> history = new ArrayList<>();
        for (Message m = auditor.nextMessage(3_000); m != null; m = auditor.nextMessage(3_000)) {
            if (m.getBody() != null) {
                history.add(m.getBody());
            }
        }
        assertThat(history).doesNotHaveDuplicates();
        assertThat(history).containsAll(acceptedBeforeRestart);
        // The room itself came through: still persistent, owned by its owner.
        assertThat(ServiceDiscoveryManager.getInstanceFor(auditorC).discoverInfo(room).containsFeature("muc_persistent")).isTrue();
        assertThat(muc.connection().refusedWhileDisconnected()).isZero();
    }

    @Test
    void aServerThatStopsReadingForTenSecondsLosesNothingAndNothingDeadlocks() throws Exception {
        EntityBareJid room = newRoom();
        int listeners = 5;
        int senders = 3;
        List<List<String>> received = new ArrayList<>();
        List<XMPPTCPConnection> listenerConnections = new ArrayList<>();
        for (int i = 0; i < listeners; i++) {
            XMPPTCPConnection c = server.newClient("listener" + i);
            MultiUserChat m = i == 0 ? createInstant(c, room, "listener0") : joinWithoutHistory(c, room, "listener" + i);
            List<String> mine = new CopyOnWriteArrayList<>();
            m.addMessageListener(msg -> {
                if (msg.getBody() != null && msg.getBody().startsWith("s")) {
                    mine.add(msg.getBody());
                }
            });
            received.add(mine);
            listenerConnections.add(c);
        }
        List<XMPPTCPConnection> senderConnections = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            XMPPTCPConnection c = server.newClient("sender" + s);
            joinWithoutHistory(c, room, "sender" + s);
            senderConnections.add(c);
        }

        long connectionsBefore = muc.connection().connections();
        int perSender = 70;   // 5 per second each for 14 s; the server is frozen from 2 s to 12 s
        long t0 = System.nanoTime();
        boolean suspended = false;
        boolean resumed = false;
        for (int n = 0; n < perSender; n++) {
            long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
            if (!suspended && elapsedMs >= 2_000) {
                server.suspend();
                suspended = true;
            }
            if (suspended && !resumed && elapsedMs >= 12_000) {
                server.resume();
                resumed = true;
            }
            for (int s = 0; s < senders; s++) {
                senderConnections.get(s).sendStanza(groupchat(senderConnections.get(s), room, "s" + s + "-" + n));
            }
            Thread.sleep(200);
        }
        if (!resumed) {
            server.resume();
        }

        int expected = senders * perSender;
        try {
            await(() -> received.stream().allMatch(l -> l.size() >= expected), Duration.ofSeconds(60),
                    "every listener to receive all " + expected + " messages");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; received " + received.stream().map(List::size).toList()
                    + "; listener0 misses " + missing(received.get(0), senders, perSender), e);
        }
        for (List<String> got : received) {
            assertThat(got).hasSize(expected).doesNotHaveDuplicates();
            Map<String, Integer> next = new HashMap<>();
            for (String body : got) {   // each sender's messages in the order sent
                String sender = body.substring(0, body.indexOf('-'));
                int n = Integer.parseInt(body.substring(body.indexOf('-') + 1));
                assertThat(n).as("order of " + sender).isEqualTo(next.getOrDefault(sender, 0));
                next.put(sender, n + 1);
            }
        }
        assertThat(muc.connection().connections()).as("the stall is not a reconnection").isEqualTo(connectionsBefore);
        await(() -> muc.connection().queuedStanzas() == 0, WAIT, "the outgoing queue to drain");
        assertThat(muc.connection().refusedWhileDisconnected()).isZero();
        assertThat(muc.connection().droppedAfterClose()).isZero();
    }

    private static List<String> missing(List<String> got, int senders, int perSender) {
        List<String> missing = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            for (int n = 0; n < perSender; n++) {
                if (!got.contains("s" + s + "-" + n)) {
                    missing.add("s" + s + "-" + n);
                }
            }
        }
        return missing;
    }

    @Test
    void anOccupantFloodingPresenceAndIqsIsRefusedWhileTheOthersChatOn() throws Exception {
        EntityBareJid room = newRoom();
        XMPPTCPConnection julietC = server.newClient("juliet");
        createInstant(julietC, room, "Juliet");
        XMPPTCPConnection romeoC = server.newClient("romeo");
        MultiUserChat romeo = joinWithoutHistory(romeoC, room, "Romeo");

        StanzaCollector errors = romeoC.createStanzaCollector(new AndFilter(FromMatchesFilter.createBare(room),
                stanza -> stanza.getError() != null));
        try {
            for (int i = 0; i < 40; i++) {
                romeoC.sendStanza(romeoC.getStanzaFactory().buildPresenceStanza().to(JidCreate.fullFrom(room + "/Romeo"))
                        .setStatus("flood " + i).build());
                romeoC.sendStanza(romeoC.getStanzaFactory().buildPresenceStanza().to(JidCreate.fullFrom(room + "/Romeo"))
                        .setStatus("flood " + i).build());
                org.jivesoftware.smackx.disco.packet.DiscoverInfo info = org.jivesoftware.smackx.disco.packet.DiscoverInfo
                        .builder("flood-" + i).to(room).ofType(org.jivesoftware.smack.packet.IQ.Type.get).build();
                romeoC.sendStanza(info);
            }
            int policyViolations = 0;
            boolean presenceRefused = false;
            boolean iqRefused = false;
            for (Stanza s = errors.nextResult(5_000); s != null; s = errors.nextResult(2_000)) {
                if (s.getError().getCondition() == StanzaError.Condition.policy_violation) {
                    policyViolations++;
                    presenceRefused |= s instanceof Presence;
                    iqRefused |= s instanceof org.jivesoftware.smack.packet.IQ;
                    assertThat(s.getError().getType()).isEqualTo(StanzaError.Type.WAIT);
                }
            }
            assertThat(policyViolations).isGreaterThan(60);
            assertThat(presenceRefused).isTrue();
            assertThat(iqRefused).isTrue();
        } finally {
            errors.cancel();
        }

        // Juliet chats on, and Romeo hears her.
        StanzaCollector heard = romeoC.createStanzaCollector(new AndFilter(StanzaTypeFilter.MESSAGE,
                FromMatchesFilter.createFull(JidCreate.fullFrom(room + "/Juliet"))));
        try {
            julietC.sendStanza(groupchat(julietC, room, "still talking"));
            Message m = heard.nextResult(10_000);
            assertThat(m).isNotNull();
            assertThat(m.getBody()).isEqualTo("still talking");
        } finally {
            heard.cancel();
        }
        assertThat(romeo.isJoined()).isTrue();
    }

    @Test
    void withoutASecretTheComponentRefusesToStartAndSaysWhy() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "org.reconmuc.component.Main",
                "--server-port", String.valueOf(server.componentPort()))
                .redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("RECONMUC_"));
        Process p = builder.start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(output).contains("no component secret").contains("--secret").contains("RECONMUC_SECRET");
    }
}
