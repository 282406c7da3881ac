package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jivesoftware.smack.XMPPException.XMPPErrorException;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.packet.StanzaError;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.muc.UserStatusListener;
import org.jivesoftware.smackx.pubsub.LeafNode;
import org.jivesoftware.smackx.pubsub.PayloadItem;
import org.jivesoftware.smackx.pubsub.PubSubManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.Jid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.component.testing.Await;
import org.reconmuc.servers.InstancesBehindEjabberd;

/**
 * Two instances behind ejabberd (domain_balancing, two buckets each) follow one block list: each
 * finds an address of the domain that reaches it and subscribes from there, so each fetches the
 * list and each gets the notifications; rooms on both refuse the spammer and remove Mallory.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EjabberdRealTimeBlockListInstancesIT {
    private static final String NODE = "muc_bans_sha256";
    private static final int ROOMS = 8;
    private InstancesBehindEjabberd<ComponentJvm> cluster;
    private LeafNode list;

    @BeforeAll
    void start() throws Exception {
        // The list's node exists before the instances first subscribe, as an operator's list does.
        cluster = ComponentJvm.behindEjabberd("it-ejabberd-rtbl-instances", List.of("a", "b"), server -> {
            XMPPTCPConnection admin = server.newClient("list", b -> b.setUsernameAndPassword("rtbl-admin", "any"));
            list = PubSubManager.getInstanceFor(admin, JidCreate.bareFrom("pubsub.localhost")).createNode(NODE);
        }, "--rtbl-service", "pubsub.localhost", "--lock-new-rooms", "false");
    }

    @AfterAll
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void publish(XMPPTCPConnection user) throws Exception {
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(user.getUser().asBareJid().toString().getBytes(StandardCharsets.UTF_8)));
        list.publish(new PayloadItem<>(hash, StandardExtensionElement.builder("report", "urn:xmpp:reporting:1").build()));
    }

    private void awaitBothLogged(String line, Duration timeout) throws Exception {
        Await.until(() -> {
            try {
                return cluster.instance("a").log().contains(line) && cluster.instance("b").log().contains(line);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, timeout, "both instances to log '" + line + "'");
    }

    @Test
    void bothInstancesRefuseTheSpammerAndRemoveMalloryFromEveryRoom() throws Exception {
        XMPPTCPConnection spammerC = cluster.server().newClient("spammer");
        publish(spammerC);
        // Each instance follows the node from its own address, so each hears of the publication.
        awaitBothLogged("block list pubsub.localhost node " + NODE + ": 1 entries", Duration.ofSeconds(150));

        XMPPTCPConnection romeoC = cluster.server().newClient("romeo");
        XMPPTCPConnection malloryC = cluster.server().newClient("mallory");
        List<EntityBareJid> rooms = new ArrayList<>();
        List<String> malloryHeard = new CopyOnWriteArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            EntityBareJid room = JidCreate.entityBareFrom("hall" + i + "-" + System.nanoTime() % 100000 + "@"
                    + cluster.server().componentDomain());
            rooms.add(room);
            MultiUserChatManager.getInstanceFor(romeoC).getMultiUserChat(room).join(Resourcepart.from("Romeo"));
            MultiUserChat mallory = MultiUserChatManager.getInstanceFor(malloryC).getMultiUserChat(room);
            mallory.join(Resourcepart.from("Mallory"));
            mallory.addUserStatusListener(new UserStatusListener() {
                @Override
                public void kicked(Jid actor, String reason) {
                    malloryHeard.add(room + ": " + reason);
                }
            });
        }
        for (EntityBareJid room : rooms) {
            assertThatThrownBy(() -> MultiUserChatManager.getInstanceFor(spammerC).getMultiUserChat(room)
                    .join(Resourcepart.from("Spam")))
                    .as("the spammer entering " + room)
                    .isInstanceOfSatisfying(XMPPErrorException.class, e ->
                            assertThat(e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.forbidden));
        }

        publish(malloryC);

        Await.until(() -> malloryHeard.size() == ROOMS, Duration.ofSeconds(30), "Mallory removed from all " + ROOMS
                + " rooms; so far " + malloryHeard);
        assertThat(malloryHeard).allMatch(h -> h.endsWith(": Banned by RTBL"));
        awaitBothLogged("block list pubsub.localhost node " + NODE + ": 2 entries after a notification", Duration.ofSeconds(30));
    }
}
