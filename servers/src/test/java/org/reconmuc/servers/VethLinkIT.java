package org.reconmuc.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.MessageTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A server in a network namespace of its own, reached over a real veth link: clients log in
 * through it, and the kernel's counters on our end see their traffic as Ethernet would carry it
 * (no frame above the MTU). The namespace is gone after close.
 */
class VethLinkIT {

    @ParameterizedTest
    @ValueSource(strings = {"prosody", "ejabberd"})
    void aServerInItsOwnNamespaceIsReachedOverTheLinkAndTheKernelCountsTheTraffic(String kind) throws Exception {
        VethLink link = VethLink.create();
        String netns = link.netns();
        try (link) {
            XmppServer server = XmppServers.start(kind, Path.of("target", "it-servers", "veth-" + kind),
                    ServerOptions.DEFAULT.withPlacement(link.placement()));
            try (server) {
                assertThat(server.host()).isEqualTo(link.placement().address()).startsWith("10.231.");
                XMPPTCPConnection alice = server.newClient("alice");
                XMPPTCPConnection bob = server.newClient("bob");
                VethLink.Counters before = link.counters();
                String body = "x".repeat(8000);   // several full segments
                try (StanzaCollector inbox = bob.createStanzaCollector(
                        new AndFilter(MessageTypeFilter.CHAT, FromMatchesFilter.createFull(alice.getUser())))) {
                    alice.sendStanza(alice.getStanzaFactory().buildMessageStanza()
                            .to(bob.getUser()).ofType(Message.Type.chat).setBody(body).build());
                    Message received = inbox.nextResult(10_000);
                    assertThat(received).as("chat message through the veth link").isNotNull();
                    assertThat(received.getBody()).isEqualTo(body);
                }
                VethLink.Counters d = link.counters().minus(before);
                assertThat(d.rxIpBytes()).as("server to clients").isGreaterThan(8000);
                assertThat(d.txIpBytes()).as("clients to server").isGreaterThan(8000);
                assertThat(d.rxPackets()).as("8 kB in MTU-sized segments").isGreaterThanOrEqualTo(6);
                assertThat((double) d.rxBytes() / d.rxPackets()).as("mean frame").isLessThanOrEqualTo(VethLink.MTU + 14);
            }
        }
        assertThat(Files.exists(Path.of("/run/netns", netns))).as("namespace " + netns + " deleted").isFalse();
    }
}
