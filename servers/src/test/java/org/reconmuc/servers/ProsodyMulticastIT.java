package org.reconmuc.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * deploy/prosody/plugins/mod_component_multicast.lua on a real Prosody: ReConMUC's component
 * (reconmuc.localhost) sends one stanza with bcc addresses to multicast.localhost, and Alice and
 * Bob each get what a stanza of their own would have brought them; nobody else may use it.
 */
class ProsodyMulticastIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String SERVICE = "multicast.localhost";
    private static final String ADDRESS = "http://jabber.org/protocol/address";
    private static final String OCCUPANT = "lobby@reconmuc.localhost/Romeo";

    private static XmppServer server;
    private XMPPTCPConnection alice;
    private XMPPTCPConnection bob;

    @BeforeAll
    static void prosody() throws Exception {
        server = XmppServers.startProsody(Path.of("target", "it-servers", "multicast"));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @BeforeEach
    void aliceAndBob() throws Exception {
        alice = server.newClient("alice");
        bob = server.newClient("bob");
    }

    private ComponentStream component(String domain) throws Exception {
        return ComponentStream.open(server.host(), server.componentPort(), domain, server.componentSecret(), TIMEOUT);
    }

    private static String groupchat(String id, String to, String body, String extra) {
        return "<message type='groupchat' id='" + id + "' from='" + OCCUPANT + "' to='" + to + "'><body>" + body + "</body>"
                + extra + "</message>";
    }

    private static String bcc(XMPPTCPConnection... recipients) {
        StringBuilder addresses = new StringBuilder("<addresses xmlns='" + ADDRESS + "'>");
        for (XMPPTCPConnection r : recipients) {
            addresses.append("<address type='bcc' jid='").append(r.getUser()).append("'/>");
        }
        return addresses.append("</addresses>").toString();
    }

    private static List<Message> next(StanzaCollector inbox, int count) throws InterruptedException {
        List<Message> got = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Stanza s = inbox.nextResult(TIMEOUT.toMillis());
            assertThat(s).as("message %d of %d", i + 1, count).isNotNull();
            got.add((Message) s);
        }
        return got;
    }

    @Test
    void theComponentFindsTheServiceAndItsLimit() throws Exception {
        try (ComponentStream reconmuc = component(server.componentDomain())) {
            reconmuc.send("<iq type='get' id='info' from='" + server.componentDomain() + "' to='" + SERVICE + "'>"
                    + "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>");
            String info = reconmuc.readUntil(s -> s.contains("</iq>"));
            assertThat(info).contains("type='result'").contains("var='" + ADDRESS + "'")
                    .containsPattern("<field [^>]*var='message'[^>]*><value>1000</value>");
            reconmuc.send("<iq type='get' id='items' from='" + server.componentDomain() + "' to='localhost'>"
                    + "<query xmlns='http://jabber.org/protocol/disco#items'/></iq>");
            assertThat(reconmuc.readUntil(s -> s.contains("</iq>"))).contains("jid='" + SERVICE + "'");
        }
    }

    @Test
    void eachRecipientGetsWhatItsOwnStanzaWouldHaveBroughtInTheOrderSent() throws Exception {
        try (StanzaCollector toAlice = alice.createStanzaCollector(StanzaTypeFilter.MESSAGE);
             StanzaCollector toBob = bob.createStanzaCollector(StanzaTypeFilter.MESSAGE);
             ComponentStream reconmuc = component(server.componentDomain())) {
            String occupantId = "<occupant-id xmlns='urn:xmpp:occupant-id:0' id='r0me0'/>";
            reconmuc.send(groupchat("m1", alice.getUser().toString(), "one", occupantId));
            reconmuc.send(groupchat("m1", bob.getUser().toString(), "one", occupantId));
            reconmuc.send(groupchat("m1", SERVICE, "one", occupantId + bcc(alice, bob)));
            // A multicast, then a stanza for Alice alone, then a multicast: Alice gets them in that order.
            reconmuc.send(groupchat("m2", SERVICE, "two", bcc(alice, bob)));
            reconmuc.send(groupchat("m3", alice.getUser().toString(), "three", ""));
            reconmuc.send(groupchat("m4", SERVICE, "four", bcc(bob, alice)));

            List<Message> alices = next(toAlice, 5);
            List<Message> bobs = next(toBob, 4);
            assertThat(alices.get(1).toXML().toString()).as("Alice's multicast copy is her unicast one")
                    .isEqualTo(alices.get(0).toXML().toString());
            assertThat(bobs.get(1).toXML().toString()).isEqualTo(bobs.get(0).toXML().toString());
            assertThat(alices.get(1).toXML().toString()).doesNotContain(ADDRESS).contains("r0me0");
            assertThat(alices.get(1).getTo().toString()).isEqualTo(alice.getUser().toString());
            assertThat(alices).extracting(Message::getBody).containsExactly("one", "one", "two", "three", "four");
            assertThat(bobs).extracting(Message::getBody).containsExactly("one", "one", "two", "four");
        }
    }

    @Test
    void aClientMayNotUseIt() throws Exception {
        try (StanzaCollector toBob = bob.createStanzaCollector(StanzaTypeFilter.MESSAGE);
             StanzaCollector toAlice = alice.createStanzaCollector(StanzaTypeFilter.MESSAGE)) {
            alice.sendStanza(alice.getStanzaFactory().buildMessageStanza().to(SERVICE).setBody("spam")
                    .addExtension(addresses(bob))
                    .build());
            Message refusal = (Message) toAlice.nextResult(TIMEOUT.toMillis());
            assertThat(refusal).isNotNull();
            assertThat(refusal.getType()).isEqualTo(Message.Type.error);
            assertThat(refusal.getError().getCondition().toString()).isEqualTo("forbidden");
            assertThat((Stanza) toBob.nextResult(1000)).as("nothing reaches Bob").isNull();
        }
    }

    private static StandardExtensionElement addresses(XMPPTCPConnection to) {
        return StandardExtensionElement.builder("addresses", ADDRESS)
                .addElement(StandardExtensionElement.builder("address", ADDRESS)
                        .addAttribute("type", "bcc").addAttribute("jid", to.getUser().toString()).build())
                .build();
    }

    @Test
    void anotherComponentMayNotUseIt() throws Exception {
        try (StanzaCollector toBob = bob.createStanzaCollector(StanzaTypeFilter.MESSAGE);
             ComponentStream other = component("other.localhost")) {
            other.send("<message id='x1' from='bot@other.localhost' to='" + SERVICE + "'><body>spam</body>" + bcc(bob) + "</message>");
            assertThat(other.readUntil(s -> s.contains("</message>"))).contains("type='error'").contains("<forbidden");
            assertThat((Stanza) toBob.nextResult(1000)).isNull();
        }
    }

    @Test
    void tooManyOrOtherThanBccAddressesAreRefusedWhole() throws Exception {
        try (StanzaCollector toBob = bob.createStanzaCollector(StanzaTypeFilter.MESSAGE);
             ComponentStream reconmuc = component(server.componentDomain())) {
            StringBuilder many = new StringBuilder("<addresses xmlns='" + ADDRESS + "'>");
            many.append("<address type='bcc' jid='").append(bob.getUser()).append("'/>");
            for (int i = 0; i < 1000; i++) {
                many.append("<address type='bcc' jid='nobody").append(i).append("@localhost'/>");
            }
            reconmuc.send(groupchat("big", SERVICE, "too many", many.append("</addresses>").toString()));
            assertThat(reconmuc.readUntil(s -> s.contains("</message>"))).contains("<not-acceptable");
            reconmuc.send(groupchat("to", SERVICE, "not bcc", "<addresses xmlns='" + ADDRESS + "'><address type='to' jid='"
                    + bob.getUser() + "'/></addresses>"));
            assertThat(reconmuc.readUntil(s -> s.contains("</message>"))).contains("<bad-request");
            assertThat((Stanza) toBob.nextResult(1000)).as("nothing reaches Bob").isNull();
        }
    }
}
