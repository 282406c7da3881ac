package org.reconmuc.replay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import org.jivesoftware.smack.ConnectionListener;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.OrFilter;
import org.jivesoftware.smack.filter.PresenceTypeFilter;
import org.jivesoftware.smack.filter.StanzaFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.mam.MamManager;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.muc.filter.MUCUserStatusCodeFilter;
import org.jivesoftware.smackx.muc.packet.MUCInitialPresence;
import org.jivesoftware.smackx.muc.packet.MUCUser;
import org.jivesoftware.smackx.sid.element.StanzaIdElement;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.EntityFullJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.jxmpp.stringprep.XmppStringprepException;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.smack.ReconMucManager;
import org.reconmuc.smack.element.ConsistencyRequirements;

/**
 * One occupant of {@code irc-replay soak}: a client that stays (its user and resource fixed for the
 * run) while its connection, its nick, its status and its requirements change. Whenever it comes
 * back — its connection lost (the server restarted, or it dropped it), told that its room moved
 * (110 + 333), or after leaving on purpose — it joins without history and catches up from the room's
 * archive (XEP-0313) from a little before the last message it saw, as a real client does. What it
 * got live (or retained, when relaxed) is counted apart from what it caught up; every operation on
 * it holds its lock, so the churn, the faults and the catch-up never interleave.
 */
final class SoakBot {
    static final long CATCH_UP_OVERLAP_MILLIS = 20_000;
    final int room;
    final boolean speaker;
    private final XMPPTCPConnectionConfiguration config;
    private final EntityBareJid roomJid;
    private final SoakLedger ledger;
    private final String baseNick;
    volatile String nick;
    /** What it asks of the room when relaxed; null for a standard occupant. */
    private volatile ConsistencyRequirements requirements;
    private volatile XMPPTCPConnection connection;
    /** The room for MAM queries only (see {@link #askRoom}). */
    private volatile MultiUserChat muc;
    /** In the room, or on its way back; false only between a leave and its rejoin, or after {@link #close}. */
    private volatile boolean wanted = true;
    private volatile boolean joined;
    /**
     * In the room as the room told this connection, in the order it told it (its reader thread: a 110
     * available, then a 110 unavailable); {@link #joined} is set by the thread that asked, after the answer.
     */
    private volatile boolean toldIn;
    /** From a leave's unavailable to the next join: the room's 110 unavailable is expected. */
    private volatile boolean leaving;
    private final ReentrantLock lock = new ReentrantLock();
    /** seq to deliveries, live or retained (not caught up). */
    final Map<Integer, Integer> got = new ConcurrentHashMap<>();
    /** seqs caught up from the archive (they overlap what came live). */
    final Set<Integer> caughtUp = ConcurrentHashMap.newKeySet();
    /** What came live or retained, in the order it came. */
    final List<Integer> liveOrder = Collections.synchronizedList(new ArrayList<>());
    /** The room's stanza-id of each message got (see {@link #delivered}). */
    private final Map<Integer, String> stanzaIds = new ConcurrentHashMap<>();
    /** Messages got again with the same stanza-id, dropped. */
    final AtomicLong resent = new AtomicLong();
    final AtomicLong rejoins = new AtomicLong();
    final AtomicLong reconnects = new AtomicLong();
    final AtomicLong catchUpFailures = new AtomicLong();
    private volatile long lastSeenMillis;
    private final long bornMillis = System.currentTimeMillis();
    /**
     * What happened to this bot, when (wall-clock ms): joins, leaves, drops, reconnects, being told it
     * is out, catch-ups, and a relaxed bot's deliveries — told beside a message it never got.
     */
    private final java.util.concurrent.ConcurrentLinkedQueue<TrailEvent> trail = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicInteger trailSize = new java.util.concurrent.atomic.AtomicInteger();
    private static final int TRAIL_MAX = 20_000;

    private SoakBot(int room, boolean speaker, String nick, ConsistencyRequirements requirements,
                    XMPPTCPConnectionConfiguration config, EntityBareJid roomJid, SoakLedger ledger) {
        this.room = room;
        this.speaker = speaker;
        this.baseNick = nick;
        this.nick = nick;
        this.requirements = requirements;
        this.config = config;
        this.roomJid = roomJid;
        this.ledger = ledger;
    }

    /** Logs in and joins room {@code soak<room>} as {@code nick}; relaxed when {@code requirements} is not null. */
    static SoakBot join(XmppServer server, int room, boolean speaker, String nick, ConsistencyRequirements requirements,
                        SoakLedger ledger) throws Exception {
        EntityBareJid jid = JidCreate.entityBareFrom(SoakLedger.roomName(room) + "@" + server.componentDomain());
        SoakBot bot = new SoakBot(room, speaker, nick, requirements, server.clientConfig("s" + room + nick).build(), jid,
                ledger);
        bot.lock.lock();
        try {
            bot.connectAndJoin(false);
        } finally {
            bot.lock.unlock();
        }
        return bot;
    }

