package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.StanzaError;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.muc.packet.MUCUser;
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
 * A rolling restart under load: three instances behind ejabberd (six buckets, two connections
 * each) on a shared PostgreSQL, two users chatting steadily in rooms spread over all three; each
 * instance in turn is stopped cleanly (SIGTERM) and started again. Every message a user sent is
 * answered — echoed, or refused with an error where the room had just moved and told him to join
 * again — but for the one or two that ejabberd may drop while a bucket is empty for a few
 * milliseconds (twelve moves); every echoed one reaches the other user (live, or in the history when he joins
 * again) and, once, Carol, relaxed in every room, whose retained messages move with the rooms; and each
 * restarted instance gets its two buckets back from those that took them over.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EjabberdRollingRestartIT {
    private static final int ROOMS = 18;
    private static final int CONNECTIONS = 2;
    private static final Map<String, Integer> EVEN = Map.of("a", CONNECTIONS, "b", CONNECTIONS, "c", CONNECTIONS);
    /** One message every this many ms, the rooms and the two users in turn: ~2.5 a second per bucket. */
    private static final long SEND_EVERY_MILLIS = 70;
    private InstancesBehindEjabberd<ComponentJvm> cluster;
    private XmppServer server;
    private SharedStore store;

    @BeforeAll
    void start() throws Exception {
        cluster = ComponentJvm.behindEjabberd("it-ejabberd-rolling", List.of("a", "b", "c"), "--lease-seconds", "2",
                "--room-default-persistent", "true", "--lock-new-rooms", "false",
                "--rate-messages-per-second", "1000", "--rate-burst", "1000");
        server = cluster.server();
        store = cluster.store();
    }

    @AfterAll
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** What one user sent and saw: echoes and others' messages (by body), errors, and rooms that told it to rejoin. */
    private static final class User {
        final String nick;
        final XMPPTCPConnection connection;
        final Map<EntityBareJid, MultiUserChat> rooms = new HashMap<>();
        /** "room body" of every groupchat message seen, live or from the history. */
        final Set<String> seen = ConcurrentHashMap.newKeySet();
        /** Bodies of the messages of this user's that came back as errors (their ids: the body, '-' for ' '), with the condition. */
        final Map<String, String> refused = new ConcurrentHashMap<>();
        final Set<String> toldToRejoin = ConcurrentHashMap.newKeySet();
        /** Rooms being joined again: nothing is sent there meanwhile. */
        final Set<EntityBareJid> rejoining = ConcurrentHashMap.newKeySet();
        final Map<String, EntityBareJid> sent = new ConcurrentHashMap<>();

        User(XmppServer server, String nick) throws Exception {
            this.nick = nick;
            this.connection = server.newClient(nick.toLowerCase());
            connection.addAsyncStanzaListener(s -> {
                Message m = (Message) s;
                if (m.getType() == Message.Type.error && m.getStanzaId() != null) {
                    StanzaError e = m.getError();
                    refused.put(m.getStanzaId().replace('-', ' '), e == null ? "?" : e.getCondition().toString());
                } else if (m.getBody() != null) {
                    seen.add(m.getFrom().asBareJid() + " " + m.getBody());
                }
            }, s -> s instanceof Message);
            connection.addSyncStanzaListener(s -> {
                Presence p = (Presence) s;
                MUCUser user = MUCUser.from(p);
                if (p.getType() == Presence.Type.unavailable && user != null
                        && user.getStatus().contains(MUCUser.Status.create(333))
                        && user.getStatus().contains(MUCUser.Status.create(110))) {
                    EntityBareJid room = p.getFrom().asEntityBareJidIfPossible();
                    toldToRejoin.add(room.toString());
                    if (rejoining.add(room)) {
                        Thread t = new Thread(() -> rejoin(room), "rejoin-" + nick);
                        t.setDaemon(true);
                        t.start();
                    }
                }
            }, s -> s instanceof Presence);
        }

        void join(EntityBareJid room) throws Exception {
            MultiUserChat muc = MultiUserChatManager.getInstanceFor(connection).getMultiUserChat(room);
            muc.join(muc.getEnterConfigurationBuilder(Resourcepart.from(nick)).requestNoHistory().build());
            rooms.put(room, muc);
        }

        /** As a XEP-0410 client: joins again, with the history of the last minute. */
        private void rejoin(EntityBareJid room) {
            MultiUserChat muc = rooms.get(room);
            try {
                for (int i = 0; i < 20 && muc.isJoined(); i++) {   // Smack takes the 110 presence as having left
                    Thread.sleep(50);
                }
                for (int attempt = 0; attempt < 10; attempt++) {
                    try {
                        muc.join(muc.getEnterConfigurationBuilder(Resourcepart.from(nick))
                                .requestHistorySince(new Date(System.currentTimeMillis() - 60_000)).build());
                        return;
                    } catch (Exception e) {
                        Thread.sleep(500);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                rejoining.remove(room);
            }
        }

        void say(EntityBareJid room, String body) throws Exception {
            sent.put(body, room);
            connection.sendStanza(org.jivesoftware.smack.packet.StanzaBuilder.buildMessage(body.replace(' ', '-'))
                    .to(room).ofType(Message.Type.groupchat).setBody(body).build());
        }

        /** The rooms where a message this user sent as the chat's message {@code first} or later came back to it. */
        Set<EntityBareJid> echoedSince(int first) {
            Set<EntityBareJid> echoed = new HashSet<>();
            sent.forEach((body, room) -> {
                if (number(body) >= first && seen.contains(room + " " + body)) {
                    echoed.add(room);
                }
            });
            return echoed;
        }

        /** The chat's number of a message this user sent: "Romeo 12" is 12. */
        static int number(String body) {
            return Integer.parseInt(body.substring(body.indexOf(' ') + 1));
        }
    }

    /** Polls {@code done} until it holds, for at most {@code seconds}; fails naming {@code what} past that. */
    private static void await(String what, int seconds, Callable<Boolean> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!done.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + seconds + " s: " + what);
            }
            Thread.sleep(50);
        }
    }

    /**
     * Waits until every room has served both users since the chat's message {@code first}: each
     * got an echo there of a message it sent since (a round of the chat, ~2.5 s, once the rooms serve).
     */
    private static void awaitEveryRoomServes(String when, List<EntityBareJid> rooms, int first, User... users) throws Exception {
        await("every room echoes both users' messages " + when, 30, () -> {
            for (User u : users) {
                if (!u.echoedSince(first).containsAll(rooms)) {
                    return false;
                }
            }
            return true;
        });
    }

    /** Waits until every instance holds its share of the buckets again; returns who held how many then. */
    private Map<String, Integer> awaitShares() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!store.runningInstances().equals(EVEN) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        return store.runningInstances();
    }

    @Test
    void aRollingRestartOfAllThreeInstancesUnderLoadLosesNothingAndGivesEachItsBucketsBack() throws Exception {
        User romeo = new User(server, "Romeo");
        User juliet = new User(server, "Juliet");
        // Carol is relaxed in every room: her messages come two at a time, or after 3 s, so some are
        // always retained for her when a room moves.
        User carolUser = new User(server, "Carol");
        org.reconmuc.smack.ReconMucManager carol = org.reconmuc.smack.ReconMucManager.forConnection(carolUser.connection);
        List<String> toCarol = java.util.Collections.synchronizedList(new ArrayList<>());
        carol.addRetainedMessageListener((room, m) -> toCarol.add(room + " " + m.getBody()));
        List<EntityBareJid> rooms = new ArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            EntityBareJid room = JidCreate.entityBareFrom("verona" + i + "@" + server.componentDomain());
            rooms.add(room);
            romeo.join(room);
            juliet.join(room);
            carolUser.join(room);
            carol.setRequirements(room, org.reconmuc.smack.element.ConsistencyRequirements.builder()
                    .setTimeSeconds(3).setVolume(2).build());
        }
        assertThat(Set.copyOf(store.roomOwners().values())).containsExactlyInAnyOrder("a", "b", "c");

        // The chat: message n from Romeo (n even) or Juliet, in the rooms in turn.
        AtomicInteger said = new AtomicInteger();
        Runnable sayNext = () -> {
            int n = said.getAndIncrement();
            User from = n % 2 == 0 ? romeo : juliet;
            EntityBareJid room = rooms.get(n / 2 % ROOMS);
            if (!from.rejoining.contains(room)) {
                try {
                    from.say(room, from.nick + " " + n);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        AtomicBoolean chatting = new AtomicBoolean(true);
        Thread chat = new Thread(() -> {
            while (chatting.get()) {
                sayNext.run();
                try {
                    Thread.sleep(SEND_EVERY_MILLIS);   // the pace of the load, not a wait for anything
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "chat");
        chat.start();
        awaitEveryRoomServes("before the first restart", rooms, 0, romeo, juliet);

        Map<String, Map<String, Integer>> sharesAfterRestart = new HashMap<>();
        Map<String, Boolean> servingAfterRestart = new HashMap<>();
        for (String name : List.of("a", "b", "c")) {
            long stopping = System.nanoTime();
            cluster.stop(name);
            System.out.printf("EjabberdRollingRestartIT: %s stopped cleanly in %.1f s%n", name,
                    (System.nanoTime() - stopping) / 1e9);
            // The others took over its buckets and its rooms, and serve them under the load.
            await("the two others hold all buckets once " + name + " stopped", 30, () -> {
                Map<String, Integer> running = store.runningInstances();
                return !running.containsKey(name) && running.values().stream().mapToInt(Integer::intValue).sum()
                        == EVEN.values().stream().mapToInt(Integer::intValue).sum();
            });
            await("no room leased by the stopped " + name, 30, () -> !store.roomOwners().containsValue(name));
            awaitEveryRoomServes("while " + name + " is down", rooms, said.get(), romeo, juliet);
            cluster.start(name);
            sharesAfterRestart.put(name, awaitShares());
            // the restarted instance serves the rooms of the buckets it took back
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!store.roomOwners().containsValue(name) && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            servingAfterRestart.put(name, store.roomOwners().containsValue(name));
            awaitEveryRoomServes("once " + name + " is back", rooms, said.get(), romeo, juliet);
        }
        chatting.set(false);
        chat.join();
        // A last round, each message to every room it goes to: once both users and Carol have all of
        // it, every earlier message in each room has reached whoever it was going to (a room sends
        // in order); one dropped by ejabberd would keep this from ever holding, so past the bound
        // the checks below say what is missing.
        int lastRound = said.get();
        for (int i = 0; i < 2 * ROOMS; i++) {
            sayNext.run();
        }
        try {
            await("the last round everywhere", 30, () -> {
                synchronized (toCarol) {
                    for (User from : List.of(romeo, juliet)) {
                        User to = from == romeo ? juliet : romeo;
                        for (Map.Entry<String, EntityBareJid> m : from.sent.entrySet()) {
                            String seen = m.getValue() + " " + m.getKey();
                            if (User.number(m.getKey()) >= lastRound
                                    && !(from.seen.contains(seen) && to.seen.contains(seen) && toCarol.contains(seen))) {
                                return false;
                            }
                        }
                    }
                }
                return true;
            });
        } catch (AssertionError e) {
            System.out.println("EjabberdRollingRestartIT: " + e.getMessage());
        }

        int sent = 0;
        List<String> dropped = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        List<String> notOnceToCarol = new ArrayList<>();
        Map<String, Long> carolGot;
        synchronized (toCarol) {
            carolGot = toCarol.stream().collect(java.util.stream.Collectors.groupingBy(x -> x,
                    java.util.stream.Collectors.counting()));
        }
        Map<String, String> refused = new HashMap<>();
        for (User from : List.of(romeo, juliet)) {
            User to = from == romeo ? juliet : romeo;
            for (Map.Entry<String, EntityBareJid> m : from.sent.entrySet()) {
                sent++;
                String seen = m.getValue() + " " + m.getKey();
                if (from.refused.containsKey(m.getKey())) {
                    refused.put(seen, from.refused.get(m.getKey()));
                    // refused only where the room moved and told the sender to join again
                    assertThat(from.toldToRejoin).as("refused: " + seen).contains(m.getValue().toString());
                } else if (!from.seen.contains(seen)) {
                    dropped.add(seen);
                } else if (!to.seen.contains(seen)) {
                    lost.add(seen);
                }
                if (from.seen.contains(seen) && carolGot.getOrDefault(seen, 0L) != 1) {
                    notOnceToCarol.add(seen + " x" + carolGot.getOrDefault(seen, 0L));
                }
            }
        }
        System.out.printf("EjabberdRollingRestartIT: %d messages sent, %d dropped (neither echoed nor refused) %s,"
                        + " %d echoed but not delivered, %d refused %s; told to rejoin: %d rooms (Romeo), %d (Juliet)%n",
                sent, dropped.size(), dropped, lost.size(), refused.size(), Set.copyOf(refused.values()),
                romeo.toldToRejoin.size(), juliet.toldToRejoin.size());
        // ejabberd drops what it routes to a bucket between the giver's unregistering and the
        // taker's registering: a few ms per bucket moved, twelve moves here (DESIGN.md, "Several
        // instances"), 0 or 1 message of ~400 in the runs so far. Before the hand-over a bucket
        // stayed empty until a survivor's next look (up to 200 ms, and a connection), and a
        // restarted instance never got one back.
        assertThat(dropped).as("dropped").hasSizeLessThanOrEqualTo(2);
        assertThat(lost).as("acknowledged but lost").isEmpty();
        // Carol's retained messages moved with their rooms: each acknowledged one reached her once.
        for (String m : notOnceToCarol) {
            // What Carol got of that room, in order: a gap, a tail cut off, or a copy too many.
            String room = m.substring(0, m.indexOf(' '));
            synchronized (toCarol) {
                System.out.println("EjabberdRollingRestartIT: Carol got of " + room + ": "
                        + toCarol.stream().filter(x -> x.startsWith(room + " ")).map(x -> x.substring(room.length() + 1)).toList());
            }
        }
        assertThat(notOnceToCarol).as("acknowledged, not delivered to relaxed Carol exactly once").isEmpty();
        assertThat(carolUser.toldToRejoin).as("rooms that told Carol to rejoin").isEmpty();
        // A room that moves with its bucket keeps its occupants: nobody is told to rejoin, nothing is refused.
        assertThat(romeo.toldToRejoin).as("rooms that told Romeo to rejoin").isEmpty();
        assertThat(juliet.toldToRejoin).as("rooms that told Juliet to rejoin").isEmpty();
        assertThat(refused).as("refused").isEmpty();
        for (String name : List.of("a", "b", "c")) {
            assertThat(sharesAfterRestart.get(name)).as("buckets held once " + name + " was restarted").isEqualTo(EVEN);
            assertThat(servingAfterRestart.get(name)).as(name + " serving rooms again after its restart").isTrue();
        }
        romeo.connection.disconnect();
        juliet.connection.disconnect();
        carolUser.connection.disconnect();
    }
}
