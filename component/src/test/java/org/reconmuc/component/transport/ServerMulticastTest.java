package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.transport.FakeComponentServer.DOMAIN;
import static org.reconmuc.component.transport.FakeComponentServer.SECRET;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.transport.FakeComponentServer.Conn;
import org.xmpp.packet.Message;
import org.xmpp.packet.Presence;

/**
 * The connection finds the server's XEP-0033 service (disco#items of the server, disco#info of
 * each item), probes it, and then sends a room's broadcast once with a bcc address per recipient.
 * The fake server plays the server: it answers the disco and hands the probe's copy back.
 */
class ServerMulticastTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final String SERVICE = "multicast.localhost";
    private static final String ROOM = "room@" + DOMAIN;
    private static final List<String> THREE = List.of("juliet@localhost/balcony", "romeo@localhost/orchard",
            "nurse@localhost/kitchen");

    private FakeComponentServer server;
    private ExternalComponentConnection connection;
    /** A second connection of the same process, where a test needs one. */
    private ExternalComponentConnection other;
    /** The address the server routes back to the connection, which the answers go to. */
    private String home;

    @BeforeEach
    void setUp() throws IOException {
        server = new FakeComponentServer();
    }

    @AfterEach
    void tearDown() throws IOException {
        if (connection != null) {
            connection.close();
        }
        if (other != null) {
            other.close();
        }
        server.close();
    }

    /** Connects and plays the server's side of discovery; {@code answer} is what comes back for the probe with this id. */
    private Conn connectedTo(String serviceFeatures, String form, java.util.function.UnaryOperator<String> answer)
            throws Exception {
        ServiceConfig config = ServiceConfig.builder().server("127.0.0.1", server.port()).domain(DOMAIN).secret(SECRET)
                .maxStanzaBytes(4096).build();
        connection = new ExternalComponentConnection(config, new RecordingComponent(), ExternalComponentConnectionTest.tuning());
        connection.start();
        Conn conn = server.nextConnection(WAIT);
        conn.acceptHandshake();
        // The server routes every address of the domain to this one connection: the first comes back.
        home = firstTried(conn);
        conn.send("<message from='" + DOMAIN + "' to='" + home + "'/>");
        String items = conn.awaitContains("disco#items", WAIT);
        assertThat(items).contains("from=\"" + home + "\"");
        conn.send("<iq type='result' from='localhost' to='" + home + "' id='" + idOf(items, "disco#items") + "'>"
                + "<query xmlns='http://jabber.org/protocol/disco#items'><item jid='conference.localhost'/>"
                + "<item jid='" + SERVICE + "'/></query></iq>");
        String first = conn.await(s -> s.contains("to=\"conference.localhost\""), WAIT, "disco#info of the first item");
        conn.send("<iq type='result' from='conference.localhost' to='" + home + "' id='" + idOf(first, "conference.localhost")
                + "'><query xmlns='http://jabber.org/protocol/disco#info'><feature var='http://jabber.org/protocol/muc'/>"
                + "</query></iq>");
        String second = conn.await(s -> s.contains("<iq type=\"get\" id=\"") && s.contains("to=\"" + SERVICE + "\""), WAIT,
                "disco#info of the multicast service");
        conn.send("<iq type='result' from='" + SERVICE + "' to='" + home + "' id='" + idOf(second, SERVICE) + "'>"
                + "<query xmlns='http://jabber.org/protocol/disco#info'><identity category='service' type='multicast'/>"
                + "<feature var='http://jabber.org/protocol/address'/>" + serviceFeatures + form + "</query></iq>");
        String probe = conn.await(s -> s.contains("<message from=\"reconmuc-multicast-probe-"), WAIT, "the probe");
        Matcher m = Pattern.compile("<message from=\"(reconmuc-multicast-probe-[0-9a-f]+)@" + Pattern.quote(DOMAIN)
                + "\"[^>]*>.*?</message>").matcher(probe);
        assertThat(m.find()).isTrue();
        assertThat(m.group()).contains("to=\"" + SERVICE + "\"").contains("<address type=\"bcc\" jid=\"" + home + "\"/>");
        conn.send(answer.apply(m.group(1)));
        return conn;
    }

    /** The first of the addresses the connection sends itself to find its home. */
    private static String firstTried(Conn conn) throws InterruptedException {
        String tries = conn.await(s -> s.split("<message ", -1).length > ServerMulticast.HOME_BATCH, WAIT,
                "the addresses tried as the connection's home");
        Matcher tried = Pattern.compile("<message from=\"" + Pattern.quote(DOMAIN) + "\" to=\"(reconmuc-multicast-home-[0-9a-f]+@"
                + Pattern.quote(DOMAIN) + ")\"/>").matcher(tries);
        assertThat(tried.find()).as("an address tried in %s", tries).isTrue();
        return tried.group(1);
    }

    /** The copy the probe {@code id} brings back, with {@code extra} in it. */
    private String copy(String id, String extra) {
        return "<message from='" + id + "@" + DOMAIN + "' to='" + home + "' id='" + id + "'>" + extra + "</message>";
    }

    private String clean(String id) {
        return copy(id, "");
    }

    private static String idOf(String received, String marker) {
        Matcher m = Pattern.compile("<iq type=\"get\" id=\"([^\"]+)\"[^>]*>").matcher(received);
        String id = null;
        while (m.find()) {
            if (received.substring(m.start(), Math.min(received.length(), m.end() + 80)).contains(marker)) {
                id = m.group(1);
            }
        }
        assertThat(id).as("an IQ mentioning %s in %s", marker, received).isNotNull();
        return id;
    }

    private void awaitMulticast(String service) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!java.util.Objects.equals(connection.multicastService(), service) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(connection.multicastService()).isEqualTo(service);
    }

    private static RenderedStanza groupchat(String body) {
        Message m = new Message();
        m.setType(Message.Type.groupchat);
        m.setFrom(ROOM + "/Juliet");
        m.setBody(body);
        return RenderedStanza.of(m);
    }

    private static String form(int message, int presence) {
        return "<x xmlns='jabber:x:data' type='result'><field var='FORM_TYPE' type='hidden'>"
                + "<value>http://jabber.org/protocol/address</value></field>"
                + "<field var='message'><value>" + message + "</value></field>"
                + "<field var='presence'><value>" + presence + "</value></field></x>";
    }

    @Test
    void anAddressThatTheServerRoutesToAnotherConnectionIsNotThisOnesHomeAndReachesNoRoom() throws Exception {
        // Two connections of one instance; the server (balancing the domain by bare destination)
        // routes A's first address to B, later the same address to A itself.
        ServiceConfig config = ServiceConfig.builder().server("127.0.0.1", server.port()).domain(DOMAIN).secret(SECRET)
                .maxStanzaBytes(4096).build();
        connection = new ExternalComponentConnection(config, new RecordingComponent(), ExternalComponentConnectionTest.tuning());
        connection.start();
        Conn a = server.nextConnection(WAIT);
        a.acceptHandshake();
        RecordingComponent roomsOfB = new RecordingComponent();
        other = new ExternalComponentConnection(config, roomsOfB, ExternalComponentConnectionTest.tuning());
        other.start();
        Conn b = server.nextConnection(WAIT);
        b.acceptHandshake();
        String tried = firstTried(a);
        int mark = a.mark();

        b.send("<message from='" + DOMAIN + "' to='" + tried + "'/>");
        Thread.sleep(300);
        assertThat(a.receivedSince(mark)).as("A asks nothing from an address whose answers go to B").doesNotContain("<iq");
        assertThat(roomsOfB.packets).as("what B's component got").isEmpty();

        a.send("<message from='" + DOMAIN + "' to='" + tried + "'/>");
        assertThat(a.awaitContainsSince(mark, "disco#items", WAIT)).contains("<iq type=\"get\" id=\"")
                .contains("from=\"" + tried + "\"");
    }

    @Test
    void aNewConnectionOfTheInstanceSendsThroughTheServiceItsSiblingFoundBeforeItsOwnDiscoveryEnds() throws Exception {
        connectedTo("", form(100, 100), this::clean);
        awaitMulticast(SERVICE);
        // Another connection to the same server, taking a bucket: nothing is answered to it.
        other = new ExternalComponentConnection(ServiceConfig.builder().server("127.0.0.1", server.port()).domain(DOMAIN)
                .secret(SECRET).maxStanzaBytes(4096).build(), new RecordingComponent(), ExternalComponentConnectionTest.tuning());
        other.start();
        Conn b = server.nextConnection(WAIT);
        b.acceptHandshake();
        firstTried(b);
        int mark = b.mark();

        other.send(groupchat("to Juliet alone").to("juliet@localhost/balcony"));

        assertThat(b.awaitContainsSince(mark, "</message>", WAIT)).startsWith("<message to=\"" + SERVICE + "\" type=\"groupchat\"")
                .contains("<address type=\"bcc\" jid=\"juliet@localhost/balcony\"/>");
    }

    @Test
    void aRoomsBroadcastCrossesTheLinkOnceWithABccAddressPerRecipient() throws Exception {
        Conn conn = connectedTo("", form(100, 100), this::clean);
        awaitMulticast(SERVICE);
        int mark = conn.mark();

        connection.broadcast(groupchat("wherefore"), THREE);

        String sent = conn.awaitContainsSince(mark, "</message>", WAIT);
        assertThat(sent).isEqualTo("<message to=\"" + SERVICE + "\" type=\"groupchat\" from=\"" + ROOM + "/Juliet\">"
                + "<addresses xmlns=\"http://jabber.org/protocol/address\">"
                + "<address type=\"bcc\" jid=\"juliet@localhost/balcony\"/>"
                + "<address type=\"bcc\" jid=\"romeo@localhost/orchard\"/>"
                + "<address type=\"bcc\" jid=\"nurse@localhost/kitchen\"/></addresses>"
                + "<body>wherefore</body></message>");
        assertThat(connection.multicastStanzas()).isEqualTo(1);
        assertThat(connection.multicastCopies()).isEqualTo(3);
    }

    @Test
    void moreRecipientsThanTheServiceTakesGoInSeveralStanzasAndAnEmptyPresenceGetsItsAddresses() throws Exception {
        Conn conn = connectedTo("", form(5, 2), this::clean);
        awaitMulticast(SERVICE);
        int mark = conn.mark();
        Presence p = new Presence();
        p.setFrom(ROOM + "/Juliet");

        connection.broadcast(RenderedStanza.of(p), THREE);

        String sent = conn.await(s -> conn.receivedSince(mark).split("</presence>", -1).length == 3, WAIT, "two presences");
        assertThat(conn.receivedSince(mark)).isEqualTo(
                "<presence to=\"" + SERVICE + "\" from=\"" + ROOM + "/Juliet\"><addresses xmlns=\"http://jabber.org/protocol/address\">"
                + "<address type=\"bcc\" jid=\"juliet@localhost/balcony\"/><address type=\"bcc\" jid=\"romeo@localhost/orchard\"/>"
                + "</addresses></presence>"
                + "<presence to=\"" + SERVICE + "\" from=\"" + ROOM + "/Juliet\"><addresses xmlns=\"http://jabber.org/protocol/address\">"
                + "<address type=\"bcc\" jid=\"nurse@localhost/kitchen\"/></addresses></presence>");
        assertThat(sent).isNotNull();
    }

    @Test
    void aServiceThatDoesNotPromiseOrderCarriesTheRoomsSingleStanzasTooButNotErrorsOrIqs() throws Exception {
        Conn conn = connectedTo("", form(100, 100), this::clean);
        awaitMulticast(SERVICE);
        int mark = conn.mark();

        connection.send(groupchat("to Juliet alone").to("juliet@localhost/balcony"));
        Message error = new Message();
        error.setType(Message.Type.error);
        error.setFrom(ROOM);
        connection.send(RenderedStanza.of(error).to("romeo@localhost/orchard"));

        String sent = conn.awaitContainsSince(mark, "type=\"error\"", WAIT);
        assertThat(sent).startsWith("<message to=\"" + SERVICE + "\" type=\"groupchat\"")
                .contains("<address type=\"bcc\" jid=\"juliet@localhost/balcony\"/>")
                .endsWith("<message to=\"romeo@localhost/orchard\" type=\"error\" from=\"" + ROOM + "\"/>");
    }

    @Test
    void aServiceThatKeepsOrderLeavesSingleStanzasDirect() throws Exception {
        Conn conn = connectedTo("<feature var='" + ServerMulticast.IN_ORDER + "'/>", form(100, 100), this::clean);
        awaitMulticast(SERVICE);
        int mark = conn.mark();

        connection.send(groupchat("to Juliet alone").to("juliet@localhost/balcony"));
        connection.broadcast(groupchat("to all"), THREE);

        String sent = conn.await(s -> conn.receivedSince(mark).split("</message>", -1).length == 3, WAIT, "two messages");
        assertThat(conn.receivedSince(mark)).startsWith("<message to=\"juliet@localhost/balcony\"")
                .contains("<message to=\"" + SERVICE + "\"");
        assertThat(sent).isNotNull();
    }

    @Test
    void aServiceThatLeavesItsAddressesOnTheCopiesIsNotUsed() throws Exception {
        // Openfire 5.1.1 delivers each copy with an empty <addresses/> still on it.
        Conn conn = connectedTo("", "", id -> copy(id, "<addresses xmlns='http://jabber.org/protocol/address'/>"));
        Thread.sleep(300);
        assertThat(connection.multicastService()).isNull();
        int mark = conn.mark();

        connection.broadcast(groupchat("each alone"), THREE);

        String sent = conn.await(s -> conn.receivedSince(mark).split("</message>", -1).length == 4, WAIT, "three copies");
        assertThat(conn.receivedSince(mark)).doesNotContain("addresses").contains("to=\"juliet@localhost/balcony\"")
                .contains("to=\"romeo@localhost/orchard\"").contains("to=\"nurse@localhost/kitchen\"");
        assertThat(sent).isNotNull();
        assertThat(connection.multicastStanzas()).isZero();
    }

    @Test
    void aServiceThatRefusesUsIsNotUsed() throws Exception {
        connectedTo("", form(100, 100), id -> "<message type='error' from='" + SERVICE + "' to='" + id + "@" + DOMAIN
                + "' id='" + id + "'><error type='auth'><forbidden xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></message>");
        Thread.sleep(300);
        assertThat(connection.multicastService()).isNull();
    }

    @Test
    void theLimitIsTheSmallerOfTheMessageAndPresenceFieldsOrTwentyWhenNotSaid() throws Exception {
        org.dom4j.Element info = org.dom4j.DocumentHelper.parseText("<query xmlns='http://jabber.org/protocol/disco#info'>"
                + form(50, 30) + "</query>").getRootElement();
        assertThat(ServerMulticast.maxAddresses(info)).isEqualTo(30);
        org.dom4j.Element none = org.dom4j.DocumentHelper.parseText("<query xmlns='http://jabber.org/protocol/disco#info'/>")
                .getRootElement();
        assertThat(ServerMulticast.maxAddresses(none)).isEqualTo(ServerMulticast.DEFAULT_MAX_ADDRESSES);
    }

    @Test
    void anAttributeValueWithAnAngleBracketDoesNotEndTheStartTag() {
        Message m = new Message();
        m.setFrom(ROOM + "/a>b");
        m.setBody("x");
        assertThat(RenderedStanza.of(m).multicast(SERVICE, List.of("juliet@localhost/balcony")))
                .isEqualTo("<message to=\"" + SERVICE + "\" from=\"" + ROOM + "/a&gt;b\"><addresses xmlns="
                        + "\"http://jabber.org/protocol/address\"><address type=\"bcc\" jid=\"juliet@localhost/balcony\"/>"
                        + "</addresses><body>x</body></message>");
    }
}
