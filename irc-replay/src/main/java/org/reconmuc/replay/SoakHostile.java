package org.reconmuc.replay;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.ping.packet.Ping;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.reconmuc.servers.XmppServer;

/**
 * The hostile trickle of {@code irc-replay soak}: a client of its own sending, in bursts, the kinds of
 * abuse XEP-0205 names — oversized and deeply nested stanzas into real rooms, invitation floods,
 * presence floods into a made-up room, IQ floods (pings) at real and made-up rooms, and messages to
 * rooms that do not exist — never more than {@value #SHARE} of the honest stanzas the service has
 * handled so far ({@code honest}: messages sent and copies delivered). Nothing it causes is
 * counted for the honest bots (their bodies carry the {@code [r<room>m<seq>]} prefix; its do not).
 */
final class SoakHostile {
    static final double SHARE = 0.01;
    static final int BURST = 10;

    enum Kind { OVERSIZED, DEEP, INVITATIONS, PRESENCES, IQS, MADE_UP_ROOMS }

    private final XmppServer server;
    private final int rooms;
    private final LongSupplier honest;
    private XMPPTCPConnection connection;
    private int next;
    private int made;
    final AtomicLong sent = new AtomicLong();
    final AtomicLong reconnects = new AtomicLong();
    final Map<String, Long> byKind = new TreeMap<>();

    SoakHostile(XmppServer server, int rooms, LongSupplier honest) {
        this.server = server;
        this.rooms = rooms;
        this.honest = honest;
    }

    /** One burst of the next kind if the budget allows it; the connection made again if the server closed it. */
    synchronized void tick() {
        if (sent.get() + BURST > SHARE * honest.getAsLong()) {
            return;
        }
        Kind kind = Kind.values()[next++ % Kind.values().length];
        try {
            if (connection == null || !connection.isAuthenticated()) {
                if (connection != null) {
                    connection.instantShutdown();
                    reconnects.incrementAndGet();
                }
                connection = server.newClient("hostile");
            }
            for (int i = 0; i < BURST; i++) {
                connection.sendStanza(stanza(kind, i));
                sent.incrementAndGet();
            }
            byKind.merge(kind.name().toLowerCase(java.util.Locale.ROOT), (long) BURST, Long::sum);
        } catch (Exception e) {
            byKind.merge("send_failed", 1L, Long::sum);   // the server may close the stream on what it sends: it comes back
        }
    }

    private Stanza stanza(Kind kind, int i) throws Exception {
        EntityBareJid real = JidCreate.entityBareFrom(SoakLedger.roomName(i % rooms) + "@" + server.componentDomain());
        EntityBareJid madeUp = JidCreate.entityBareFrom("nosuchroom" + (made++ % 1000) + "@" + server.componentDomain());
        switch (kind) {
            case OVERSIZED:
                return message(real, "x".repeat(60_000));
            case DEEP: {
                StandardExtensionElement inner = StandardExtensionElement.builder("n", "urn:soak:hostile").build();
                for (int d = 0; d < 200; d++) {
                    inner = StandardExtensionElement.builder("n", "urn:soak:hostile").addElement(inner).build();
                }
                Message m = message(real, "deep");
                m.addExtension(inner);
                return m;
            }
            case INVITATIONS: {
                Message m = connection.getStanzaFactory().buildMessageStanza().to(real).build();
                m.addExtension(StandardExtensionElement.builder("x", "http://jabber.org/protocol/muc#user")
                        .addElement(StandardExtensionElement.builder("invite", "http://jabber.org/protocol/muc#user")
                                .addAttribute("to", "victim" + i + "@insecure.localhost").build()).build());
                return m;
            }
            case PRESENCES:
                return connection.getStanzaFactory().buildPresenceStanza()
                        .to(JidCreate.fullFrom("hostilepresences@" + server.componentDomain() + "/h" + i))
                        .ofType(i == BURST - 1 ? Presence.Type.unavailable : Presence.Type.available).build();
            case IQS:
                return new Ping(i % 2 == 0 ? real : madeUp);
            default:
                return message(madeUp, "nobody here");
        }
    }

    private Message message(EntityBareJid to, String body) {
        return connection.getStanzaFactory().buildMessageStanza().to(to).ofType(Message.Type.groupchat).setBody(body).build();
    }

    synchronized void close() {
        if (connection != null) {
            connection.instantShutdown();
        }
    }
}
