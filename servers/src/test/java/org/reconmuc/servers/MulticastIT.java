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
 * XEP-0033 multicast for ReConMUC on a real server (Prosody: deploy/prosody/plugins/
 * mod_component_multicast.lua; ejabberd: mod_multicast): the component (reconmuc.localhost) sends
 * one stanza with bcc addresses to multicast.localhost, and Alice and Bob each get what a stanza of
 * their own would have brought them; nobody else may use it.
 */
abstract class MulticastIT {
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final String SERVICE = "multicast.localhost";
    static final String ADDRESS = "http://jabber.org/protocol/address";
    private static final String OCCUPANT = "lobby@reconmuc.localhost/Romeo";

    static XmppServer server;
    XMPPTCPConnection alice;
    XMPPTCPConnection bob;

    static void start(String kind) throws Exception {
        server = XmppServers.start(kind, Path.of("target", "it-servers", "multicast-" + kind));
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

    ComponentStream component(String domain) throws Exception {
        return ComponentStream.open(server.host(), server.componentPort(), domain, server.componentSecret(), TIMEOUT);
    }

    static String groupchat(String id, String to, String body, String extra) {
        return "<message type='groupchat' id='" + id + "' from='" + OCCUPANT + "' to='" + to + "'><body>" + body + "</body>"
                + extra + "</message>";
    }

    static String bcc(XMPPTCPConnection... recipients) {
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
    void eachRecipientGetsWhatItsOwnStanzaWouldHaveBrought() throws Exception {
        try (StanzaCollector toAlice = alice.createStanzaCollector(StanzaTypeFilter.MESSAGE);
             StanzaCollector toBob = bob.createStanzaCollector(StanzaTypeFilter.MESSAGE);
             ComponentStream reconmuc = component(server.componentDomain())) {
            String occupantId = "<occupant-id xmlns='urn:xmpp:occupant-id:0' id='r0me0'/>";
            reconmuc.send(groupchat("m1", alice.getUser().toString(), "one", occupantId));
            reconmuc.send(groupchat("m1", bob.getUser().toString(), "one", occupantId));
            reconmuc.send(groupchat("m1", SERVICE, "one", occupantId + bcc(alice, bob)));

            for (List<Message> copies : List.of(next(toAlice, 2), next(toBob, 2))) {
                assertThat(copies.get(1).toXML().toString()).as("the multicast copy is the unicast one")
                        .isEqualTo(copies.get(0).toXML().toString())
                        .doesNotContain(ADDRESS).contains("r0me0");
            }
        }
    }

    /**
     * A stanza for Alice alone between two multicasts goes through the service too (one bcc): on
     * ejabberd, whose mod_multicast routes from a process of its own, a stanza sent to Alice
     * directly overtook the multicast sent before it.
     */
    @Test
    void whatGoesThroughTheServiceArrivesInTheOrderSent() throws Exception {
        try (StanzaCollector toAlice = alice.createStanzaCollector(StanzaTypeFilter.MESSAGE);
             StanzaCollector toBob = bob.createStanzaCollector(StanzaTypeFilter.MESSAGE);
             ComponentStream reconmuc = component(server.componentDomain())) {
            for (int i = 0; i < 20; i++) {
                reconmuc.send(groupchat("a" + i, SERVICE, "all " + i, bcc(alice, bob)));
                reconmuc.send(groupchat("o" + i, SERVICE, "alice " + i, bcc(alice)));
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                expected.add("all " + i);
                expected.add("alice " + i);
            }
            assertThat(next(toAlice, 40)).extracting(Message::getBody).containsExactlyElementsOf(expected);
            assertThat(next(toBob, 20)).extracting(Message::getBody)
                    .containsExactlyElementsOf(expected.stream().filter(b -> b.startsWith("all")).toList());
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
    void tooManyAddressesAreRefusedWhole() throws Exception {
        try (StanzaCollector toBob = bob.createStanzaCollector(StanzaTypeFilter.MESSAGE);
             ComponentStream reconmuc = component(server.componentDomain())) {
            StringBuilder many = new StringBuilder("<addresses xmlns='" + ADDRESS + "'>");
            many.append("<address type='bcc' jid='").append(bob.getUser()).append("'/>");
            for (int i = 0; i < 1000; i++) {
                many.append("<address type='bcc' jid='nobody").append(i).append("@localhost'/>");
            }
            reconmuc.send(groupchat("big", SERVICE, "too many", many.append("</addresses>").toString()));
            assertThat(reconmuc.readUntil(s -> s.contains("</message>"))).contains("<not-acceptable");
            assertThat((Stanza) toBob.nextResult(1000)).as("nothing reaches Bob").isNull();
        }
    }
}
