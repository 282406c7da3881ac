package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.delay.packet.DelayInformation;
import org.jivesoftware.smackx.disco.ServiceDiscoveryManager;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.sid.element.StanzaIdElement;
import org.junit.jupiter.api.Test;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.BatchEncoding;
import org.reconmuc.component.testing.Await;
import org.reconmuc.smack.ReconMucManager;
import org.reconmuc.smack.element.Aggregation;
import org.reconmuc.smack.element.BatchElement;
import org.reconmuc.smack.element.ConsistencyRequirements;
import org.reconmuc.smack.element.FilterEntry;
import org.reconmuc.smack.reply.element.ReplyElement;

/**
 * Relaxed consistency as real Smack clients see it through a real server: the paper's Figure 1
 * with real time, a reply reaching its author at once, batches (plain and deflate) decoded by
 * the client, and a topic switch releasing the backlog.
 */
abstract class RelaxedConsistencyIT extends LiveServiceIT {
    private static final String NS = XmlNamespaces.RECONMUC;
    private static final long WAIT_MS = 10_000;


    @Override
    String runDir() {
        return "it-relaxed-" + serverKind();
    }

    @Override
    void validated(boolean observed, int count) {
        if (observed) {
            assertThat(count).as("protocol elements emitted and validated").isGreaterThan(5);
        }
    }

    private MultiUserChat enter(XMPPTCPConnection c, EntityBareJid room, String nick) throws Exception {
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
        MultiUserChat.MucCreateConfigFormHandle handle = m.createOrJoin(Resourcepart.from(nick));
        if (handle != null) {
            handle.makeInstant();
        }
        drain(m); // the subject that closes the join
        return m;
    }

    /** States requirements as Joom does, through the client library; returns the effective ones. */
    private static ConsistencyRequirements require(XMPPTCPConnection c, EntityBareJid room, ConsistencyRequirements.Builder r)
            throws Exception {
        ReconMucManager manager = ReconMucManager.forConnection(c);
        assertThat(manager.discoverSupport(room).supported()).as("checked before the first request").isTrue();
        return manager.setRequirements(room, r.build());
    }

    private static ConsistencyRequirements.Builder requirements() {
        return ConsistencyRequirements.builder();
    }

    private static void drain(MultiUserChat m) throws Exception {
        while (m.nextMessage(300) != null) {
            // discard
        }
    }

