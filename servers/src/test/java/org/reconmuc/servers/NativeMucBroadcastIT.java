package org.reconmuc.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.MessageTypeFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jxmpp.jid.impl.JidCreate;

/**
 * The servers' own MUC, the replay's baseline, keeps delivering with our templates' multicast
 * loaded. ejabberd's {@code mod_muc} hands its broadcasts to {@code mod_multicast} once that is
 * loaded; for occupants of another virtual host (the bots log into {@code insecure.localhost}) it
 * learns by disco that host's multicast service and, from then on, sends it the broadcasts as an
 * untrusted sender — which an access rule that let only the component in refused with
 * {@code forbidden}: the room went silent after its first messages (the 2026-11-26 capacity run
 * lost 274,400 of 288,000 deliveries so).
 */
class NativeMucBroadcastIT {
    private static final int MESSAGES = 40;

    @ParameterizedTest
    @ValueSource(strings = {"ejabberd", "prosody"})
    void julietReceivesEveryLineRomeoSaysInTheServersOwnRoom(String kind) throws Exception {
        Path runDir = Path.of("target", "it-servers", "native-broadcast-" + kind);
        try (XmppServer server = XmppServers.start(kind, runDir)) {
            XMPPTCPConnection romeo = server.newClient("romeo");
            XMPPTCPConnection juliet = server.newClient("juliet");
            String room = "balcony@" + server.nativeMucDomain();
            try (StanzaCollector romeoPresences = romeo.createStanzaCollector(StanzaTypeFilter.PRESENCE);
                    StanzaCollector julietPresences = juliet.createStanzaCollector(StanzaTypeFilter.PRESENCE);
                    StanzaCollector heard = juliet.createStanzaCollector(
                            new AndFilter(MessageTypeFilter.GROUPCHAT, StanzaTypeFilter.MESSAGE))) {
                enter(romeo, room + "/romeo", romeoPresences);
                enter(juliet, room + "/juliet", julietPresences);

                // Spread over seconds: ejabberd's multicast learns the bots' host by disco meanwhile.
                for (int i = 0; i < MESSAGES; i++) {
                    romeo.sendStanza(romeo.getStanzaFactory().buildMessageStanza().to(JidCreate.from(room))
                            .ofType(Message.Type.groupchat).setBody("line " + i).build());
                    Thread.sleep(100);
                }
                List<String> lines = new ArrayList<>();
                while (lines.size() < MESSAGES) {
                    Message m = heard.nextResult(15_000);
                    if (m == null) {
                        break;
                    }
                    if (m.getBody() != null) {   // a subject message may come first
                        lines.add(m.getBody());
                    }
                }
                List<String> said = new ArrayList<>();
                for (int i = 0; i < MESSAGES; i++) {
                    said.add("line " + i);
                }
                assertThat(lines).as("what Juliet heard in " + kind + "'s own room").isEqualTo(said);
            }
        }
    }

    private static void enter(XMPPTCPConnection who, String occupant, StanzaCollector presences) throws Exception {
        who.sendStanza(who.getStanzaFactory().buildPresenceStanza().to(JidCreate.from(occupant))
                .addExtension(StandardExtensionElement.builder("x", "http://jabber.org/protocol/muc").build())
                .build());
        Presence p;
        do {
            p = presences.nextResult(10_000);
            assertThat(p).as("self-presence from " + occupant).isNotNull();
        } while (!p.getFrom().toString().equals(occupant));
        assertThat(p.getType()).isEqualTo(Presence.Type.available);
    }
}
