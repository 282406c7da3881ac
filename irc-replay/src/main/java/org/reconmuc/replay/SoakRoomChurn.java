package org.reconmuc.replay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.servers.XmppServer;

/**
 * Rooms made and destroyed all the time in {@code irc-replay soak}: a client of its own creates room
 * {@code churn<k>}, says one thing in it, waits for the echo, and destroys it (XEP-0045 §10.9), one room
 * per {@link #tick}. A room it could not destroy (a fault cut the request) is destroyed again at
 * {@link #close}, so the instances' room count at the end says whether destroyed rooms stay in memory.
 */
final class SoakRoomChurn {
    private static final long ECHO_MILLIS = 10_000;
    private final XmppServer server;
    private XMPPTCPConnection connection;
    private int next;
    private final Set<EntityBareJid> notDestroyed = new LinkedHashSet<>();
    final AtomicLong created = new AtomicLong();
    final AtomicLong destroyed = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    private final List<String> examples = Collections.synchronizedList(new ArrayList<>());

    SoakRoomChurn(XmppServer server) {
        this.server = server;
    }

    /** One room made, spoken in and destroyed; a failure is counted with its reason. */
    synchronized void tick() {
        EntityBareJid room = null;
        try {
            room = JidCreate.entityBareFrom("churn" + next++ + "@" + server.componentDomain());
            MultiUserChat muc = MultiUserChatManager.getInstanceFor(connection()).getMultiUserChat(room);
            notDestroyed.add(room);   // before: the service may have made it though its answer never came
            muc.createOrJoin(Resourcepart.from("maker"));
            created.incrementAndGet();
            awaitEcho(room, "made " + room.getLocalpart());
            muc.destroy("churn", null);
            notDestroyed.remove(room);
            destroyed.incrementAndGet();
        } catch (Exception e) {
            failed(room, e);
        }
    }

    private void awaitEcho(EntityBareJid room, String body) throws Exception {
        XMPPTCPConnection c = connection;
        Message m = c.getStanzaFactory().buildMessageStanza().to(room).ofType(Message.Type.groupchat).setBody(body).build();
        StanzaCollector echo = c.createStanzaCollectorAndSend(new AndFilter(StanzaTypeFilter.MESSAGE,
                FromMatchesFilter.createFull(JidCreate.entityFullFrom(room, Resourcepart.from("maker")))), m);
        try {
            if (echo.nextResult(ECHO_MILLIS) == null) {
                throw new java.io.IOException("no echo within " + ECHO_MILLIS + " ms");
            }
        } finally {
            echo.cancel();
        }
    }

    private XMPPTCPConnection connection() throws Exception {
        if (connection == null || !connection.isAuthenticated()) {
            if (connection != null) {
                connection.instantShutdown();
            }
            connection = server.newClient("roomchurn");
        }
        return connection;
    }

    private void failed(EntityBareJid room, Exception e) {
        failed.incrementAndGet();
        if (examples.size() < 5) {
            examples.add(room + ": " + e);
        }
    }

    /** The rooms a fault kept from being destroyed, destroyed now; then the connection closed. */
    synchronized void close() {
        for (EntityBareJid room : List.copyOf(notDestroyed)) {
            try {
                MultiUserChat muc = MultiUserChatManager.getInstanceFor(connection()).getMultiUserChat(room);
                if (!muc.isJoined()) {
                    muc.createOrJoin(Resourcepart.from("maker"));
                }
                muc.destroy("churn, again", null);
                notDestroyed.remove(room);
                destroyed.incrementAndGet();
            } catch (Exception e) {
                failed(room, e);
            }
        }
        if (connection != null) {
            connection.disconnect();
        }
    }

    /** For summary.json. */
    synchronized Map<String, Object> report() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("created", created.get());
        r.put("destroyed", destroyed.get());
        r.put("operations_failed", failed.get());
        r.put("left_undestroyed", notDestroyed.size());
        r.put("examples", List.copyOf(examples));
        return r;
    }
}
