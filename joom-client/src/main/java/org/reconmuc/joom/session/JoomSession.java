package org.reconmuc.joom.session;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.ConnectionListener;
import org.jivesoftware.smack.SmackException;
import org.jivesoftware.smack.XMPPConnection;
import org.jivesoftware.smack.XMPPException;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.MessageBuilder;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.muc.MucEnterConfiguration;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.EntityFullJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.jxmpp.stringprep.XmppStringprepException;
import org.reconmuc.joom.model.Arrival;
import org.reconmuc.joom.model.ChatMessage;
import org.reconmuc.joom.model.ConnectionState;
import org.reconmuc.joom.model.JoomRequirements;
import org.reconmuc.joom.model.MessageText;
import org.reconmuc.joom.model.Mode;
import org.reconmuc.joom.model.RequirementsUpdate;
import org.reconmuc.smack.ReconMucManager;
import org.reconmuc.smack.RetainedMessageListener;
import org.reconmuc.smack.RoomSupport;
import org.reconmuc.smack.element.Aggregation;
import org.reconmuc.smack.element.ConsistencyRequirements;
import org.reconmuc.smack.element.FilterEntry;
import org.reconmuc.smack.element.TopicElement;
import org.reconmuc.smack.reply.element.ReplyElement;
import org.reconmuc.smack.socket.MeteredSocketFactory;

/**
 * One Joom session: one account in one room. Blocking methods (call them off the UI thread);
 * what arrives goes to the {@link SessionListener}. After the connection is lost it reconnects with
 * a fresh connection (after 1, 2, 4 … 30 s), re-joins the room asking for the history it missed,
 * and states the requirements again (they died with the old occupant, reconmuc.md §5.10).
 */
public final class JoomSession implements AutoCloseable {
    private static final int HISTORY_ON_JOIN = 50;
    private static final long REPLY_TIMEOUT_MS = 15_000;

