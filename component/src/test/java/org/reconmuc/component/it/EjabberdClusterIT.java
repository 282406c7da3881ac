package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.disco.ServiceDiscoveryManager;
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
 * Three instances of the service behind one ejabberd (six buckets, {@code bare_destination}),
 * sharing a PostgreSQL: the rooms spread over all three, and when one is killed with SIGKILL a
 * survivor adopts its connections, its rooms are served again within seconds with their archive,
 * and their occupants carry on, told nothing: they keep chatting, and a relaxed occupant gets what
 * was retained for it before the kill. The room directory lists every instance's rooms.
 * An instance stopped cleanly hands its rooms and buckets over without waiting for its lease.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EjabberdClusterIT {
    private static final int ROOMS = 24;
    private InstancesBehindEjabberd<ComponentJvm> cluster;
    private XmppServer server;
    private SharedStore store;
    /** Instance c serves Prometheus metrics here. */
    private int metricsPort;

    @BeforeAll
    void start() throws Exception {
        metricsPort = org.reconmuc.servers.FreePorts.onLoopback(1)[0];
        cluster = InstancesBehindEjabberd.start(Path.of("target", "it-ejabberd-cluster").toAbsolutePath(),
                List.of("a", "b", "c"), 2, (name, server, flags, log) -> {
                    List<String> all = new ArrayList<>(flags);
                    all.addAll(List.of("--metrics-port", name.equals("c") ? Integer.toString(metricsPort) : "0"));
                    return ComponentJvm.start(server, log, all.toArray(String[]::new));
                }, List.of("--lease-seconds", "2", "--room-default-persistent", "true", "--lock-new-rooms", "false",
                        "--rate-messages-per-second", "1000", "--rate-burst", "1000"));
        server = cluster.server();
        store = cluster.store();
    }

    @AfterAll
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Map<String, String> owners() throws Exception {
        return store.roomOwners();
    }

    @Test
    void roomsSpreadOverTheInstancesAndADeadInstancesRoomsAreServedAgainWithTheirArchive() throws Exception {
        XMPPTCPConnection romeoC = server.newClient("romeo");
        XMPPTCPConnection julietC = server.newClient("juliet");
        XMPPTCPConnection carolC = server.newClient("carol");
        RoomWitness juliet = new RoomWitness(julietC);
        RoomWitness carolWitness = new RoomWitness(carolC);
        // Carol is relaxed in every room: two messages retained make a batch, never a time bound.
        List<String> retainedForCarol = new java.util.concurrent.CopyOnWriteArrayList<>();
        org.reconmuc.smack.ReconMucManager carol = org.reconmuc.smack.ReconMucManager.forConnection(carolC);
        carol.addRetainedMessageListener((room, m) -> retainedForCarol.add(room + " " + m.getBody()));
        List<EntityBareJid> rooms = new ArrayList<>();
        List<MultiUserChat> romeo = new ArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            EntityBareJid room = JidCreate.entityBareFrom("verona" + i + "@" + server.componentDomain());
            rooms.add(room);
            MultiUserChat r = MultiUserChatManager.getInstanceFor(romeoC).getMultiUserChat(room);
            r.join(Resourcepart.from("Romeo"));
            romeo.add(r);
            MultiUserChat j = MultiUserChatManager.getInstanceFor(julietC).getMultiUserChat(room);
            j.join(Resourcepart.from("Juliet"));
            MultiUserChatManager.getInstanceFor(carolC).getMultiUserChat(room).join(Resourcepart.from("Carol"));
            carol.setRequirements(room, org.reconmuc.smack.element.ConsistencyRequirements.builder()
                    .setTimeSeconds(600).setVolume(2).build());
            r.sendMessage("before " + i);
        }
        for (int i = 0; i < ROOMS; i++) {
            juliet.awaitMessage(rooms.get(i), "before " + i);
        }
        assertThat(retainedForCarol).as("retained, one message each").isEmpty();
        assertThat(carolWitness.messages).noneMatch(m -> m.contains(" before "));

        // Each room is served by exactly one instance, and every instance serves some.
        Map<String, String> owners = owners();
        assertThat(owners).hasSize(ROOMS);
        assertThat(Set.copyOf(owners.values())).containsExactlyInAnyOrder("a", "b", "c");
        // Whichever instance gets the service's disco#items lists every room of all three.
        List<String> directory = new ArrayList<>();
        ServiceDiscoveryManager.getInstanceFor(julietC).discoverItems(JidCreate.from(server.componentDomain()))
                .getItems().forEach(item -> directory.add(item.getEntityID().toString()));
        assertThat(directory).containsExactlyInAnyOrderElementsOf(rooms.stream().map(Object::toString).toList());
        List<Integer> onA = new ArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            if (owners.get(rooms.get(i).toString()).equals("a")) {
                onA.add(i);
            }
        }

        // a dies. A survivor adopts its connections; a's rooms answer again, and nobody is told anything.
        long killedAt = System.nanoTime();
        cluster.remove("a").kill();
        for (int i : onA) {
            romeoC.sendStanza(romeoC.getStanzaFactory().buildMessageStanza().to(rooms.get(i))
                    .ofType(Message.Type.groupchat).setBody("probe " + i).build());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Set<String> moved = ConcurrentHashMap.newKeySet();
        while (moved.size() < onA.size() && System.nanoTime() < deadline) {
            for (int i : onA) {
                String owner = owners().get(rooms.get(i).toString());
                if (owner != null && !owner.equals("a")) {
                    moved.add(rooms.get(i).toString());
                } else {
                    romeoC.sendStanza(romeoC.getStanzaFactory().buildMessageStanza().to(rooms.get(i))
                            .ofType(Message.Type.groupchat).setBody("probe " + i).build());
                }
            }
            Thread.sleep(250);
        }
        double failoverSeconds = (System.nanoTime() - killedAt) / 1e9;
        System.out.printf("EjabberdClusterIT: %d rooms of the killed instance served again after %.1f s%n", onA.size(),
                failoverSeconds);
        assertThat(moved).hasSize(onA.size());
        // Romeo and Juliet talk on without joining again; Carol gets, once, what she had retained under a
        // (her batch came when a probe made two); nothing acknowledged before the kill is lost.
        for (int i : onA) {
            MultiUserChat r = MultiUserChatManager.getInstanceFor(romeoC).getMultiUserChat(rooms.get(i));
            r.sendMessage("after " + i);
            juliet.awaitMessage(rooms.get(i), "after " + i);
            MultiUserChatManager.getInstanceFor(julietC).getMultiUserChat(rooms.get(i)).sendMessage("reply " + i);
            String owed = rooms.get(i) + " before " + i;
            long deadlineOwed = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (!retainedForCarol.contains(owed) && System.nanoTime() < deadlineOwed) {
                Thread.sleep(50);
            }
            assertThat(retainedForCarol.stream().filter(owed::equals)).as("retained under a, sent once under its next owner")
                    .hasSize(1);
            assertThat(store.archivedWithBody(rooms.get(i).toString(), "before " + i)).isEqualTo(1);
            assertThat(store.archivedWithBody(rooms.get(i).toString(), "after " + i)).isEqualTo(1);
        }
        assertThat(juliet.toldToRejoin).as("nobody is told to join again").isEmpty();
        assertThat(carolWitness.toldToRejoin).isEmpty();
        // Rooms on the survivors never moved.
        Map<String, String> after = owners();
        for (Map.Entry<String, String> o : owners.entrySet()) {
            if (!o.getValue().equals("a")) {
                assertThat(after.get(o.getKey())).isEqualTo(o.getValue());
            }
        }

        // b stops cleanly (SIGTERM): c, the only other instance, takes each of its buckets over, with its rooms.
        List<Integer> onB = new ArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            if ("b".equals(after.get(rooms.get(i).toString()))) {
                onB.add(i);
            }
        }
        long stoppedAt = System.nanoTime();
        cluster.stop("b");
        long stopDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        Set<String> movedFromB = ConcurrentHashMap.newKeySet();
        while (movedFromB.size() < onB.size() && System.nanoTime() < stopDeadline) {
            Map<String, String> now = owners();
            for (int i : onB) {
                if ("c".equals(now.get(rooms.get(i).toString()))) {
                    movedFromB.add(rooms.get(i).toString());
                } else {
                    romeoC.sendStanza(romeoC.getStanzaFactory().buildMessageStanza().to(rooms.get(i))
                            .ofType(Message.Type.groupchat).setBody("probe " + i).build());
                }
            }
            Thread.sleep(250);
        }
        System.out.printf("EjabberdClusterIT: %d rooms of the stopped instance served again after %.1f s%n", onB.size(),
                (System.nanoTime() - stoppedAt) / 1e9);
        assertThat(movedFromB).hasSize(onB.size());
        // c, the last one, holds a connection per bucket (its own and the ones it adopted, directly or through b),
        // and its metrics add them up.
        String scrape = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        assertThat(scrape).contains("reconmuc_connected 6.0");
        romeoC.disconnect();
        julietC.disconnect();
        carolC.disconnect();
    }
}
