package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

/**
 * Two instances behind ejabberd (four buckets) on a shared PostgreSQL; one is stopped with
 * SIGSTOP for three leases while its rooms keep getting messages, then continued. Its session
 * keeps its instance lock, so nobody adopts it; its rooms' stanzas wait at its sockets, and once
 * it runs again and has renewed its leases every message reaches every occupant: nobody is told
 * to rejoin, no room moves, and Carol, relaxed everywhere, gets each message retained for her once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EjabberdPauseIT {
    private static final int ROOMS = 8;
    private static final int LEASE_SECONDS = 2;
    private InstancesBehindEjabberd<ComponentJvm> cluster;
    private SharedStore store;
    private XmppServer server;

    @BeforeAll
    void start() throws Exception {
        cluster = ComponentJvm.twoBehindEjabberd("it-ejabberd-pause", LEASE_SECONDS);
        store = cluster.store();
        server = cluster.server();
    }

    @AfterAll
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void anInstancePausedForThreeLeasesIsNotAdoptedAndItsOccupantsMissNothing() throws Exception {
        XMPPTCPConnection romeoC = server.newClient("romeo");
        XMPPTCPConnection julietC = server.newClient("juliet");
        RoomWitness juliet = new RoomWitness(julietC);
        RoomWitness romeo = new RoomWitness(romeoC);
        XMPPTCPConnection carolC = server.newClient("carol");
        RoomWitness carolWitness = new RoomWitness(carolC);
        // Carol is relaxed everywhere: what she is sent is retained (a time bound of three seconds) and comes in batches.
        List<String> retainedForCarol = new java.util.concurrent.CopyOnWriteArrayList<>();
        org.reconmuc.smack.ReconMucManager carol = org.reconmuc.smack.ReconMucManager.forConnection(carolC);
        carol.addRetainedMessageListener((room, m) -> retainedForCarol.add(room + " " + m.getBody()));
        List<EntityBareJid> rooms = new ArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            EntityBareJid room = JidCreate.entityBareFrom("mantua" + i + "@" + server.componentDomain());
            rooms.add(room);
            MultiUserChat r = MultiUserChatManager.getInstanceFor(romeoC).getMultiUserChat(room);
            r.join(Resourcepart.from("Romeo"));
            MultiUserChatManager.getInstanceFor(julietC).getMultiUserChat(room).join(Resourcepart.from("Juliet"));
            MultiUserChatManager.getInstanceFor(carolC).getMultiUserChat(room).join(Resourcepart.from("Carol"));
            carol.setRequirements(room, org.reconmuc.smack.element.ConsistencyRequirements.builder()
                    .setTimeSeconds(3).build());
            r.sendMessage("before " + i);
        }
        for (int i = 0; i < ROOMS; i++) {
            juliet.awaitMessage(rooms.get(i), "before " + i);
        }
        Map<String, String> owners = store.roomOwners();
        List<Integer> onA = new ArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            if ("a".equals(owners.get(rooms.get(i).toString()))) {
                onA.add(i);
            }
        }
        assertThat(onA).as("rooms on a").isNotEmpty();

        // a stops for three leases; Romeo goes on talking in every room, once a second
        cluster.instance("a").freeze();
        int rounds = 3 * LEASE_SECONDS;
        for (int k = 0; k < rounds; k++) {
            for (int i = 0; i < ROOMS; i++) {
                romeoC.sendStanza(romeoC.getStanzaFactory().buildMessageStanza().to(rooms.get(i))
                        .ofType(Message.Type.groupchat).setBody("round " + k + " in " + i).build());
            }
            Thread.sleep(1_000);
        }
        assertThat(store.registeredInstances().keySet()).as("a, paused, is still registered: nobody adopted it").contains("a", "b");
        cluster.instance("a").thaw();

        try {
            for (int k = 0; k < rounds; k++) {
                for (int i = 0; i < ROOMS; i++) {
                    romeo.awaitMessage(rooms.get(i), "round " + k + " in " + i);
                    juliet.awaitMessage(rooms.get(i), "round " + k + " in " + i);
                }
            }
        } catch (AssertionError missing) {
            // What a colleague needs to tell where it went: which rooms a served, what Juliet got, what each instance warned of.
            throw new AssertionError(missing.getMessage() + "\nrooms on a: " + onA + "; owners now " + store.roomOwners()
                    + "\nJuliet got " + juliet.messages + "\na warned:\n" + warnings(cluster.instance("a").log())
                    + "\nb warned:\n" + warnings(cluster.instance("b").log()), missing);
        }
        // Carol gets every message once, retained and flushed by her time bound, never as a plain message.
        List<String> said = new ArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            said.add(rooms.get(i) + " before " + i);
            for (int k = 0; k < rounds; k++) {
                said.add(rooms.get(i) + " round " + k + " in " + i);
            }
        }
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (!retainedForCarol.containsAll(said) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(retainedForCarol).as("Carol, relaxed everywhere").containsAll(said);
        assertThat(retainedForCarol).as("each retained message comes once").doesNotHaveDuplicates();
        assertThat(carolWitness.messages).as("never as a plain message").noneMatch(m -> m.contains(" round "));
        assertThat(carolWitness.toldToRejoin).isEmpty();
        assertThat(juliet.toldToRejoin).isEmpty();
        assertThat(romeo.toldToRejoin).isEmpty();
        assertThat(store.roomOwners()).isEqualTo(owners);
        assertThat(cluster.instance("b").log()).doesNotContain("an instance is gone", "stopped beating");
        for (int i : onA) {
            assertThat(store.archived(rooms.get(i).toString())).isEqualTo(1 + rounds);
        }
        romeoC.disconnect();
        julietC.disconnect();
        carolC.disconnect();
    }

    private static String warnings(String log) {
        return log.lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ") || l.contains("Exception"))
                .collect(java.util.stream.Collectors.joining("\n"));
    }
}