    private final SessionListener listener;
    private final Clock clock;
    private final AtomicLong bytesReceived = new AtomicLong();
    private final AtomicLong messagesReceived = new AtomicLong();
    private final ScheduledExecutorService reconnector = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "joom-reconnect");
        t.setDaemon(true);
        return t;
    });

    private volatile XMPPTCPConnection connection;
    private volatile MultiUserChat muc;
    private volatile ConnectOptions options;
    private volatile EntityBareJid room;
    private volatile String nick;
    private volatile Mode mode;
    private volatile RoomSupport support = RoomSupport.UNSUPPORTED;
    /** What the room was last asked for (null: nothing yet in this occupancy). */
    private JoomRequirements stated;
    /** What the user wants; stated again after a reconnection. */
    private JoomRequirements wanted;
    private volatile Instant lastMessageAt;
    private volatile boolean closed;

    public JoomSession(SessionListener listener) {
        this(listener, Clock.systemUTC());
    }

    JoomSession(SessionListener listener, Clock clock) {
        this.listener = listener;
        this.clock = clock;
    }

    /**
     * Logs in.
     *
     * @throws SessionException with plain words: wrong password, server unreachable, …
     */
    public void connect(ConnectOptions o) throws SessionException {
        this.options = o;
        listener.state(ConnectionState.CONNECTING);
        try {
            connection = newConnection(o);
        } catch (SessionException e) {
            listener.state(ConnectionState.DISCONNECTED);
            throw e;
        }
        listener.state(ConnectionState.CONNECTED);
    }

    private XMPPTCPConnection newConnection(ConnectOptions o) throws SessionException {
        XMPPTCPConnection c;
        try {
            XMPPTCPConnectionConfiguration.Builder b = XMPPTCPConnectionConfiguration.builder()
                    .setXmppDomain(o.domain())
                    .setHost(o.host())
                    .setPort(o.port())
                    .setSecurityMode(o.tls() ? SecurityMode.required : SecurityMode.disabled)
                    .setResource("joom-" + Integer.toHexString(new java.security.SecureRandom().nextInt(0x10000)))
                    .setSocketFactory(MeteredSocketFactory.counting(bytesReceived))
                    .setConnectTimeout(10_000);
            if (o.anonymous()) {
                b.performSaslAnonymousAuthentication();
            } else {
                b.setUsernameAndPassword(o.user(), o.password());
            }
            c = new XMPPTCPConnection(b.build());
        } catch (XmppStringprepException | IllegalArgumentException | IllegalStateException e) {
            throw new SessionException("That is not a valid account: " + o.jid(), e);
        }
        c.setReplyTimeout(REPLY_TIMEOUT_MS);
        try {
            c.connect().login();
        } catch (Exception e) {
            c.disconnect();
            throw new SessionException(ErrorWords.login(e, o.host(), o.port()), e);
        }
        c.addConnectionListener(new ConnectionListener() {
            @Override
            public void connectionClosedOnError(Exception e) {
                if (!closed && c == connection) {
                    listener.state(ConnectionState.RECONNECTING);
                    scheduleReconnect(1);
                }
            }
        });
        return c;
    }

    /**
     * Enters {@code roomJid} as {@code nickname} (creating it as an instant room if it does not
     * exist), then finds out whether it speaks ReConMUC and if so states {@code requirements}.
     *
     * @throws SessionException with plain words: members-only, banned, nick taken, …
     */
    public Mode join(String roomJid, String nickname, JoomRequirements requirements) throws SessionException {
        try {
            room = JidCreate.entityBareFrom(roomJid);
        } catch (XmppStringprepException e) {
            throw new SessionException("That is not a room address: " + roomJid, e);
        }
        nick = nickname;
        synchronized (this) {
            wanted = requirements;
        }
        enter(connection, null);
        return mode;
    }

    /** Joins on {@code c}; {@code since} asks for the history after that time (a re-join). */
    private void enter(XMPPTCPConnection c, Instant since) throws SessionException {
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
        m.addMessageListener(msg -> deliver(msg, Arrival.LIVE));
        m.addParticipantListener(presence -> reportOccupants());
        ReconMucManager reconMuc = ReconMucManager.forConnection(c);
        reconMuc.addRetainedMessageListener(new RetainedMessageListener() {
            @Override
            public void retainedMessage(EntityBareJid from, Message message) {
                deliver(message, Arrival.BATCHED);
            }

            @Override
            public void liveMessage(EntityBareJid from, Message message) {
                deliver(message, Arrival.LIVE); // sent at once, in the stream (reconmuc.md §5.9 rule 8.6)
            }

            @Override
            public void malformedBatch(EntityBareJid from, Message batch, org.reconmuc.codec.batch.MalformedBatchException e) {
                listener.problem("A batch from the room was damaged and was dropped: " + e.getMessage());
                // A deflate stream is lost with it: stating the aggregation again makes the room start
                // a new one (reconmuc.md §5.13 rule 5). Not on Smack's listener thread: it waits for the answer.
                java.util.concurrent.CompletableFuture.runAsync(JoomSession.this::restartStream);
            }
        });
        try {
            Resourcepart resource = Resourcepart.from(nick);
            MucEnterConfiguration.Builder enter = m.getEnterConfigurationBuilder(resource);
            if (since != null) {
                enter.requestHistorySince(java.util.Date.from(since));
            } else {
                enter.requestMaxStanzasHistory(HISTORY_ON_JOIN);
            }
            MultiUserChat.MucCreateConfigFormHandle created = m.createOrJoin(enter.build());
            if (created != null) {
                created.makeInstant(); // a new room: accept the default configuration
            }
        } catch (XmppStringprepException e) {
            throw new SessionException("That nick cannot be used: " + nick, e);
        } catch (Exception e) {
            throw new SessionException(ErrorWords.join(e, room.toString()), e);
        }
        muc = m;
        reportOccupants();
        try {
            support = reconMuc.discoverSupport(room);
        } catch (Exception e) {
            support = RoomSupport.UNSUPPORTED; // cannot tell: a plain MUC client is always right
        }
        mode = support.supported() ? Mode.RELAXED : Mode.STANDARD;
        listener.mode(mode);
        synchronized (this) {
            stated = null;
        }
        if (mode == Mode.RELAXED) {
            try {
                state();
            } catch (SessionException e) {
                listener.problem(e.getMessage());
            }
        }
    }

    /**
     * Asks the room for {@code requirements} (relaxed mode only; a standard room filters nothing):
     * only what changed since the last request (a topic switch deactivates the old topic and
     * activates the new one).
     */
    public void updateRequirements(JoomRequirements requirements) throws SessionException {
        synchronized (this) {
            wanted = requirements;
        }
        if (mode == Mode.RELAXED) {
            state();
        }
    }

    /** Asks the room to start a new deflate stream: the same aggregation, stated again. */
    private void restartStream() {
        if (mode != Mode.RELAXED || !support.compactDeflate() || connection == null) {
            return;
        }
        try {
            ReconMucManager.forConnection(connection).setRequirements(room,
                    ConsistencyRequirements.builder().setAggregation(streamAggregation(support)).build());
        } catch (Exception e) {
            listener.problem("Could not ask the room for a new stream of batches: " + ErrorWords.general(e));
        }
    }

    private synchronized void state() throws SessionException {
        JoomRequirements next = wanted.within(support.largestVolume(), support.largestTime());
        RequirementsUpdate update = RequirementsUpdate.between(stated, next);
        if (update.isEmpty()) {
            return;
        }
        try {
            ReconMucManager.forConnection(connection).setRequirements(room, request(update, support));
            stated = next;
        } catch (Exception e) {
            throw new SessionException("The room refused the requirements: " + ErrorWords.general(e), e);
        }
    }

    /**
     * The request for an update. Compression: the room's per-session deflate stream of compact
     * batches where it offers one (each batch compresses against the ones before) — with what
     * comes at once in it too where the room offers that — else deflate.
     */
    static ConsistencyRequirements request(RequirementsUpdate u, RoomSupport support) {
        ConsistencyRequirements.Builder b = ConsistencyRequirements.builder();
        if (u.filterElement()) {
            b.withFilter();
        }
        for (RequirementsUpdate.TopicChange t : u.filter()) {
            b.addFilterEntry(FilterEntry.topic(t.topic(), t.active()));
        }
        if (u.timeSeconds() != null) {
            b.setTimeSeconds(u.timeSeconds());
        }
        if (u.volume() != null) {
            b.setVolume(u.volume());
        }
        if (u.deflate()) {
            b.setAggregation(support.compactDeflate() ? streamAggregation(support) : Aggregation.DEFLATE);
        }
        return b.build();
    }

    /** The room's deflate stream, with live messages in it where the room offers that (§5.9 rule 8.6). */
    private static Aggregation streamAggregation(RoomSupport support) {
        return support.compactDeflateLive() ? Aggregation.COMPACT_DEFLATE_LIVE : Aggregation.COMPACT_DEFLATE;
    }

    /**
     * Sends {@code text} tagged with {@code topic} (a {@code <topic/>} element and the hashtag in
     * the body, for standard clients), as an XEP-0461 reply to {@code parent} if given.
     */
    public void send(String text, String topic, ChatMessage parent) throws SessionException {
        MultiUserChat m = muc;
        if (m == null) {
            throw new SessionException("Not in a room yet.", null);
        }
        MessageBuilder b = m.buildMessage().setBody(MessageText.withHashtag(text, topic));
        if (topic != null) {
            b.addExtension(new TopicElement(topic));
        }
        if (parent != null && parent.stanzaId() != null) {
            b.addExtension(new ReplyElement(room + "/" + parent.nick(), parent.stanzaId()));
        }
        try {
            m.sendMessage(b);
        } catch (SmackException.NotConnectedException | InterruptedException e) {
            throw new SessionException("Not sent: the connection is down. Send it again when it is back.", e);
        }
    }

    private void deliver(Message m, Arrival arrival) {
        ChatMessage chat = IncomingMessages.toChat(m, arrival, room, nick, clock.instant());
        if (chat != null) {
            messagesReceived.incrementAndGet();
            if (lastMessageAt == null || chat.sentAt().isAfter(lastMessageAt)) {
                lastMessageAt = chat.sentAt();
            }
            listener.message(chat);
        }
    }

    private void reportOccupants() {
        MultiUserChat m = muc;
        if (m == null) {
            return;
        }
        List<String> nicks = new ArrayList<>();
        for (EntityFullJid occupant : m.getOccupants()) {
            nicks.add(occupant.getResourceOrEmpty().toString());
        }
        nicks.sort(String.CASE_INSENSITIVE_ORDER);
        listener.occupants(nicks);
    }

    private void scheduleReconnect(int delaySeconds) {
        if (closed) {
            return;
        }
        reconnector.schedule(() -> reconnect(delaySeconds), delaySeconds, TimeUnit.SECONDS);
    }

    private void reconnect(int lastDelay) {
        if (closed) {
            return;
        }
        XMPPTCPConnection old = connection;
        try {
            XMPPTCPConnection fresh = newConnection(options);
            connection = fresh;
            old.disconnect();
            if (room != null) {
                enter(fresh, lastMessageAt);
            }
            listener.state(ConnectionState.CONNECTED);
        } catch (SessionException e) {
            listener.problem(e.getMessage() + " Retrying…");
            scheduleReconnect(Math.min(30, lastDelay * 2));
        }
    }

    public Mode mode() {
        return mode;
    }

    /** The room's limits and support, as discovered on joining. */
    public RoomSupport support() {
        return support;
    }

    /** Bytes received on the wire since the session started, over every connection. */
    public long bytesReceived() {
        return bytesReceived.get();
    }

    /** Chat messages received since the session started. */
    public long messagesReceived() {
        return messagesReceived.get();
    }

    /** The connection (tests); null before {@link #connect}. */
    XMPPConnection connection() {
        return connection;
    }

    /** Leaves the room and logs out. */
    @Override
    public void close() {
        closed = true;
        reconnector.shutdownNow();
        MultiUserChat m = muc;
        XMPPTCPConnection c = connection;
        if (m != null && c != null && c.isConnected()) {
            try {
                m.leave();
            } catch (SmackException | XMPPException | InterruptedException | IllegalStateException e) {
                // leaving is a courtesy: the server removes the occupant when the session ends
            }
        }
        if (c != null) {
            c.disconnect();
        }
        listener.state(ConnectionState.DISCONNECTED);
    }
}
