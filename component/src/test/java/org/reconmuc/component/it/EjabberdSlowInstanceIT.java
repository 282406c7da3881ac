package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.servers.InstancesBehindEjabberd;
import org.reconmuc.servers.SharedStore;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.smack.ReconMucManager;
import org.reconmuc.smack.element.ConsistencyRequirements;

/**
 * Two instances behind ejabberd (four buckets) on a shared PostgreSQL; one is made slow, not
 * dead, for about four leases: stopped 400 ms out of every 500 (a fifth of its CPU time), while
 * Romeo talks in every room once a second. Slowness is not taken for death: the slow instance
 * keeps its instance lock, nobody adopts it and no room moves; once it runs at full speed again
 * every message has reached every occupant, nobody is told to rejoin, a relaxed occupant gets
 * every message retained for her (once, in a batch, not as a plain message), and the archive
 * holds every message of the slow instance's rooms.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EjabberdSlowInstanceIT {
    private static final int ROOMS = 8;
    private static final int LEASE_SECONDS = 2;
    /** About four leases of slowness; Romeo speaks once a second through all of it. */
    private static final Duration SLOW = Duration.ofSeconds(4 * LEASE_SECONDS + 1);
    private static final long STOPPED_MILLIS = 400;
    private static final long RUNNING_MILLIS = 100;
    /** CI machines are busy (two shared cores): a slow instance's backlog may take a while to drain. */
    private static final Duration GENEROUS = Duration.ofSeconds(60);
    private InstancesBehindEjabberd<ComponentJvm> cluster;
    private SharedStore store;
    private XmppServer server;
    private final ExecutorService throttling = Executors.newSingleThreadExecutor();

    @BeforeAll
    void start() throws Exception {
        cluster = ComponentJvm.twoBehindEjabberd("it-ejabberd-slow", LEASE_SECONDS);
        store = cluster.store();
        server = cluster.server();
    }

    @AfterAll
    void stop() throws Exception {
        // Whatever failed, a is left running (the throttle ends with SIGCONT; this makes sure).
        throttling.shutdownNow();
        throttling.awaitTermination(5, TimeUnit.SECONDS);
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Waits, up to {@link #GENEROUS}, until {@code seen} holds all of {@code expected}; then says so. */
    private static void awaitAll(String who, Collection<String> seen, Collection<String> expected) throws InterruptedException {
        long deadline = System.nanoTime() + GENEROUS.toNanos();
        while (!seen.containsAll(expected) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(seen).as(who + " got every message").containsAll(expected);
    }

    @Test
    void aSlowInstanceIsNotTakenForDeadAndItsOccupantsMissNothing() throws Exception {
        XMPPTCPConnection romeoC = server.newClient("romeo");
        XMPPTCPConnection julietC = server.newClient("juliet");
        XMPPTCPConnection carolC = server.newClient("carol");
        RoomWitness romeo = new RoomWitness(romeoC);
        RoomWitness juliet = new RoomWitness(julietC);
        RoomWitness carolWitness = new RoomWitness(carolC);
        // Carol is relaxed everywhere: what she is sent is retained (a time bound of three seconds) and comes in batches.
        List<String> retainedForCarol = new CopyOnWriteArrayList<>();
        ReconMucManager carol = ReconMucManager.forConnection(carolC);
        carol.addRetainedMessageListener((room, m) -> retainedForCarol.add(room + " " + m.getBody()));
        List<EntityBareJid> rooms = new ArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            EntityBareJid room = JidCreate.entityBareFrom("padua" + i + "@" + server.componentDomain());
            rooms.add(room);
            MultiUserChat r = MultiUserChatManager.getInstanceFor(romeoC).getMultiUserChat(room);
            r.join(Resourcepart.from("Romeo"));
            MultiUserChatManager.getInstanceFor(julietC).getMultiUserChat(room).join(Resourcepart.from("Juliet"));
            MultiUserChatManager.getInstanceFor(carolC).getMultiUserChat(room).join(Resourcepart.from("Carol"));
            carol.setRequirements(room, ConsistencyRequirements.builder().setTimeSeconds(3).build());
            r.sendMessage("before " + i);
        }
        for (int i = 0; i < ROOMS; i++) {
            juliet.awaitMessage(rooms.get(i), "before " + i);
        }
        Map<String, String> owners = store.roomOwners();
        assertThat(owners).hasSize(ROOMS);
        List<Integer> onA = new ArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            if ("a".equals(owners.get(rooms.get(i).toString()))) {
                onA.add(i);
            }
        }
        assertThat(onA).as("rooms on a").isNotEmpty();

        // a runs a fifth of the time for about four leases; Romeo goes on talking in every room, once a second,
        // and ten times a second we look whether anyone took a for dead.
        Map<String, Integer> registered = store.registeredInstances();
        assertThat(registered).isEqualTo(Map.of("a", 2, "b", 2));
        ComponentJvm a = cluster.instance("a");
        Future<Integer> slow = throttling.submit(() -> a.throttle(SLOW, STOPPED_MILLIS, RUNNING_MILLIS));
        int rounds = (int) SLOW.toSeconds();
        // An adopted instance's row is deleted, but it writes it again at its next renewal: look often.
        List<String> adoptedAt = new ArrayList<>();
        int stops;
        try {
            for (int k = 0; k < rounds; k++) {
                for (int i = 0; i < ROOMS; i++) {
                    romeoC.sendStanza(romeoC.getStanzaFactory().buildMessageStanza().to(rooms.get(i))
                            .ofType(Message.Type.groupchat).setBody("round " + k + " in " + i).build());
                }
                for (int look = 0; look < 10; look++) {
                    Thread.sleep(100);
                    Map<String, Integer> now = store.registeredInstances();
                    if (!now.equals(registered)) {
                        adoptedAt.add("round " + k + ": " + now);
                    }
                }
            }
            stops = slow.get(SLOW.toSeconds() + 30, TimeUnit.SECONDS);
        } finally {
            slow.cancel(true);
            a.thaw();
        }
        System.out.printf("EjabberdSlowInstanceIT: a was stopped %d times, %d ms each, in %d s%n", stops,
                STOPPED_MILLIS, SLOW.toSeconds());
        assertThat(adoptedAt).as("a, slow, stayed registered: nobody adopted it").isEmpty();
        // Each kill(1) takes some ms, so fewer cycles than planned fit; a was still stopped most of the time.
        assertThat(stops * STOPPED_MILLIS).as("ms a was stopped").isGreaterThan(SLOW.toMillis() * 6 / 10);
        assertThat(store.registeredInstances()).isEqualTo(registered);

        // Romeo hears his own words back, Juliet gets each, Carol gets each once, retained.
        List<String> said = new ArrayList<>();
        List<String> saidInA = new ArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            for (int k = 0; k < rounds; k++) {
                said.add(rooms.get(i) + " round " + k + " in " + i);
                if (onA.contains(i)) {
                    saidInA.add(rooms.get(i) + " round " + k + " in " + i);
                }
            }
        }
        awaitAll("Romeo", romeo.messages, said);
        awaitAll("Juliet", juliet.messages, said);
        List<String> retainedInA = new ArrayList<>(saidInA);
        onA.forEach(i -> retainedInA.add(rooms.get(i) + " before " + i));
        awaitAll("Carol, relaxed in a's rooms", retainedForCarol, retainedInA);
        awaitAll("Carol, relaxed everywhere", retainedForCarol, said);
        assertThat(retainedForCarol).as("each retained message comes once").doesNotHaveDuplicates();
        assertThat(carolWitness.messages).as("never as a plain message").noneMatch(m -> m.contains(" round "));

        assertThat(romeo.toldToRejoin).as("nobody is told to join again").isEmpty();
        assertThat(juliet.toldToRejoin).isEmpty();
        assertThat(carolWitness.toldToRejoin).isEmpty();
        assertThat(store.roomOwners()).as("no room moved").isEqualTo(owners);
        assertThat(cluster.instance("b").log()).doesNotContain("an instance is gone", "stopped beating");
        for (int i : onA) {
            assertThat(store.archived(rooms.get(i).toString())).as("archive of " + rooms.get(i))
                    .isEqualTo(1 + rounds);
        }
        romeoC.disconnect();
        julietC.disconnect();
        carolC.disconnect();
    }
}