    boolean relaxed() {
        return requirements != null;
    }

    boolean joined() {
        return joined && connection != null && connection.isAuthenticated();
    }

    /** A new connection (same user, same resource), the room joined without history, the archive read since the last message seen. */
    private void connectAndJoin(boolean catchUp) throws Exception {
        XMPPTCPConnection c = new XMPPTCPConnection(config);
        c.setReplyTimeout(10_000);
        c.addSyncStanzaListener(s -> onMessage((Message) s), s -> s instanceof Message);
        c.addSyncStanzaListener(s -> onPresence((Presence) s),
                s -> s instanceof Presence && s.getFrom() != null && s.getFrom().asBareJid().equals(roomJid));
        c.addConnectionListener(new ConnectionListener() {
            @Override
            public void connectionClosedOnError(Exception e) {
                if (connection == c) {
                    joined = false;
                    background("reconnect", SoakBot.this::comeBack);
                }
            }
        });
        ReconMucManager.forConnection(c).addRetainedMessageListener((from, m) -> onRetained(m));
        toldIn = false;
        connection = c;
        c.connect().login();
        muc = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(roomJid);
        enter();
        if (catchUp) {
            catchUp();
        }
    }

    /** Joins the room (nick taken by its own stale session: tries again while the room learns it is gone). */
    private void enter() throws Exception {
        Exception last = null;
        for (int attempt = 0; attempt < 60 && wanted; attempt++) {
            try {
                leaving = false;
                Presence join = connection.getStanzaFactory().buildPresenceStanza().to(occupant(nick))
                        .addExtension(new MUCInitialPresence(null, -1, 0, -1, null)).build();
                askRoom(join);
                joined = true;
                trail("in the room");
                if (requirements != null) {
                    ReconMucManager.forConnection(connection).setRequirements(roomJid, requirements);
                }
                return;
            } catch (Exception e) {
                last = e;
                Thread.sleep(1_000);
            }
        }
        if (last != null) {
            throw last;
        }
    }

    /**
     * Sends {@code presence} to an occupant JID and waits for the room's answer about this client
     * from it: a presence of the same type with status 110, or an error (thrown). Smack 4.4.8's own
     * {@code MultiUserChat} is not used for presence: its {@code changeNickname} holds the
     * room object's lock while its listener needs it for the 303, so it times out against every
     * MUC, and then takes the 303 as having left the room.
     */
    private void askRoom(Presence presence) throws Exception {
        StanzaFilter filter = new AndFilter(StanzaTypeFilter.PRESENCE, FromMatchesFilter.createFull(presence.getTo()),
                new OrFilter(PresenceTypeFilter.ERROR, new AndFilter(presence.getType() == Presence.Type.available
                        ? PresenceTypeFilter.AVAILABLE : PresenceTypeFilter.UNAVAILABLE,
                        MUCUserStatusCodeFilter.STATUS_110_PRESENCE_TO_SELF)));
        StanzaCollector collector = connection.createStanzaCollectorAndSend(filter, presence);
        try {
            collector.nextResultOrThrow();
        } finally {
            collector.cancel();
        }
    }

    private EntityFullJid occupant(String nick) throws XmppStringprepException {
        return JidCreate.entityFullFrom(roomJid, Resourcepart.from(nick));
    }

