package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.codec.XmlNamespaces;
import org.xmpp.component.Component;
import org.xmpp.component.ComponentManager;
import org.xmpp.component.IQResultListener;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * The service inside a server (Openfire's plugin): what it sends goes to the ComponentManager as
 * packets whose DOM holds everything, since such a server reads the DOM, not {@code toXML()}.
 */
class InProcessDeliveryTest {
    private static final String ROOM = "lobby@" + MucBench.SERVICE;
    private static final String ALICE = "alice@wonderland.lit/laptop";
    private static final String BOB = "bob@builder.lit/phone";

    /** Openfire's side of the hand-over, reduced to what the service uses. */
    private static final class ServerSide implements ComponentManager {
        final List<Packet> routed = new ArrayList<>();

        @Override
        public void sendPacket(Component component, Packet packet) {
            routed.add(packet);
        }

        @Override
        public void addComponent(String subdomain, Component component) {
        }

        @Override
        public void removeComponent(String subdomain) {
        }

        @Override
        public IQ query(Component component, IQ packet, long timeout) {
            return null;
        }

        @Override
        public void query(Component component, IQ packet, IQResultListener listener) {
        }

        @Override
        public String getProperty(String name) {
            return null;
        }

        @Override
        public void setProperty(String name, String value) {
        }

        @Override
        public String getServerName() {
            return "wonderland.lit";
        }

        @Override
        public boolean isExternalMode() {
            return false;
        }
    }

    private static Packet stanza(String xml) throws Exception {
        Element e = DocumentHelper.parseText(xml).getRootElement();
        return switch (e.getName()) {
            case "presence" -> new Presence(e);
            case "iq" -> new IQ(e);
            default -> new Message(e);
        };
    }

    @Test
    void aliceReceivesHerBatchAsAMessageWhoseDomHoldsTheBatch() throws Exception {
        ServerSide server = new ServerSide();
        MucService service = new MucService(ServiceConfig.defaults().withDomainAndSecret(MucBench.SERVICE, "x"),
                Clock.systemUTC(), Runnable::run, null, (delay, task) -> { }, RoomFeatures.ALL);
        service.initialize(new JID(MucBench.SERVICE), server);
        service.processPacket(stanza("<presence from='" + ALICE + "' to='" + ROOM + "/Alice'/>"));
        service.processPacket(stanza("<presence from='" + BOB + "' to='" + ROOM + "/Bob'/>"));
        service.processPacket(stanza("<iq from='" + ALICE + "' to='" + ROOM + "' type='set' id='r'>"
                + "<consistency-requirements xmlns='urn:reconmuc:0'><volume>2</volume></consistency-requirements></iq>"));
        service.processPacket(stanza("<message from='" + BOB + "' to='" + ROOM + "' type='groupchat'><body>one</body></message>"));
        service.processPacket(stanza("<message from='" + BOB + "' to='" + ROOM + "' type='groupchat'><body>two</body></message>"));

        Message batch = server.routed.stream()
                .filter(p -> p instanceof Message m && ALICE.equals(String.valueOf(m.getTo()))
                        && m.getElement().element(QName.get("batch", XmlNamespaces.RECONMUC)) != null)
                .map(p -> (Message) p).findFirst()
                .orElseThrow(() -> new AssertionError("no batch with its content in the DOM: " + server.routed));
        assertThat(batch.getClass()).isEqualTo(Message.class);
        assertThat(batch.getElement().element(QName.get("batch", XmlNamespaces.RECONMUC)).elements()).hasSize(2);
    }
}
