package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
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
import org.reconmuc.component.testing.Await;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.reconmuc.servers.EjabberdCluster;
import org.reconmuc.servers.XmppServer;

/**
 * Three ejabberd nodes in one cluster, each its own process, with a user logged into each: a room of
 * ejabberd's own MUC (it lives on one node) and a room of the component (attached to the first node)
 * each carry every user's message to every user, and the component's broadcasts reach the users of
 * the other nodes through the first node's XEP-0033 multicast.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EjabberdNodesIT {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private EjabberdCluster cluster;
    private LiveService live;

    @BeforeAll
    void start() throws Exception {
        cluster = EjabberdCluster.start(Path.of("target", "it-ejabberd-nodes"), 3);
        live = LiveService.attach(cluster.first(), c -> c, Clock.systemUTC());
    }

    @AfterAll
    void stop() {
        try {
            if (live != null) {
                live.closeAndValidate();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    /** One user logged into each node, {@code name1} into the first. */
    private List<XMPPTCPConnection> aUserOnEachNode(String name) throws Exception {
        List<XMPPTCPConnection> users = new ArrayList<>();
        for (int k = 0; k < cluster.nodes().size(); k++) {
            users.add(cluster.nodes().get(k).newClient(name + (k + 1)));
        }
        return users;
    }

    /**
     * Each user enters {@code room} (the first creates it, an instant room), says a line, and hears
     * every line: the bodies each user heard, by the user's index.
     */
    private static Map<Integer, Set<String>> everyoneSpeaks(List<XMPPTCPConnection> users, EntityBareJid room)
            throws Exception {
        Map<Integer, Set<String>> heard = new ConcurrentHashMap<>();
        List<MultiUserChat> chats = new ArrayList<>();
        for (int i = 0; i < users.size(); i++) {
            MultiUserChat chat = MultiUserChatManager.getInstanceFor(users.get(i)).getMultiUserChat(room);
            Set<String> bodies = heard.computeIfAbsent(i, k -> ConcurrentHashMap.newKeySet());
            chat.addMessageListener(m -> {
                if (m.getBody() != null) {
                    bodies.add(m.getBody());
                }
            });
            if (i == 0) {
                MultiUserChat.MucCreateConfigFormHandle created = chat.createOrJoin(Resourcepart.from("user" + (i + 1)));
                assertThat(created).as("%s was created by its first occupant", room).isNotNull();
                created.makeInstant();
            } else {
                chat.join(Resourcepart.from("user" + (i + 1)));
            }
            chats.add(chat);
        }
        Set<String> said = new HashSet<>();
        for (int i = 0; i < chats.size(); i++) {
            String line = "line of the user on node " + (i + 1);
            chats.get(i).sendMessage(line);
            said.add(line);
        }
        Await.until(() -> heard.values().stream().allMatch(b -> b.containsAll(said)), WAIT,
                "every user to hear every line in " + room + " (heard so far: " + heard + ")");
        return heard;
    }

    @Test
    void theNodesAreProcessesOfTheirOwnEachWithItsPortAndEveryOpenFileItMayHave() throws Exception {
        assertThat(cluster.pids()).hasSize(3).doesNotHaveDuplicates();
        assertThat(cluster.c2sPorts()).hasSize(3).doesNotHaveDuplicates();
        assertThat(cluster.erlangNodes()).hasSize(3).doesNotHaveDuplicates();
        for (XmppServer node : cluster.nodes()) {
            assertThat(node.isAlive()).as("%s is alive", node).isTrue();
            String limit = Files.readAllLines(Path.of("/proc", Long.toString(node.pid()), "limits")).stream()
                    .filter(l -> l.startsWith("Max open files")).findFirst().orElseThrow();
            String[] softAndHard = limit.substring("Max open files".length()).trim().split("\\s+");
            assertThat(softAndHard[0]).as("the soft open-files limit of %s: %s", node, limit).isEqualTo(softAndHard[1]);
        }
        System.out.printf("EjabberdNodesIT: 3 nodes ready in %.1f s; RSS %s%n", cluster.startTime().toMillis() / 1000.0,
                cluster.pids().stream().map(EjabberdNodesIT::rss).collect(Collectors.joining(", ")));
    }

    @Test
    void aRoomOfTheServersOwnMucCarriesEveryLineToItsOccupantsOnEveryNode() throws Exception {
        List<XMPPTCPConnection> users = aUserOnEachNode("native");
        EntityBareJid room = JidCreate.entityBareFrom("hall-" + System.nanoTime() % 100000 + "@"
                + cluster.first().nativeMucDomain());
        Map<Integer, Set<String>> heard = everyoneSpeaks(users, room);
        assertThat(heard).hasSize(3);
    }

    @Test
    void aRoomOfTheComponentReachesItsOccupantsOnEveryNodeThroughTheFirstNodesMulticast() throws Exception {
        ExternalComponentConnection link = live.connection();
        Await.until(() -> link.multicastService() != null, Duration.ofSeconds(30), "the server's multicast service to be found");
        long stanzasBefore = link.multicastStanzas();
        long copiesBefore = link.multicastCopies();
        List<XMPPTCPConnection> users = aUserOnEachNode("component");
        EntityBareJid room = JidCreate.entityBareFrom("hall-" + System.nanoTime() % 100000 + "@"
                + cluster.first().componentDomain());
        everyoneSpeaks(users, room);
        // Each line went out as one stanza for the three occupants (presences went the same way).
        assertThat(link.multicastStanzas() - stanzasBefore).as("multicast stanzas").isGreaterThanOrEqualTo(3);
        assertThat(link.multicastCopies() - copiesBefore).as("copies the multicast made").isGreaterThanOrEqualTo(9);
    }

    private static String rss(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                    .filter(l -> l.startsWith("VmRSS:")).map(l -> pid + " " + l.substring(6).trim()).findFirst().orElse(pid + " ?");
        } catch (java.io.IOException e) {
            return pid + " ?";
        }
    }
}
