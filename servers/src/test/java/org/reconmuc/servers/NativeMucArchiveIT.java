package org.reconmuc.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.MessageTypeFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.jxmpp.jid.impl.JidCreate;

/**
 * The replay's like-for-like baseline: the server's own MUC, archiving, stamps each groupchat
 * message with the room's XEP-0359 stanza-id (as ReConMUC does); not archiving, it stamps none.
 */
class NativeMucArchiveIT {

    @ParameterizedTest
    @CsvSource({"prosody, true", "prosody, false", "ejabberd, true", "ejabberd, false"})
    void anArchivingRoomStampsItsStanzaIdOnEveryMessage(String kind, boolean archive) throws Exception {
        Path runDir = Path.of("target", "it-servers", "mam-" + kind + "-" + archive);
        try (XmppServer server = XmppServers.start(kind, runDir, ServerOptions.DEFAULT.withNativeMucArchive(archive))) {
            XMPPTCPConnection romeo = server.newClient("romeo");
            String room = "verona@" + server.nativeMucDomain();
            try (StanzaCollector presences = romeo.createStanzaCollector(StanzaTypeFilter.PRESENCE);
                    StanzaCollector messages = romeo.createStanzaCollector(
                            new AndFilter(MessageTypeFilter.GROUPCHAT, StanzaTypeFilter.MESSAGE))) {
                romeo.sendStanza(romeo.getStanzaFactory().buildPresenceStanza().to(JidCreate.from(room + "/romeo"))
                        .addExtension(StandardExtensionElement.builder("x", "http://jabber.org/protocol/muc").build())
                        .build());
                Presence self = presences.nextResult(10_000);
                assertThat(self).as("self-presence from " + room).isNotNull();
                assertThat(self.getType()).isEqualTo(Presence.Type.available);

                romeo.sendStanza(romeo.getStanzaFactory().buildMessageStanza().to(JidCreate.from(room))
                        .ofType(Message.Type.groupchat).setBody("wherefore art thou").build());
                Message echo;
                do {
                    echo = messages.nextResult(10_000);
                    assertThat(echo).as("the echo of romeo's message").isNotNull();
                } while (echo.getBody() == null);   // a subject message may come first
                StandardExtensionElement sid = (StandardExtensionElement) echo.getExtensionElement("stanza-id", "urn:xmpp:sid:0");
                if (archive) {
                    assertThat(sid).as(kind + " archiving: " + echo.toXML()).isNotNull();
                    assertThat(sid.getAttributeValue("by")).isEqualTo(room);
                    assertThat(sid.getAttributeValue("id")).isNotBlank();
                } else {
                    assertThat(sid).as(kind + " not archiving: " + echo.toXML()).isNull();
                }
            }
        }
    }
}
