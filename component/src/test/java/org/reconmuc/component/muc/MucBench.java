package org.reconmuc.component.muc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.store.StoreException;
import org.reconmuc.component.transport.Outbox;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.RenderedStanza;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * A MUC service with no sockets and no threads: stanzas go in as XML, what the service sends
 * is collected per recipient, and time only moves when the test says so.
 */
public final class MucBench {
    public static final String SERVICE = "chat.example";
    public static final String ROOM = "lobby@" + SERVICE;

    public final ManualClock clock;
    public final List<Packet> outbox = new ArrayList<>();
    /** Every stanza as the service handed it over (its text and its rendering), in order. */
    final List<OutgoingStanza> handedOver = new ArrayList<>();
    /** Every stanza handed over as one broadcast (each copy is in {@link #handedOver} too). */
    final List<Broadcast> broadcasts = new ArrayList<>();

    record Broadcast(RenderedStanza stanza, List<String> recipients) {
    }
    public final MucService service;
    private final Store store;
    /**
     * While the server's socket is slow ({@link #slowSocket}), what waits for the stanzas handed over so
     * far to be written ({@link Outbox#whenWritten}); null: written at once.
     */
    private List<Runnable> unwritten;
    /** Tasks the service scheduled, run by {@link #advance} when their time comes. */
    private final List<Timed> timers = new ArrayList<>();

    private record Timed(long dueMillis, Runnable task) {
    }

    public MucBench() {
        this(ServiceConfig.defaults().withDomainAndSecret(SERVICE, "x"));
    }

    public MucBench(ServiceConfig config) {
        this(config, Instant.parse("2026-01-01T10:00:00Z"));
    }

    public MucBench(ServiceConfig config, Instant start) {
        this(config, start, Store.NONE);
    }

    /**
     * A service keeping its persistent rooms in {@code store} (opened without threads: nothing is
     * committed until {@link #commit()}), with the rooms it holds restored.
     */
    public MucBench(ServiceConfig config, Instant start, Store store) {
        this(config, start, store, true);
    }

    /**
     * As above; without {@code restore}, rooms are loaded only when they are claimed (one of
     * several instances: {@link MucService#serveUnderLeases}).
     */
    public MucBench(ServiceConfig config, Instant start, Store store, boolean restore) {
        this(config, start, store, restore, RoomFeatures.ALL);
    }

    /** As above, its rooms with {@code features} only (a service without one of them). */
    public MucBench(ServiceConfig config, Instant start, Store store, boolean restore, List<? extends RoomFeature> features) {
        clock = new ManualClock(start);
        this.store = store;
        service = new MucService(config, clock, Runnable::run, new Outbox() {
                    @Override
                    public void send(OutgoingStanza stanza) {
                        handedOver.add(stanza);
                        outbox.add(asSent(stanza));
                    }

                    @Override
                    public void whenWritten(String from, Runnable then) {
                        if (unwritten == null) {
                            then.run();
                        } else {
                            unwritten.add(then);
                        }
                    }

                    @Override
                    public void broadcast(RenderedStanza stanza, List<String> recipients) {
                        broadcasts.add(new Broadcast(stanza, List.copyOf(recipients)));
                        Outbox.super.broadcast(stanza, recipients);
                    }
                },
                (delay, task) -> timers.add(new Timed(clock.millis() + delay, task)), store, features);
        try {
            if (restore) {
                service.restoreRooms();
            }
        } catch (StoreException e) {
            throw new AssertionError(e);
        }
    }

    /** The store commits what the rooms wrote; what they held for it is sent. */
    public void commit() {
        store.commitQueued();
    }

    /**
     * From now on the stanzas handed over stay in the connection's queue (a busy socket) until
     * {@link #socketWritten}: what the store may say only once they are out waits too.
     */
    public void slowSocket() {
        if (unwritten == null) {
            unwritten = new ArrayList<>();
        }
    }

    /** Everything handed over so far has been written to the socket (and it is fast again). */
    public void socketWritten() {
        List<Runnable> waiting = unwritten;
        unwritten = null;
        if (waiting != null) {
            waiting.forEach(Runnable::run);
        }
    }

    /** What the recipient gets: the stanza's text, parsed again. */
    private static Packet asSent(OutgoingStanza stanza) {
        try {
            Element e = DocumentHelper.parseText(stanza.xml()).getRootElement();
            return switch (e.getName()) {
                case "message" -> new Message(e);
                case "presence" -> new Presence(e);
                default -> new IQ(e);
            };
        } catch (DocumentException e) {
            throw new AssertionError("the room sent malformed XML: " + stanza.xml(), e);
        }
    }

