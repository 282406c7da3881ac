package org.reconmuc.joom.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.joom.model.Arrival;
import org.reconmuc.joom.model.ChatMessage;
import org.reconmuc.joom.model.ConnectionState;
import org.reconmuc.joom.model.JoomRequirements;
import org.reconmuc.joom.model.Mode;
import org.reconmuc.joom.testing.LiveRooms;
import org.reconmuc.smack.reply.element.ReplyElement;

/**
 * Joom's session against a real Prosody with ReConMUC attached, with a plain Smack client (Carol)
 * in the same rooms: the active topic arrives at once, the rest in batches with their delay,
 * switching topic releases the backlog, replies reach their author, plain MUC rooms work in
 * standard mode, failures come in plain words, and a lost connection is re-established.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JoomSessionIT {
    private static final Duration AT_ONCE = Duration.ofSeconds(2);
    private static final Duration LONG = Duration.ofSeconds(15);

    private LiveRooms live;

    @BeforeAll
    void start() throws Exception {
        live = LiveRooms.start("it-joom-session");
    }

    @AfterAll
    void stop() {
        if (live != null) {
            live.close();
        }
    }

    private TestJoom joom(String nick, String room, String activeTopic, int timeSeconds) throws Exception {
        TestJoom j = new TestJoom(nick);
        j.session.connect(ConnectOptions.of(live.server.host(), live.server.c2sPort(), nick.toLowerCase() + "@"
                + live.server.loginDomain(), "any", false));
        j.session.join(room, nick, new JoomRequirements(activeTopic, timeSeconds, 50));
        j.room.activate(activeTopic);
        return j;
    }

    /** A plain Smack client in the room, as any XMPP client joins. */
    private MultiUserChat carol(String room) throws Exception {
        XMPPTCPConnection c = live.server.newClient("carol");
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(JidCreate.entityBareFrom(room));
        MultiUserChat.MucCreateConfigFormHandle handle = m.createOrJoin(Resourcepart.from("Carol"));
        if (handle != null) {
            handle.makeInstant();
        }
        return m;
    }

    @Test
    void theActiveTopicComesAtOnceAndTheOthersInABatchWithTheirDelay() throws Exception {
        String room = live.newRoom("joom");
        MultiUserChat carol = carol(room);
        try (TestJoom alice = joom("Alice", room, "movies", 3); TestJoom bob = joom("Bob", room, "gossip", 3)) {
            assertThat(alice.session.mode()).isEqualTo(Mode.RELAXED);

            // Carol, a plain client, tags by hashtag only.
            carol.sendMessage("The new Almodóvar is out #movies");
            ChatMessage atAlice = alice.await("The new Almodóvar", AT_ONCE);
            assertThat(atAlice.arrival()).as("Alice's active topic: at once").isEqualTo(Arrival.LIVE);
            assertThat(atAlice.topics()).containsExactly("movies");

            Instant sent = Instant.now();
            bob.session.send("Did you hear about Dave?", "gossip", null);
            assertThat(bob.await("Did you hear", AT_ONCE).arrival()).as("his own echo").isEqualTo(Arrival.LIVE);
            assertThat(alice.await("Did you hear", Duration.ofMillis(2_000))).as("retained for Alice").isNull();
            ChatMessage later = alice.await("Did you hear", LONG);
            assertThat(later.arrival()).isEqualTo(Arrival.BATCHED);
            assertThat(later.delayed()).isTrue();
            assertThat(later.body()).as("tagged in the body too, for standard clients").endsWith("#gossip");
            assertThat(later.sentAt()).as("placed at the time the room received it").isBefore(sent.plusSeconds(2));
            assertThat(alice.<Integer>model(r -> r.topics().stream().filter(t -> t.name().equals("gossip")).findFirst().orElseThrow().unread()))
                    .as("gossip counts as unread for Alice").isEqualTo(1);

            ChatMessage atBob = bob.await("The new Almodóvar", LONG);
            assertThat(atBob.arrival()).as("not Bob's topic").isEqualTo(Arrival.BATCHED);
            assertThat(alice.session.bytesReceived()).isPositive();
            assertThat(alice.session.messagesReceived()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void switchingTopicReleasesThatTopicsBacklogAtOnce() throws Exception {
        String room = live.newRoom("switch");
        MultiUserChat carol = carol(room);
        try (TestJoom alice = joom("Alice", room, "movies", 600)) {
            carol.sendMessage("first #gossip");
            carol.sendMessage("a #sports result");
            carol.sendMessage("second #gossip");
            assertThat(alice.await(m -> true, Duration.ofSeconds(1))).as("all retained (time bound 600 s)").isNull();

            alice.room.activate("gossip");
            alice.session.updateRequirements(new JoomRequirements("gossip", 600, 50));
            assertThat(alice.await("second", AT_ONCE)).as("the backlog, at once").isNotNull();
            assertThat(alice.received()).extracting(ChatMessage::body).containsExactly("first #gossip", "second #gossip");
            assertThat(alice.received()).allSatisfy(m -> assertThat(m.arrival()).isEqualTo(Arrival.BATCHED));
            assertThat(alice.<Integer>model(r -> r.conversation().size())).isEqualTo(2);
            assertThat(alice.await("a #sports", Duration.ofMillis(500))).as("sports stays retained").isNull();
        }
    }

    @Test
    void aReplyReachesItsAuthorAtOnceWhateverItsTopic() throws Exception {
        String room = live.newRoom("reply");
        MultiUserChat carol = carol(room);
        try (TestJoom alice = joom("Alice", room, "movies", 600); TestJoom bob = joom("Bob", room, "gossip", 600)) {
            bob.session.send("Anyone for tea?", "gossip", null);
            ChatMessage bobs = bob.await("Anyone for tea", AT_ONCE);
            assertThat(bobs.stanzaId()).isNotNull();

            // Alice replies from her own topic; Bob gets it at once, as a reply to him.
            alice.session.send("Yes please", "movies", bobs);
            ChatMessage reply = bob.await("Yes please", AT_ONCE);
            assertThat(reply.arrival()).isEqualTo(Arrival.LIVE);
            assertThat(reply.replyToId()).isEqualTo(bobs.stanzaId());
            assertThat(bob.<Boolean>model(r -> r.isReplyToMe(reply))).isTrue();
            assertThat(bob.<Integer>model(r -> r.unseenReplies())).isEqualTo(1);

            // A plain client's XEP-0461 reply reaches Alice the same way.
            ChatMessage alices = alice.await("Yes please", AT_ONCE);
            carol.sendMessage(carol.buildMessage().setBody("Me too").addExtension(new ReplyElement(room + "/Alice", alices.stanzaId())));
            assertThat(alice.await("Me too", AT_ONCE).arrival()).isEqualTo(Arrival.LIVE);
            assertThat(alice.<Integer>model(r -> r.unseenReplies())).isEqualTo(1);
        }
    }

    @Test
    void aPlainMucRoomIsStandardModeWithEveryMessageAtOnce() throws Exception {
        String room = "plain" + System.nanoTime() % 100_000 + "@" + live.server.nativeMucDomain();
        MultiUserChat carol = carol(room);
        try (TestJoom alice = joom("Alice", room, "movies", 60)) {
            assertThat(alice.session.mode()).isEqualTo(Mode.STANDARD);
            carol.sendMessage("off topic #gossip");
            assertThat(alice.await("off topic", AT_ONCE).arrival()).isEqualTo(Arrival.LIVE);
            assertThat(alice.<java.util.List<ChatMessage>>model(r -> r.conversation())).as("filtered locally").isEmpty();
            assertThat(alice.<java.util.List<ChatMessage>>model(r -> r.timeline())).hasSize(1);
        }
    }

    @Test
    void failuresAreSaidInPlainWords() throws Exception {
        TestJoom nobody = new TestJoom("Nobody");
        assertThatThrownBy(() -> nobody.session.connect(ConnectOptions.of(live.server.host(), live.server.c2sPort(),
                "nobody@localhost", "wrong", false))).hasMessage("Wrong user name or password.");
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        assertThatThrownBy(() -> nobody.session.connect(ConnectOptions.of("127.0.0.1", closedPort, "a@insecure.localhost", "x", false)))
                .hasMessageContaining("is unreachable");
        assertThat(nobody.states).endsWith(ConnectionState.DISCONNECTED);

        // A members-only room refuses a non-member.
        String room = live.newRoom("members");
        MultiUserChat carol = carol(room);
        carol.getConfigFormManager().makeMembersOnly().submitConfigurationForm();
        TestJoom alice = new TestJoom("Alice");
        alice.session.connect(ConnectOptions.of(live.server.host(), live.server.c2sPort(), "alice@" + live.server.loginDomain(),
                "any", false));
        assertThatThrownBy(() -> alice.session.join(room, "Alice", new JoomRequirements("movies", 60, 20)))
                .hasMessage("The room " + room + " is members-only, and you are not a member.");
        alice.close();

        // Anonymous login works where the server allows it.
        try (TestJoom anon = new TestJoom("Anon")) {
            anon.session.connect(ConnectOptions.of(live.server.host(), live.server.c2sPort(), "anon.localhost", "", true));
            assertThat(anon.session.join(live.newRoom("anon"), "Anon", new JoomRequirements("movies", 60, 20))).isEqualTo(Mode.RELAXED);
        }
    }

    @Test
    void aLostConnectionIsReestablishedWithTheRequirementsStatedAgain() throws Exception {
        String room = live.newRoom("restart");
        carol(room);
        try (TestJoom alice = joom("Alice", room, "movies", 3)) {
            live.server.restart(); // every client connection drops; the component reconnects too
            assertThat(live.awaitComponent(Duration.ofSeconds(30))).isTrue();
            long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
            while (alice.states.lastIndexOf(ConnectionState.CONNECTED) < alice.states.lastIndexOf(ConnectionState.RECONNECTING)
                    || !alice.states.contains(ConnectionState.RECONNECTING)) {
                assertThat(System.nanoTime()).as("reconnected within 40 s; states " + alice.states + ", problems "
                        + alice.problems).isLessThan(deadline);
                Thread.sleep(200);
            }
            MultiUserChat carol = carol(room);
            carol.sendMessage("after the restart #movies");
            assertThat(alice.await("after the restart", Duration.ofSeconds(5)).arrival()).isEqualTo(Arrival.LIVE);
            carol.sendMessage("still retained #gossip");
            assertThat(alice.await("still retained", Duration.ofMillis(1_500))).as("requirements stated again").isNull();
            assertThat(alice.await("still retained", LONG).arrival()).isEqualTo(Arrival.BATCHED);
        }
    }
}
