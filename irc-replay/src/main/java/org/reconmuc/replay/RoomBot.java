package org.reconmuc.replay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.muc.packet.MUCUser;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.smack.ReconMucManager;
import org.reconmuc.smack.element.ConsistencyRequirements;

/**
 * One bot of {@code irc-replay rooms}: its connection, its room, and what it saw of the room's
 * messages (bodies {@code [r<room>m<seq>] ...}). Told that its room moved (110 + 333) it joins
 * again and asks for the discussion history since the last message it saw, as a XEP-0410 client
 * with MUC history would. A relaxed bot states requirements on joining and counts what the room
 * retained for it (batches, unpacked by the client library) as delivered.
 */
final class RoomBot {
    /** The room and sequence number a replayed body starts with. */
    static final Pattern BODY_ID = Pattern.compile("^\\[r(\\d+)m(\\d+)\\] ");

    final int room;
    final String nick;
    /** What it asks of the room when relaxed; null for a standard occupant. */
    private final ConsistencyRequirements requirements;
    final XMPPTCPConnection connection;
    final MultiUserChat muc;
    /** seq to deliveries of this room's messages, live or retained (not from the history). */
    final Map<Integer, Integer> got = new ConcurrentHashMap<>();
    /** seqs that came in the discussion history on a rejoin (a client's catch-up: they overlap what came live). */
    final Set<Integer> fromHistory = ConcurrentHashMap.newKeySet();
    /** What came live or retained, in the order it came. */
    final List<Integer> liveOrder = Collections.synchronizedList(new ArrayList<>());
    final AtomicLong rejoins = new AtomicLong();
    private volatile long lastSeenMillis;

    private RoomBot(int room, String nick, ConsistencyRequirements requirements, XMPPTCPConnection connection,
                    MultiUserChat muc) {
        this.room = room;
        this.nick = nick;
        this.requirements = requirements;
        this.connection = connection;
        this.muc = muc;
    }

    /**
     * Logs in and joins room {@code replay<room>} as {@code nick}, without history; relaxed when
     * {@code requirements} is not null.
     */
    static RoomBot join(XmppServer server, int room, String nick, ConsistencyRequirements requirements) throws Exception {
        XMPPTCPConnection c = server.newClient("r" + room + nick);
        c.setReplyTimeout(5_000);
        EntityBareJid jid = JidCreate.entityBareFrom("replay" + room + "@" + server.componentDomain());
        MultiUserChat muc = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(jid);
        RoomBot bot = new RoomBot(room, nick, requirements, c, muc);
        // Sync listeners: called in the order the stanzas arrived (async ones run concurrently).
        c.addSyncStanzaListener(s -> bot.onGroupchat((Message) s), s -> s instanceof Message);
        c.addSyncStanzaListener(s -> bot.onPresence((Presence) s),
                s -> s instanceof Presence && s.getFrom() != null && s.getFrom().asBareJid().equals(jid));
        if (requirements != null) {
            ReconMucManager.forConnection(c).addRetainedMessageListener((from, m) -> bot.onRetained(m));
        }
        muc.join(muc.getEnterConfigurationBuilder(Resourcepart.from(nick)).requestNoHistory().build());
        bot.stateRequirements();
        return bot;
    }

    boolean relaxed() {
        return requirements != null;
    }

    /** A relaxed bot's requirements, stated again after each join (a new occupancy starts standard). */
    private void stateRequirements() throws Exception {
        if (requirements != null) {
            ReconMucManager.forConnection(connection).setRequirements(muc.getRoom(), requirements);
        }
    }

    private void onGroupchat(Message m) {
        if (m.getType() != Message.Type.groupchat || m.getBody() == null) {
            return;
        }
        Matcher id = BODY_ID.matcher(m.getBody());
        if (!id.find()) {
            return;
        }
        int seq = Integer.parseInt(id.group(2));
        if (m.hasExtension("delay", "urn:xmpp:delay")) {
            fromHistory.add(seq);
        } else {
            delivered(seq);
        }
    }

    /** A message the room retained for this relaxed bot and now released. */
    private void onRetained(Message m) {
        Matcher id = m.getBody() == null ? null : BODY_ID.matcher(m.getBody());
        if (id != null && id.find()) {
            delivered(Integer.parseInt(id.group(2)));
        }
    }

    private void delivered(int seq) {
        got.merge(seq, 1, Integer::sum);
        liveOrder.add(seq);
        lastSeenMillis = System.currentTimeMillis();
    }

    private void onPresence(Presence p) {
        MUCUser user = MUCUser.from(p);
        if (p.getType() == Presence.Type.unavailable && user != null
                && user.getStatus().contains(MUCUser.Status.create(333))
                && user.getStatus().contains(MUCUser.Status.create(110))) {
            Thread t = new Thread(this::rejoin, "rejoin-" + room + nick);
            t.setDaemon(true);
            t.start();
        }
    }

    /** Told the room moved: join again, with the history since the last message seen live (a second early). */
    private void rejoin() {
        rejoins.incrementAndGet();
        try {
            for (int i = 0; i < 20 && muc.isJoined(); i++) {   // Smack takes the 110 presence as having left
                Thread.sleep(50);
            }
            for (int attempt = 0; attempt < 10; attempt++) {
                try {
                    long since = lastSeenMillis == 0 ? System.currentTimeMillis() - 600_000 : lastSeenMillis - 1_000;
                    muc.join(muc.getEnterConfigurationBuilder(Resourcepart.from(nick))
                            .requestHistorySince(new Date(since)).build());
                    stateRequirements();
                    return;
                } catch (Exception e) {
                    Thread.sleep(500);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether this bot has {@code seq}, live, retained or from the history. */
    boolean has(int seq) {
        return got.containsKey(seq) || fromHistory.contains(seq);
    }

    /** What it saw, for {@link RoomTally}. */
    RoomTally.BotView view() {
        List<Integer> live;
        synchronized (liveOrder) {
            live = new ArrayList<>(liveOrder);
        }
        return new RoomTally.BotView(nick, live, Set.copyOf(fromHistory));
    }
}