    /** Waits for the next message with a body or a batch. */
    private static Message next(MultiUserChat m, long timeoutMs) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            Message msg = m.nextMessage(Math.max(1, deadline - System.currentTimeMillis()));
            if (msg != null && (msg.getBody() != null || BatchElement.from(msg) != null)) {
                return msg;
            }
        }
        return null;
    }

    /** The bodies a batch carries, decoded as a client would (plain or deflate) by the client library. */
    private static List<String> batchBodies(Message m) throws Exception {
        assertThat(BatchElement.from(m)).as("a batch").isNotNull();
        List<String> bodies = new ArrayList<>();
        for (Message retained : ReconMucManager.unpack(m, new BatchDecoder())) {
            assertThat(DelayInformation.from(retained)).as("each item has its XEP-0203 delay").isNotNull();
            bodies.add(retained.getBody());
        }
        return bodies;
    }

    private static void say(MultiUserChat m, String body) throws Exception {
        m.sendMessage(body);
    }

    @Test
    void theServiceAdvertisesTheProtocol() throws Exception {
        XMPPTCPConnection c = server.newClient("disco");
        assertThat(ServiceDiscoveryManager.getInstanceFor(c)
                .supportsFeature(JidCreate.domainBareFrom(server.componentDomain()), NS)).isTrue();
    }

    @Test
    void figureOneGossipAtOnceAndTheMovieWhenTheTimeBoundExpires() throws Exception {
        EntityBareJid room = newRoom("relaxed");
        XMPPTCPConnection aliceC = server.newClient("alice");
        MultiUserChat alice = enter(aliceC, room, "Alice");
        MultiUserChat bob = enter(server.newClient("bob"), room, "Bob");
        ConsistencyRequirements effective = require(aliceC, room,
                requirements().addFilterEntry(FilterEntry.topic("gossip", true)).setTimeSeconds(3));
        assertThat(effective.getTimeSeconds()).isEqualTo(3);

        long sent = System.nanoTime();
        say(bob, "Did you hear? #gossip");
        Message gossip = next(alice, WAIT_MS);
        assertThat(gossip.getBody()).isEqualTo("Did you hear? #gossip");
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).as("gossip at once").isLessThan(Duration.ofSeconds(2));

        long movieSent = System.nanoTime();
        say(bob, "The new movie is out #movie");
        say(alice, "my own words");
        assertThat(next(alice, WAIT_MS).getBody()).as("her own message comes back at once").isEqualTo("my own words");
        Message later = next(alice, WAIT_MS);
        Duration waited = Duration.ofNanos(System.nanoTime() - movieSent);
        assertThat(batchBodies(later)).containsExactly("The new movie is out #movie");
        assertThat(waited).as("retained for the time bound").isBetween(Duration.ofMillis(2900), Duration.ofSeconds(6));
    }

    @Test
    void aReplyReachesItsParentsAuthorAtOnce() throws Exception {
        EntityBareJid room = newRoom("relaxed");
        XMPPTCPConnection aliceC = server.newClient("alice");
        MultiUserChat alice = enter(aliceC, room, "Alice");
        XMPPTCPConnection bobC = server.newClient("bob");
        MultiUserChat bob = enter(bobC, room, "Bob");
        require(aliceC, room, requirements().setTimeSeconds(600));

        say(alice, "Anyone for tea?");
        Message echo = next(alice, WAIT_MS);
        String parentId = StanzaIdElement.getStanzaId(echo).getId();
        Message atBob = next(bob, WAIT_MS);
        assertThat(atBob.getBody()).isEqualTo("Anyone for tea?");

        Message reply = bobC.getStanzaFactory().buildMessageStanza().to(room).ofType(Message.Type.groupchat)
                .setBody("Yes please")
                .addExtension(new ReplyElement(room + "/Alice", parentId))
                .build();
        long sent = System.nanoTime();
        bob.sendMessage(reply);
        Message atAlice = next(alice, WAIT_MS);
        assertThat(atAlice.getBody()).isEqualTo("Yes please");
        assertThat(DelayInformation.from(atAlice)).isNull();
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void compactBatchesAndADeflateStreamAreDecodedByTheClient() throws Exception {
        EntityBareJid room = newRoom("relaxed");
        XMPPTCPConnection aliceC = server.newClient("alice");
        MultiUserChat alice = enter(aliceC, room, "Alice");
        XMPPTCPConnection carolC = server.newClient("carol");
        MultiUserChat carol = enter(carolC, room, "Carol");
        MultiUserChat bob = enter(server.newClient("bob"), room, "Bob");
        assertThat(ReconMucManager.forConnection(carolC).discoverSupport(room).compactDeflate()).isTrue();
        require(aliceC, room, requirements().setTimeSeconds(600).setVolume(2).setAggregation(Aggregation.COMPACT));
        require(carolC, room, requirements().setTimeSeconds(600).setVolume(2).setAggregation(Aggregation.COMPACT_DEFLATE));
        List<Message> heardByCarol = new java.util.concurrent.CopyOnWriteArrayList<>();
        ReconMucManager.forConnection(carolC).addRetainedMessageListener((r, m) -> heardByCarol.add(m));

        for (String body : List.of("one", "two \u00e9\u00e8 \u2603", "three", "four")) {
            say(bob, body);
        }
        List<String> alices = new ArrayList<>();
        List<String> streamNumbers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            alices.addAll(batchBodies(next(alice, WAIT_MS)));
            String xml = BatchElement.from(next(carol, WAIT_MS)).getXml();
            streamNumbers.add(xml.replaceFirst("(?s).* n=\"(\\d+)\".*", "$1"));
        }
        assertThat(alices).containsExactly("one", "two \u00e9\u00e8 \u2603", "three", "four");
        assertThat(streamNumbers).as("Carol's two batches continue one stream").containsExactly("1", "2");
        Await.until(() -> heardByCarol.size() == 4, Duration.ofSeconds(5), "the listener heard all four");
        assertThat(heardByCarol).allSatisfy(m -> assertThat(DelayInformation.from(m)).isNotNull())
                .extracting(Message::getBody).containsExactly("one", "two \u00e9\u00e8 \u2603", "three", "four");
    }

    @Test
    void carolsStreamsInTwoRoomsAreReadApartByTheClientLibrary() throws Exception {
        EntityBareJid lobby = newRoom("relaxed");
        EntityBareJid garden = newRoom("relaxed");
        XMPPTCPConnection carolC = server.newClient("carol");
        XMPPTCPConnection bobC = server.newClient("bob");
        MultiUserChat bobInLobby = enter(bobC, lobby, "Bob");
        MultiUserChat bobInGarden = enter(bobC, garden, "Bob");
        enter(carolC, lobby, "Carol");
        enter(carolC, garden, "Carol");
        List<String> heardByCarol = new java.util.concurrent.CopyOnWriteArrayList<>();
        ReconMucManager.forConnection(carolC).addRetainedMessageListener((r, m) -> heardByCarol.add(r.getLocalpart() + ": " + m.getBody()));
        List<Exception> malformed = new java.util.concurrent.CopyOnWriteArrayList<>();
        ReconMucManager.forConnection(carolC).addRetainedMessageListener(new org.reconmuc.smack.RetainedMessageListener() {
            @Override
            public void retainedMessage(EntityBareJid room, Message message) {
            }

            @Override
            public void malformedBatch(EntityBareJid room, Message batch, org.reconmuc.codec.batch.MalformedBatchException problem) {
                malformed.add(problem);
            }
        });
        // Each room runs its own stream for Carol's session; batches of the two arrive interleaved.
        for (EntityBareJid room : List.of(lobby, garden)) {
            require(carolC, room, requirements().setTimeSeconds(600).setVolume(2).setAggregation(Aggregation.COMPACT_DEFLATE));
        }
        for (int i = 1; i <= 3; i++) {
            say(bobInLobby, "lobby " + i + "a");
            say(bobInGarden, "garden " + i + "a");
            say(bobInLobby, "lobby " + i + "b");
            say(bobInGarden, "garden " + i + "b");
        }
        Await.until(() -> heardByCarol.size() == 12 || !malformed.isEmpty(), Duration.ofSeconds(10), "Carol heard all twelve");
        assertThat(malformed).as("no room's batch is read with the other's stream").isEmpty();
        assertThat(heardByCarol.stream().filter(h -> h.startsWith(lobby.getLocalpart() + ": ")).map(h -> h.substring(h.indexOf(": ") + 2)))
                .containsExactly("lobby 1a", "lobby 1b", "lobby 2a", "lobby 2b", "lobby 3a", "lobby 3b");
        assertThat(heardByCarol.stream().filter(h -> h.startsWith(garden.getLocalpart() + ": ")).map(h -> h.substring(h.indexOf(": ") + 2)))
                .containsExactly("garden 1a", "garden 1b", "garden 2a", "garden 2b", "garden 3a", "garden 3b");
    }

    @Test
    void batchesPlainAndDeflateAreDecodedByTheClient() throws Exception {
        EntityBareJid room = newRoom("relaxed");
        XMPPTCPConnection aliceC = server.newClient("alice");
        MultiUserChat alice = enter(aliceC, room, "Alice");
        XMPPTCPConnection carolC = server.newClient("carol");
        MultiUserChat carol = enter(carolC, room, "Carol");
        MultiUserChat bob = enter(server.newClient("bob"), room, "Bob");
        require(aliceC, room, requirements().setTimeSeconds(600).setVolume(3));
        require(carolC, room, requirements().setTimeSeconds(600).setVolume(3).setAggregation(Aggregation.DEFLATE));
        List<Message> heardByCarol = new java.util.concurrent.CopyOnWriteArrayList<>();
        ReconMucManager.forConnection(carolC).addRetainedMessageListener((r, m) -> heardByCarol.add(m));

        for (String body : List.of("one", "two \u00e9\u00e8 \u2603", "three")) {
            say(bob, body);
        }
        Message plain = next(alice, WAIT_MS);
        Message deflated = next(carol, WAIT_MS);
        assertThat(batchBodies(plain)).containsExactly("one", "two \u00e9\u00e8 \u2603", "three");
        assertThat(batchBodies(deflated)).containsExactly("one", "two \u00e9\u00e8 \u2603", "three");
        assertThat(BatchElement.from(deflated).decode(new BatchDecoder(), room.toString()).encoding())
                .isEqualTo(BatchEncoding.DEFLATE);
        // The manager's listener runs on Smack's listener thread: wait for it.
        Await.until(() -> heardByCarol.size() >= 3, Duration.ofSeconds(5), "the listener heard all three");
        assertThat(heardByCarol).as("the manager's listener got each message with its delay").hasSize(3)
                .allSatisfy(m -> assertThat(DelayInformation.from(m)).isNotNull())
                .extracting(Message::getBody).containsExactly("one", "two \u00e9\u00e8 \u2603", "three");
        assertThat(next(alice, 500)).as("nothing else").isNull();
    }

    @Test
    void aTopicSwitchReleasesThatTopicsBacklog() throws Exception {
        EntityBareJid room = newRoom("relaxed");
        XMPPTCPConnection aliceC = server.newClient("alice");
        MultiUserChat alice = enter(aliceC, room, "Alice");
        MultiUserChat bob = enter(server.newClient("bob"), room, "Bob");
        require(aliceC, room, requirements().addFilterEntry(FilterEntry.topic("gossip", true)).setTimeSeconds(600));
        say(bob, "first #movie");
        say(bob, "a #sports result");
        say(bob, "second #movie");
        assertThat(next(alice, 1000)).as("all retained").isNull();

        ReconMucManager.forConnection(aliceC).switchTopic(room, "gossip", "movie");
        assertThat(batchBodies(next(alice, WAIT_MS))).as("released as one batch")
                .containsExactly("first #movie", "second #movie");
        assertThat(next(alice, 500)).as("sports stays retained").isNull();
    }
}