    /**
     * The room's archive from before the last message seen (or since it was born): a client's
     * catch-up. {@value #CATCH_UP_OVERLAP_MILLIS} ms before: a relaxed occupant's last release may
     * have left older messages still retained.
     */
    private void catchUp() {
        long since = (lastSeenMillis == 0 ? bornMillis : lastSeenMillis) - CATCH_UP_OVERLAP_MILLIS;
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                MamManager mam = MamManager.getInstanceFor(muc);
                MamManager.MamQuery q = mam.queryArchive(MamManager.MamQueryArgs.builder()
                        .limitResultsSince(new Date(since)).setResultPageSizeTo(100).build());
                int before = caughtUp.size();
                q.getMessages().forEach(this::caughtUp);
                for (int page = 0; !q.isComplete() && page < 1_000; page++) {
                    q.pageNext(100).forEach(this::caughtUp);
                }
                trail("caught up from the archive since " + since + ": " + (caughtUp.size() - before) + " new");
                return;
            } catch (Exception e) {
                pause(1_000);
            }
        }
        catchUpFailures.incrementAndGet();
    }

    private void caughtUp(Message m) {
        Matcher id = m.getBody() == null ? null : RoomBot.BODY_ID.matcher(m.getBody());
        if (id != null && id.find() && Integer.parseInt(id.group(1)) == room) {
            caughtUp.add(Integer.parseInt(id.group(2)));
        }
    }

    private void onMessage(Message m) {
        ledger.acks.answer(m, nick);
        if (m.getType() != Message.Type.groupchat || m.getBody() == null || m.getFrom() == null
                || !m.getFrom().asBareJid().equals(roomJid)) {
            return;
        }
        Matcher id = RoomBot.BODY_ID.matcher(m.getBody());
        if (id.find() && !m.hasExtension("delay", "urn:xmpp:delay")) {
            delivered(Integer.parseInt(id.group(2)), !relaxed(), m);
        }
    }

    private void onRetained(Message m) {
        Matcher id = m.getBody() == null ? null : RoomBot.BODY_ID.matcher(m.getBody());
        if (id != null && id.find() && Integer.parseInt(id.group(1)) == room) {
            delivered(Integer.parseInt(id.group(2)), false, m);
        }
    }

    /**
     * A message again with the stanza-id it came with before is the at-least-once re-send of a room
     * that moved (DESIGN.md, "Occupants carry on"): dropped, as Dino and Joom do, and counted apart.
     * Again with another stanza-id, or none, it is a duplicate.
     */
    private void delivered(int seq, boolean atOnce, Message m) {
        String sid = roomStanzaId(m);
        if (sid != null && sid.equals(stanzaIds.putIfAbsent(seq, sid))) {
            resent.incrementAndGet();
            return;
        }
        got.merge(seq, 1, Integer::sum);
        if (relaxed()) {
            trail((atOnce ? "got m" : "got (retained or relaxed) m") + seq + " id " + sid);
        }
        liveOrder.add(seq);
        lastSeenMillis = System.currentTimeMillis();
        ledger.delivered(room, seq, atOnce);
    }

    /** The stanza-id the room gave {@code m} (XEP-0359, {@code by} the room), or null. */
    private String roomStanzaId(Message m) {
        for (var e : m.getExtensions(StanzaIdElement.ELEMENT, StanzaIdElement.NAMESPACE)) {
            if (e instanceof StanzaIdElement sid && roomJid.toString().equals(sid.getBy())) {
                return sid.getId();
            }
        }
        return null;
    }

    /**
     * Told it is out of the room (its own unavailable presence, 110, not a nick change's 303) while it
     * was in by the room's last word: the room moved and could not carry it on (333), or its previous
     * connection's goodbye reached the room after this connection's join (same full JID: ejabberd ends
     * the replaced session on its own time). A client rejoins, as Conversations and Dino do. What the
     * room said is taken on this reader thread, in the order it came: a goodbye right behind the
     * answer to a join may arrive before the joining thread has counted itself in.
     */
    private void onPresence(Presence p) {
        MUCUser user = MUCUser.from(p);
        if (user == null || !user.getStatus().contains(MUCUser.Status.PRESENCE_TO_SELF_110)
                || user.getStatus().contains(MUCUser.Status.NEW_NICKNAME_303)) {
            return;
        }
        if (p.getType() == Presence.Type.available) {
            toldIn = true;
            return;
        }
        if (p.getType() != Presence.Type.unavailable) {
            return;
        }
        boolean wasIn = toldIn;
        toldIn = false;
        if (!wasIn || leaving) {
            // its own goodbye (a leave), or one that overtook the answer to its join: in the trail, so that
            // a bot that lost messages after a rejoin shows which it was
            trail("told it is out (110 unavailable) while not in by the room's last word " + user.getStatus());
            return;
        }
        joined = false;
        trail("told it is out (110 unavailable) " + user.getStatus());
        background("rejoin", () -> {
            rejoins.incrementAndGet();
            enter();
            catchUp();
        });
    }

    /** After a lost connection: a new one, until it works or the bot is closed. */
    private void comeBack() throws Exception {
        for (int attempt = 0; wanted && !joined(); attempt++) {
            reconnects.incrementAndGet();
            trail("reconnecting after a lost connection");
            try {
                XMPPTCPConnection old = connection;
                if (old != null) {
                    old.instantShutdown();
                }
                connectAndJoin(true);
                return;
            } catch (Exception e) {
                pause(Math.min(5_000, 500L * (attempt + 1)));
            }
        }
    }

    /** Runs {@code op} on a thread of its own holding the bot's lock (a reconnect or a rejoin). */
    private void background(String what, Op op) {
        Thread t = new Thread(() -> {
            lock.lock();
            try {
                if (wanted) {
                    op.run();
                }
            } catch (Exception e) {
                ledger.botFailed(room + "/" + baseNick + " " + what, e);
            } finally {
                lock.unlock();
            }
        }, what + "-" + room + baseNick);
        t.setDaemon(true);
        t.start();
    }

    @FunctionalInterface
    interface Op {
        void run() throws Exception;
    }

    /** One churn step if the bot is not busy (false if it was): the operation runs under its lock. */
    boolean churn(String what, Op op) {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            if (joined()) {
                op.run();
            }
        } catch (Exception e) {
            ledger.botFailed(room + "/" + baseNick + " " + what, e);
            if (!joined() && wanted) {
                background("come-back", this::comeBack);   // as a client does when its step went wrong
            }
        } finally {
            lock.unlock();
        }
        return true;
    }

    /** Churn: leaves the room, stays away {@code awayMillis}, joins again and catches up. */
    void leaveAndReturn(long awayMillis) throws Exception {
        joined = false;
        trail("leaves for " + awayMillis + " ms");
        leaving = true;   // until the next join: the room's answer may reach the listener after askRoom returns
        askRoom(connection.getStanzaFactory().buildPresenceStanza().ofType(Presence.Type.unavailable).to(occupant(nick)).build());
        pause(awayMillis);
        enter();
        rejoins.incrementAndGet();
        catchUp();
    }

    /** Churn: the connection dropped without a goodbye (a phone going into a tunnel), back after {@code awayMillis}. */
    void dropAndReturn(long awayMillis) throws Exception {
        joined = false;
        trail("drops its connection for " + awayMillis + " ms");
        XMPPTCPConnection c = connection;
        connection = null;   // its listener no longer reconnects it
        c.instantShutdown();
        pause(awayMillis);
        reconnects.incrementAndGet();
        connectAndJoin(true);
    }

    /** Churn: a new nick (the base nick and a counter), so that the room's nick index changes. */
    void changeNick(int n) throws Exception {
        String next = baseNick + "_" + n;
        try {
            askRoom(connection.getStanzaFactory().buildPresenceStanza().to(occupant(next)).build());
        } catch (Exception e) {
            joined = false;   // which nick the room has is unknown: come back as a new session of the same client
            throw e;
        }
        nick = next;
    }

    /** Churn: away or back, with a status text. */
    void changeStatus(boolean away) throws Exception {
        connection.sendStanza(connection.getStanzaFactory().buildPresenceStanza().to(occupant(nick))
                .setStatus(away ? "away for a bit" : "back").setMode(away ? Presence.Mode.away : Presence.Mode.available).build());
    }

    /** Churn: new requirements (relaxed bots only). */
    void changeRequirements(ConsistencyRequirements next) throws Exception {
        ReconMucManager.forConnection(connection).setRequirements(roomJid, next);
        requirements = next;
    }

    /** Sends one of the room's messages; false if it could not be sent. */
    boolean send(int seq, String text) {
        XMPPTCPConnection c = connection;
        if (c == null || !joined) {
            return false;
        }
        try {
            Message msg = c.getStanzaFactory().buildMessageStanza().to(roomJid).ofType(Message.Type.groupchat)
                    .setBody("[r" + room + "m" + seq + "] " + text).build();
            msg.setStanzaId(RoomAcks.stanzaId(room, seq));
            c.sendStanza(msg);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /** Whether this bot has {@code seq}, live, retained or caught up. */
    boolean has(int seq) {
        return got.containsKey(seq) || caughtUp.contains(seq);
    }

    /** Waits until the bot holds no operation (a rejoin or reconnect in progress), at most {@code millis}. */
    boolean awaitIdle(long millis) throws InterruptedException {
        if (lock.tryLock(millis, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            lock.unlock();
            return true;
        }
        return false;
    }

    private record TrailEvent(long millis, String what) {
    }

    private void trail(String what) {
        if (trailSize.incrementAndGet() <= TRAIL_MAX) {
            trail.add(new TrailEvent(System.currentTimeMillis(), what));
        }
    }

    /** This bot's trail between two wall-clock times, each event with its time in seconds from {@code originMillis}. */
    List<String> trail(long fromMillis, long toMillis, long originMillis) {
        return trail.stream().filter(e -> e.millis() >= fromMillis && e.millis() <= toMillis)
                .map(e -> String.format(java.util.Locale.ROOT, "%+.3f s %s", (e.millis() - originMillis) / 1e3, e.what()))
                .toList();
    }

    /** The nick it was made with (its name in the tallies). */
    String name() {
        return baseNick;
    }

    RoomTally.BotView view() {
        List<Integer> live;
        synchronized (liveOrder) {
            live = new ArrayList<>(liveOrder);
        }
        return new RoomTally.BotView(baseNick, live, Set.copyOf(caughtUp));
    }

    /** Leaves and disconnects. */
    void close() {
        wanted = false;
        XMPPTCPConnection c = connection;
        if (c != null) {
            c.disconnect();
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
