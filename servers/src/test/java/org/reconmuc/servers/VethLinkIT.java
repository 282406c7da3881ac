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
import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A server in a network namespace of its own, reached over two real veth links: each client's
 * traffic crosses the link it connected through, and the kernel's counters on our ends see it as
 * Ethernet would carry it (no frame above the MTU). The namespace is gone after close.
 */
class VethLinkIT {

    @ParameterizedTest
    @ValueSource(strings = {"prosody", "ejabberd"})
    void aServerInItsOwnNamespaceIsReachedOverEachLinkAndTheKernelCountsEachLinksTraffic(String kind) throws Exception {
        VethLink link = VethLink.create(2);
        String netns = link.netns();
        try (link) {
            XmppServer server = XmppServers.start(kind, Path.of("target", "it-servers", "veth-" + kind),
                    ServerOptions.DEFAULT.withPlacement(link.placement()));
            try (server) {
                assertThat(server.host()).isEqualTo(link.serverAddress(0)).startsWith("10.231.");
                assertThat(link.serverAddress(1)).startsWith("10.232.");
                XMPPTCPConnection alice = server.newClient("alice");
                InetAddress secondLink = InetAddress.getByName(link.serverAddress(1));
                XMPPTCPConnection bob = server.newClient("bob", b -> b.setHostAddress(secondLink));
                VethLink.Counters aliceBefore = link.counters(0);
                VethLink.Counters bobBefore = link.counters(1);
                String body = "x".repeat(8000);   // several full segments
                try (StanzaCollector inbox = bob.createStanzaCollector(
                        new AndFilter(MessageTypeFilter.CHAT, FromMatchesFilter.createFull(alice.getUser())))) {
                    alice.sendStanza(alice.getStanzaFactory().buildMessageStanza()
                            .to(bob.getUser()).ofType(Message.Type.chat).setBody(body).build());
                    Message received = inbox.nextResult(10_000);
                    assertThat(received).as("chat message through the veth links").isNotNull();
                    assertThat(received.getBody()).isEqualTo(body);
                }
                VethLink.Counters alices = link.counters(0).minus(aliceBefore);
                VethLink.Counters bobs = link.counters(1).minus(bobBefore);
                assertThat(alices.txIpBytes()).as("alice to the server, on link 0").isGreaterThan(8000);
                assertThat(alices.rxIpBytes()).as("only ACKs back to alice").isLessThan(4000);
                assertThat(bobs.rxIpBytes()).as("the server to bob, on link 1").isGreaterThan(8000);
                assertThat(bobs.rxPackets()).as("8 kB in MTU-sized segments").isGreaterThanOrEqualTo(6);
                assertThat((double) bobs.rxBytes() / bobs.rxPackets()).as("mean frame").isLessThanOrEqualTo(VethLink.MTU + 14);
            }
        }
        assertThat(Files.exists(Path.of("/run/netns", netns))).as("namespace " + netns + " deleted").isFalse();
    }
}