    /** Lets time pass, running each scheduled task at its due time, in order. */
    public void advance(Duration d) {
        long target = clock.millis() + d.toMillis();
        while (true) {
            Timed next = null;
            for (Timed t : timers) {
                if (t.dueMillis() <= target && (next == null || t.dueMillis() < next.dueMillis())) {
                    next = t;
                }
            }
            if (next == null) {
                break;
            }
            timers.remove(next);
            if (next.dueMillis() > clock.millis()) {
                clock.advance(Duration.ofMillis(next.dueMillis() - clock.millis()));
            }
            next.task().run();
        }
        clock.advance(Duration.ofMillis(target - clock.millis()));
    }

    /** Sends a stanza to the service as the server would deliver it. */
    public void send(String xml) {
        Element e;
        try {
            e = DocumentHelper.parseText(xml).getRootElement();
        } catch (DocumentException ex) {
            throw new IllegalArgumentException(xml, ex);
        }
        Packet p = switch (e.getName()) {
            case "message" -> new Message(e);
            case "presence" -> new Presence(e);
            case "iq" -> new IQ(e);
            default -> throw new IllegalArgumentException(e.getName());
        };
        service.processPacket(p);
    }

    /** Everything sent to {@code jid} since the last call, in order; removes it from the outbox. */
    public List<Packet> receivedBy(String jid) {
        List<Packet> mine = new ArrayList<>();
        for (Iterator<Packet> it = outbox.iterator(); it.hasNext(); ) {
            Packet p = it.next();
            if (p.getTo() != null && p.getTo().toString().equals(jid)) {
                mine.add(p);
                it.remove();
            }
        }
        return mine;
    }

    /** The reply to {@code jid}'s request {@code id}, taken out of the outbox; other stanzas stay. */
    public Packet replyTo(String jid, String id) {
        for (Iterator<Packet> it = outbox.iterator(); it.hasNext(); ) {
            Packet p = it.next();
            if (p.getTo() != null && p.getTo().toString().equals(jid) && id.equals(p.getID())) {
                it.remove();
                return p;
            }
        }
        throw new AssertionError("no reply to " + id + " for " + jid + "; outbox: " + outbox);
    }

    public Packet lastReceivedBy(String jid) {
        List<Packet> all = receivedBy(jid);
        if (all.isEmpty()) {
            throw new AssertionError(jid + " received nothing; outbox: " + outbox);
        }
        return all.get(all.size() - 1);
    }

    public void clear() {
        outbox.clear();
        handedOver.clear();
    }

    /**
     * {@code user} joins {@code room} as {@code nick} with a plain MUC join, and accepts the
     * instant room if the join created it (as Smack's {@code createOrJoin} and {@code makeInstant});
     * the output is dropped.
     */
    public void join(String user, String room, String nick) {
        send("<presence from='" + user + "' to='" + room + "/" + nick + "'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        if (receivedBy(user).stream().anyMatch(p -> statusCodes(p).contains("201"))) {
            acceptInstantRoom(user, room);
        }
        clear();
    }

    /** The owner accepts the default configuration (XEP-0045 §10.1.2), which unlocks a new room. */
    void acceptInstantRoom(String owner, String room) {
        send("<iq from='" + owner + "' to='" + room + "' type='set' id='instant'>"
                + "<query xmlns='http://jabber.org/protocol/muc#owner'><x xmlns='jabber:x:data' type='submit'/></query></iq>");
    }

    public void say(String user, String room, String body) {
        send("<message from='" + user + "' to='" + room + "' type='groupchat' id='m" + outbox.size() + "'><body>" + body + "</body></message>");
    }

    public static String errorCondition(Packet p) {
        Element error = p.getElement().element("error");
        if (error == null) {
            return null;
        }
        for (Element c : error.elements()) {
            if (!c.getName().equals("text")) {
                return c.getName();
            }
        }
        return null;
    }

    public static String errorText(Packet p) {
        Element error = p.getElement().element("error");
        return error == null ? null : error.elementText("text");
    }

    public static Element mucUser(Packet p) {
        return p.getElement().element(org.dom4j.QName.get("x", Namespaces.MUC_USER));
    }

    public static Set<String> statusCodes(Packet p) {
        Element x = mucUser(p);
        if (x == null) {
            return Set.of();
        }
        return x.elements("status").stream().map(s -> s.attributeValue("code")).collect(Collectors.toSet());
    }

    public static Element item(Packet p) {
        Element x = mucUser(p);
        return x == null ? null : x.element("item");
    }

    public static final class ManualClock extends Clock {
        private Instant now;

        ManualClock(Instant start) {
            now = start;
        }

        public void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
