package org.reconmuc.replay;

import java.util.concurrent.atomic.AtomicInteger;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.packet.MUCInitialPresence;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.EntityFullJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.servers.XmppServer;

/**
 * People coming and going while the logs are replayed ({@code --visitors-every}): one connection,
 * not a bot (nothing it receives is counted), that enters the room under a new nick every period,
 * stays a second and leaves — the churn of a real room, where every entry may start the relaxed
 * occupants' deflate streams anew (reconmuc.md §5.9 rule 8.4). Bounded: it stops at the deadline
 * it is given, or when closed.
 */
final class Visitors implements AutoCloseable {
    private static final long STAY_MILLIS = 1_000;
    private static final long JOIN_TIMEOUT_MILLIS = 30_000;

    private final XMPPTCPConnection connection;
    private final EntityBareJid room;
    private final long periodNanos;
    private final long deadlineNanos;
    private final AtomicInteger entries = new AtomicInteger();
    private final Thread thread;
    private volatile boolean closed;
    private volatile Exception failure;

    private Visitors(XmppServer server, EntityBareJid room, double everySeconds, long deadlineNanos) throws Exception {
        this.connection = server.newClient("visitor");
        this.room = room;
        this.periodNanos = (long) (everySeconds * 1e9);
        this.deadlineNanos = deadlineNanos;
        this.thread = new Thread(this::visit, "replay-visitors");
        this.thread.setDaemon(true);
    }

    /** Starts visiting {@code room} every {@code everySeconds} until {@code deadlineNanos} ({@link System#nanoTime}). */
    static Visitors start(XmppServer server, EntityBareJid room, double everySeconds, long deadlineNanos) throws Exception {
        Visitors v = new Visitors(server, room, everySeconds, deadlineNanos);
        v.thread.start();
        return v;
    }

    private void visit() {
        long next = System.nanoTime() + periodNanos;
        try {
            while (!closed) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                if (closed || System.nanoTime() >= deadlineNanos) {
                    return;
                }
                enterAndLeave("visitor-" + (entries.get() + 1));
                entries.incrementAndGet();
                next += periodNanos;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failure = e;
        }
    }

    private void enterAndLeave(String nick) throws Exception {
        EntityFullJid occupant = JidCreate.entityFullFrom(room, Resourcepart.from(nick));
        StanzaCollector self = connection.createStanzaCollector(new AndFilter(StanzaTypeFilter.PRESENCE,
                FromMatchesFilter.createFull(occupant)));
        try {
            connection.sendStanza(connection.getStanzaFactory().buildPresenceStanza().to(occupant)
                    .addExtension(new MUCInitialPresence(null, -1, 0, -1, null)).build());
            Presence in = self.nextResult(JOIN_TIMEOUT_MILLIS);
            if (in == null || in.getType() == Presence.Type.error) {
                throw new IllegalStateException(nick + " could not enter " + room + ": " + (in == null ? "no answer" : in.getError()));
            }
            Thread.sleep(STAY_MILLIS);
            connection.sendStanza(connection.getStanzaFactory().buildPresenceStanza().ofType(Presence.Type.unavailable)
                    .to(occupant).build());
            if (self.nextResult(JOIN_TIMEOUT_MILLIS) == null) {
                throw new IllegalStateException(nick + " got no answer to leaving " + room);
            }
        } finally {
            self.cancel();
        }
    }

    /** How many times a visitor entered. */
    int entries() {
        return entries.get();
    }

    /** Stops visiting; rethrows what made a visit fail, if anything did. */
    @Override
    public void close() throws Exception {
        closed = true;
        thread.interrupt();
        thread.join(JOIN_TIMEOUT_MILLIS);
        connection.instantShutdown();
        if (failure != null) {
            throw new IllegalStateException("a visitor failed", failure);
        }
    }
}
