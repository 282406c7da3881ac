package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.reconmuc.component.transport.FakeComponentServer.DOMAIN;
import static org.reconmuc.component.transport.FakeComponentServer.SECRET;
import static org.reconmuc.component.transport.FakeComponentServer.sha1Hex;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.transport.ExternalComponentConnection.Tuning;
import org.reconmuc.component.transport.FakeComponentServer.Conn;
import org.xmpp.component.ComponentException;
import org.xmpp.component.IQResultListener;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.PacketError;
import org.xmpp.packet.Presence;

import ch.qos.logback.classic.Level;

class ExternalComponentConnectionTest {

    private static final Duration WAIT = Duration.ofSeconds(3);
    private static final String STREAM_ERRORS = "urn:ietf:params:xml:ns:xmpp-streams";
    private static final String ROOM = "room@" + DOMAIN;

    @RegisterExtension
    final LogCapture logs = new LogCapture();

    private FakeComponentServer server;
    private RecordingComponent component;
    private ExternalComponentConnection connection;

    @BeforeEach
    void setUp() throws IOException {
        server = new FakeComponentServer();
        component = new RecordingComponent();
    }

    @AfterEach
    void tearDown() throws IOException {
        if (connection != null) {
            connection.close();
        }
        server.close();
    }

    static ServiceConfig config(int port) {
        return config(port, 4096, Duration.ofSeconds(30));
    }

    static ServiceConfig config(int port, int maxStanzaBytes, Duration keepalive) {
        return ServiceConfig.builder().server("127.0.0.1", port).domain(DOMAIN).secret(SECRET)
                .maxStanzaBytes(maxStanzaBytes).keepaliveInterval(keepalive).reconnectMaxBackoff(Duration.ofMillis(200))
                .multicast(false)   // these tests read the stream stanza by stanza; ServerMulticastTest plays the disco
                .build();
    }

    static Tuning tuning() {
        return new Tuning(Duration.ofMillis(50), Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(1),
                Duration.ofSeconds(3), 32L << 20, Duration.ofSeconds(2));
    }

    private ExternalComponentConnection start(ServiceConfig config) throws ComponentException {
        return start(config, tuning());
    }

    private ExternalComponentConnection start(ServiceConfig config, Tuning tuning) throws ComponentException {
        connection = new ExternalComponentConnection(config, component, tuning);
        connection.start();
        return connection;
    }

    /** Starts a connection to the fake server and plays a successful handshake. */
    private Conn connected() throws Exception {
        return connected(config(server.port()));
    }

    private Conn connected(ServiceConfig config) throws Exception {
        start(config);
        Conn conn = server.nextConnection(WAIT);
        conn.acceptHandshake();
        assertThat(connection.awaitConnected(WAIT)).isTrue();
        return conn;
    }

    private Termination awaitTermination() {
        return assertTimeoutPreemptively(WAIT, () -> connection.awaitTermination());
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting for " + what);
            }
            Thread.sleep(5);
        }
    }

    private static int unusedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String message(String id, String body) {
        return "<message from='juliet@localhost/balcony' to='" + ROOM + "/Juliet' type='groupchat' id='" + id + "'>"
                + "<body>" + body + "</body></message>";
    }

    private static Message outgoing(String id, String body) {
        Message m = new Message();
        m.setFrom(new JID(ROOM + "/nick"));
        m.setTo(new JID("juliet@localhost/balcony"));
        m.setType(Message.Type.groupchat);
        m.setID(id);
        m.setBody(body);
        return m;
    }

    // ------------------------------------------------------------------ handshake

    @ParameterizedTest
    @ValueSource(strings = {"<handshake/>", "<handshake></handshake>", "<handshake />"})
    void handshakeSendsLowercaseHexSha1OfStreamIdAndSecret(String serverReply) throws Exception {
        start(config(server.port()));
        Conn conn = server.nextConnection(WAIT);

        String header = conn.openStream("3BF96D32");
        assertThat(header).isEqualTo("<?xml version='1.0'?><stream:stream xmlns='jabber:component:accept'"
                + " xmlns:stream='http://etherx.jabber.org/streams' to='reconmuc.localhost'>");
        assertThat(conn.awaitHandshake()).matches("[0-9a-f]{40}").isEqualTo(sha1Hex("3BF96D32" + SECRET));
        assertThat(connection.isConnected()).isFalse();

        conn.send(serverReply);
        assertThat(connection.awaitConnected(WAIT)).isTrue();
        await(() -> component.connects.get() == 1, "connected()");
        assertThat(component.jid).isEqualTo(new JID(DOMAIN));
        assertThat(component.manager).isSameAs(connection);
        assertThat(List.copyOf(component.events)).containsExactly("initialize", "start", "connected");
        assertThat(logs.messages(Level.INFO)).contains("component connected to 127.0.0.1:" + server.port() + " as " + DOMAIN);
    }

    @Test
    void wrongSecretTerminatesWithAuthenticationFailedAndOneErrorLine() throws Exception {
        start(config(server.port()));
        Conn conn = server.nextConnection(WAIT);
        conn.openStream("abc");
        conn.awaitHandshake();
        conn.send("<stream:error><not-authorized xmlns='" + STREAM_ERRORS + "'/><text xmlns='" + STREAM_ERRORS
                + "'>Given token does not match calculated token</text></stream:error></stream:stream>");

        assertThat(awaitTermination()).isEqualTo(Termination.AUTHENTICATION_FAILED);
        assertThat(logs.messages(Level.ERROR)).containsExactly(
                "component handshake refused: wrong secret for reconmuc.localhost at 127.0.0.1:" + server.port());
        assertThat(conn.awaitEof(WAIT)).isTrue();
        assertThat(server.noConnectionWithin(Duration.ofMillis(300))).as("no reconnect").isTrue();
        assertThat(component.starts.get()).isZero();
        assertThat(connection.awaitConnected(Duration.ofMillis(10))).isFalse();

        connection.close();
        assertThat(component.shutdowns.get()).isEqualTo(1);
        assertThat(awaitTermination()).isEqualTo(Termination.AUTHENTICATION_FAILED);
    }

    @Test
    void otherStreamErrorsAreLoggedAndRetried() throws Exception {
        start(config(server.port()));
        Conn conn = server.nextConnection(WAIT);
        conn.openStream("abc");
        conn.awaitHandshake();
        conn.send("<stream:error><conflict xmlns='" + STREAM_ERRORS + "'/><text xmlns='" + STREAM_ERRORS
                + "'>Replaced by new connection</text></stream:error></stream:stream>");
        conn.awaitContains("</stream:stream>", WAIT);
        assertThat(conn.awaitEof(WAIT)).isTrue();

        Conn second = server.nextConnection(WAIT);
        second.acceptHandshake();
        assertThat(connection.awaitConnected(WAIT)).isTrue();
        assertThat(logs.messages(Level.WARN))
                .anyMatch(m -> m.contains("'conflict'") && m.contains("Replaced by new connection"));
        assertThat(logs.messages(Level.ERROR)).isEmpty();
    }

    // ------------------------------------------------------------------ reconnecting

    @Test
    void connectsOnceTheServerComesUpWarningOnlyOnce() throws Exception {
        int port = unusedPort();
        start(config(port));
        // Attempts at about 0, 50, 100, 200, 400 ms are all refused; wait (bounded) for several.
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (logs.messages(Level.DEBUG).stream().filter(m -> m.startsWith("component connection attempt")).count() < 3
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(connection.isConnected()).isFalse();
        assertThat(logs.messages(Level.WARN)).hasSize(1)
                .allMatch(m -> m.contains("127.0.0.1:" + port) && m.contains("Connection refused"));
        assertThat(logs.messages(Level.DEBUG)).anyMatch(m -> m.startsWith("component connection attempt"));

        try (FakeComponentServer late = new FakeComponentServer(port)) {
            Conn conn = late.nextConnection(WAIT);
            conn.acceptHandshake();
            assertThat(connection.awaitConnected(WAIT)).isTrue();
            assertThat(logs.messages(Level.INFO)).anyMatch(m -> m.startsWith("component reconnected to 127.0.0.1:" + port));
            assertThat(logs.messages(Level.WARN)).hasSize(1);
            await(() -> component.connects.get() == 1, "connected()");
            assertThat(component.starts.get()).isEqualTo(1);
            connection.close();
        }
    }

    @Test
    void lostConnectionIsReportedAndReestablished() throws Exception {
        Conn first = connected();
        await(() -> component.connects.get() == 1, "connected()");
        first.close();

        await(() -> component.disconnects.get() == 1, "disconnected()");
        Conn second = server.nextConnection(WAIT);
        second.acceptHandshake();
        await(() -> component.connects.get() == 2, "second connected()");
        assertThat(connection.awaitConnected(WAIT)).isTrue();
        assertThat(component.starts.get()).isEqualTo(1);
        assertThat(List.copyOf(component.events))
                .containsExactly("initialize", "start", "connected", "disconnected", "connected");
        assertThat(logs.messages(Level.WARN)).hasSize(1).allMatch(m -> m.contains("lost"));

        // The new connection works.
        second.send(message("after", "back"));
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("after");
    }

    @Test
    void serverClosingTheStreamIsAnsweredAndReconnected() throws Exception {
        Conn first = connected();
        int mark = first.mark();
        first.send("</stream:stream>");
        first.awaitContainsSince(mark, "</stream:stream>", WAIT);
        assertThat(first.awaitEof(WAIT)).isTrue();
        await(() -> component.disconnects.get() == 1, "disconnected()");
        server.nextConnection(WAIT).acceptHandshake();
        await(() -> component.connects.get() == 2, "second connected()");
    }

    @Test
    void packetsSentWhileDisconnectedAreKeptAndSentOnceConnected() throws Exception {
        int port = unusedPort();
        start(config(port));
        connection.sendPacket(component, outgoing("m1", "kept for later"));
        connection.sendPacket(component, outgoing("m2", "and this"));
        assertThat(connection.queuedStanzas()).isEqualTo(2);

        try (FakeComponentServer late = new FakeComponentServer(port)) {
            Conn conn = late.nextConnection(WAIT);
            conn.acceptHandshake();
            String out = conn.awaitContains("id=\"m2\"", WAIT);
            assertThat(out.indexOf("id=\"m1\"")).isPositive().isLessThan(out.indexOf("id=\"m2\""));
            assertThat(out.indexOf("<handshake>")).isLessThan(out.indexOf("id=\"m1\""));
            connection.close();
        }
        assertThat(connection.refusedWhileDisconnected()).isZero();
    }

    @Test
    void whatWaitsForAStanzaToBeWrittenRunsOnlyOnceTheNextConnectionWroteItAndNeverAfterClose() throws Exception {
        int port = unusedPort();
        start(config(port));
        connection.sendPacket(component, outgoing("m1", "not yet written"));
        java.util.concurrent.CountDownLatch written = new java.util.concurrent.CountDownLatch(1);
        connection.whenWritten(written::countDown);
        assertThat(written.await(300, java.util.concurrent.TimeUnit.MILLISECONDS)).as("no server yet").isFalse();

        try (FakeComponentServer late = new FakeComponentServer(port)) {
            Conn conn = late.nextConnection(WAIT);
            conn.acceptHandshake();
            assertThat(written.await(WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)).isTrue();
            conn.awaitContains("id=\"m1\"", WAIT);
            connection.close();
        }
        boolean[] ranAfterClose = new boolean[1];
        connection.whenWritten(() -> ranAfterClose[0] = true);
        assertThat(ranAfterClose[0]).isFalse();
    }

    @Test
    void pastTheBoundWhileDisconnectedTheOldestAreRefusedCountedAndLogged() throws Exception {
        int port = unusedPort();
        start(config(port), tuning().withMaxQueuedChars(2_000));
        String body = "x".repeat(400);
        for (int i = 0; i < 20; i++) {
            connection.sendPacket(component, outgoing("d" + i, body));   // ~500 chars each
        }
        assertThat(connection.refusedWhileDisconnected()).isBetween(14L, 17L);
        assertThat(connection.queuedChars()).isLessThanOrEqualTo(2_000);
        assertThat(logs.messages(Level.WARN)).anyMatch(m -> m.contains("refused the oldest stanzas"));

        try (FakeComponentServer late = new FakeComponentServer(port)) {
            Conn conn = late.nextConnection(WAIT);
            conn.acceptHandshake();
            String out = conn.awaitContains("id=\"d19\"", WAIT);   // the newest are kept, in order
            assertThat(out).doesNotContain("id=\"d0\"");
            connection.close();
        }
    }

    // ------------------------------------------------------------------ receiving

    @Test
    void stanzasArriveInOrderWithTheirNamespacesOnTheReaderThread() throws Exception {
        Conn conn = connected();
        conn.send("<message from='juliet@localhost/balcony' to='" + ROOM + "/Juliet' type='groupchat' id='m1'>"
                + "<body>hi &amp; &lt;bye&gt;</body><x xmlns='http://jabber.org/protocol/muc'/>"
                + "<origin-id xmlns='urn:xmpp:sid:0' id='o1'/></message>"
                + "<presence from='romeo@localhost/orchard' to='" + ROOM + "/Romeo' xml:lang='en'>"
                + "<x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='5'/></x>"
                + "<p:custom xmlns:p='urn:example:p' p:attr='v'/></presence>"
                + "<iq from='romeo@localhost/orchard' to='" + DOMAIN + "' type='get' id='q1'>"
                + "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>");

        Message m = (Message) component.nextPacket(WAIT);
        assertThat(m.toXML()).isEqualTo("<message from=\"juliet@localhost/balcony\" to=\"room@reconmuc.localhost/Juliet\""
                + " type=\"groupchat\" id=\"m1\"><body>hi &amp; &lt;bye&gt;</body>"
                + "<x xmlns=\"http://jabber.org/protocol/muc\"/><origin-id xmlns=\"urn:xmpp:sid:0\" id=\"o1\"/></message>");
        assertThat(m.getBody()).isEqualTo("hi & <bye>");
        assertThat(m.getType()).isEqualTo(Message.Type.groupchat);
        assertThat(m.getFrom()).isEqualTo(new JID("juliet@localhost/balcony"));
        assertThat(m.getTo()).isEqualTo(new JID(ROOM + "/Juliet"));
        assertThat(m.getChildElement("x", "http://jabber.org/protocol/muc")).isNotNull();
        assertThat(m.getExtension("origin-id", "urn:xmpp:sid:0").getElement().attributeValue("id")).isEqualTo("o1");

        Presence p = (Presence) component.nextPacket(WAIT);
        assertThat(p.toXML()).isEqualTo("<presence from=\"romeo@localhost/orchard\" to=\"room@reconmuc.localhost/Romeo\""
                + " xml:lang=\"en\"><x xmlns=\"http://jabber.org/protocol/muc\"><history maxstanzas=\"5\"/></x>"
                + "<p:custom xmlns:p=\"urn:example:p\" p:attr=\"v\"/></presence>");
        assertThat(p.getChildElement("x", "http://jabber.org/protocol/muc").element("history")
                .attributeValue("maxstanzas")).isEqualTo("5");

        IQ iq = (IQ) component.nextPacket(WAIT);
        assertThat(iq.getType()).isEqualTo(IQ.Type.get);
        assertThat(iq.getChildElement().getNamespaceURI()).isEqualTo("http://jabber.org/protocol/disco#info");
        assertThat(component.packetThread).startsWith("reconmuc-component-reader-");
    }

    @Test
    void tinderRepliesBuiltFromReceivedPacketsRenderWithoutStrayNamespaces() throws Exception {
        Conn conn = connected();
        conn.send(message("m1", "hello"));
        Message m = (Message) component.nextPacket(WAIT);

        Message error = m.createCopy();
        error.setTo(m.getFrom());
        error.setFrom(m.getTo());
        error.setError(PacketError.Condition.forbidden);
        assertThat(error.toXML()).doesNotContain("xmlns=\"\"").endsWith("<body>hello</body><error code=\"403\" type=\"auth\">"
                + "<forbidden xmlns=\"urn:ietf:params:xml:ns:xmpp-stanzas\"/></error></message>");

        Message edited = m.createCopy();
        edited.setBody("changed");
        edited.setSubject("topic");
        edited.getElement().add(org.dom4j.DocumentHelper.createElement("thread"));
        assertThat(edited.toXML()).doesNotContain("xmlns=");

        // And the same packet round-trips through sendPacket to the server unchanged.
        int mark = conn.mark();
        connection.sendPacket(component, error);
        assertThat(conn.awaitContainsSince(mark, "</message>", WAIT)).isEqualTo(error.toXML());
    }

    @Test
    void manyStanzasInFragmentedWritesArriveInOrder() throws Exception {
        Conn conn = connected();
        int n = 300;
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < n; i++) {
            String s = "<message from='u" + i + "@localhost/r' to='" + ROOM + "' id='" + i + "' a='x>/y' b=\"it's\">"
                    + "<body>é€𝄞 " + i + " <![CDATA[<not a tag/> ]] ]]>&#x41;&#66;</body>"
                    + "<x xmlns='urn:example:x'><y z='/>'/></x></message>" + (i % 7 == 0 ? " \n\t" : "");
            all.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        }
        byte[] bytes = all.toByteArray();
        Random random = new Random(42);
        for (int at = 0; at < bytes.length; ) {
            int len = Math.min(bytes.length - at, 1 + random.nextInt(60));
            conn.sendBytes(Arrays.copyOfRange(bytes, at, at + len));
            at += len;
        }
        for (int i = 0; i < n; i++) {
            Message m = (Message) component.nextPacket(WAIT);
            assertThat(m.getID()).isEqualTo(String.valueOf(i));
            assertThat(m.getBody()).isEqualTo("é€𝄞 " + i + " <not a tag/> ]] AB");
            assertThat(m.getElement().attributeValue("a")).isEqualTo("x>/y");
            assertThat(m.getChildElement("x", "urn:example:x").element("y").attributeValue("z")).isEqualTo("/>");
        }
    }

    @Test
    void anExceptionFromProcessPacketDoesNotBreakTheConnection() throws Exception {
        component.onPacket = p -> {
            if ("boom".equals(p.getID())) {
                throw new IllegalStateException("boom");
            }
            if ("deep".equals(p.getID())) {
                throw new StackOverflowError();
            }
        };
        Conn conn = connected();
        conn.send(message("boom", "1") + message("deep", "2") + message("after", "3"));
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("boom");
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("deep");
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("after");
        assertThat(server.noConnectionWithin(Duration.ofMillis(100))).isTrue();
        assertThat(component.disconnects.get()).isZero();
        assertThat(connection.isConnected()).isTrue();
        assertThat(logs.messages(Level.ERROR)).anyMatch(m -> m.contains("failed to process"));
    }

    @Test
    void aStanzaWithAnUnusableAddressIsAnsweredNotDelivered() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        conn.send("<message from='juliet@localhost/balcony' to='" + ROOM + "/' id='bad'><body>x</body></message>"
                + message("good", "y"));
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("good");
        String bounce = conn.awaitContainsSince(mark, "</message>", WAIT);
        assertThat(bounce).contains("to=\"juliet@localhost/balcony\"", "id=\"bad\"", "type=\"error\"", "<jid-malformed ");
        assertThat(component.packets).isEmpty();
    }

    // ------------------------------------------------------------------ size and depth limits

    @Test
    void oversizedStanzaIsBouncedWithPolicyViolationAndTheNextOneDelivered() throws Exception {
        Conn conn = connected(config(server.port(), 1024, Duration.ofSeconds(30)));
        int mark = conn.mark();
        conn.send(message("big1", "x".repeat(5000)) + message("small1", "hi"));

        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("small1");
        String bounce = conn.awaitContainsSince(mark, "</message>", WAIT);
        assertThat(bounce).isEqualTo("<message from=\"room@reconmuc.localhost/Juliet\" to=\"juliet@localhost/balcony\""
                + " id=\"big1\" type=\"error\"><error type=\"modify\">"
                + "<policy-violation xmlns=\"urn:ietf:params:xml:ns:xmpp-stanzas\"/>"
                + "<text xmlns=\"urn:ietf:params:xml:ns:xmpp-stanzas\">Stanza too large: limit is 1024 bytes</text>"
                + "</error></message>");
        assertThat(connection.discardedIncoming()).isEqualTo(1);
        assertThat(component.packets).isEmpty();
        assertThat(connection.isConnected()).isTrue();
    }

    @Test
    void theLimitIsInBytesExactly() throws Exception {
        Conn conn = connected(config(server.port(), 1024, Duration.ofSeconds(30)));
        int envelope = message("exact", "").getBytes(StandardCharsets.UTF_8).length;
        String exact = message("exact", "a".repeat(1024 - envelope));
        String oneMore = message("exact", "a".repeat(1024 - envelope + 1));
        // 3-byte characters: fewer than 1024 chars, more than 1024 bytes.
        String euros = message("euros", "€".repeat(350));
        assertThat(exact.getBytes(StandardCharsets.UTF_8)).hasSize(1024);
        assertThat(oneMore.getBytes(StandardCharsets.UTF_8)).hasSize(1025);
        assertThat(euros.length()).isLessThan(1024);
        assertThat(euros.getBytes(StandardCharsets.UTF_8).length).isGreaterThan(1024);

        conn.send(exact + oneMore + euros + message("last", "z"));
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("exact");
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("last");
        assertThat(connection.discardedIncoming()).isEqualTo(2);
    }

    @Test
    void oversizedErrorsAreNotAnsweredAndOtherKindsAreAnsweredInKind() throws Exception {
        Conn conn = connected(config(server.port(), 1024, Duration.ofSeconds(30)));
        int mark = conn.mark();
        String pad = "x".repeat(2000);
        conn.send("<message from='juliet@localhost/balcony' to='" + ROOM + "' type='error' id='e1'><body>" + pad + "</body></message>"
                + "<iq from='juliet@localhost/balcony' to='" + DOMAIN + "' type='set' id='i1'><query xmlns='urn:x'>" + pad + "</query></iq>"
                + "<presence from='juliet@localhost/balcony' to='" + ROOM + "/J' id='p1'><status>" + pad + "</status></presence>"
                + message("last", "z"));
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("last");
        String out = conn.awaitContainsSince(mark, "</presence>", WAIT);
        assertThat(out).startsWith("<iq from=\"reconmuc.localhost\" to=\"juliet@localhost/balcony\" id=\"i1\" type=\"error\">")
                .contains("</iq><presence from=\"room@reconmuc.localhost/J\" to=\"juliet@localhost/balcony\" id=\"p1\" type=\"error\">")
                .doesNotContain("e1");
        assertThat(connection.discardedIncoming()).isEqualTo(3);
    }

    @Test
    void tooDeeplyNestedStanzaIsBounced() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        String deep = "<a>".repeat(200) + "</a>".repeat(200);
        conn.send(message("deep", deep) + message("next", "ok"));
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("next");
        assertThat(conn.awaitContainsSince(mark, "</message>", WAIT))
                .contains("id=\"deep\"", "<policy-violation ", "Stanza nested too deeply: limit is 128 levels");
    }

    // ------------------------------------------------------------------ one bad stanza costs only itself

    /** Mallory's hostile stanza, then Juliet's ordinary one: Juliet's arrives on the same stream. */
    private void theStreamGoesOnAfter(Conn conn) throws Exception {
        conn.send(message("after", "still here"));
        Packet next = component.nextPacket(WAIT);
        while (next != null && !"after".equals(next.getID())) {
            next = component.nextPacket(WAIT);
        }
        assertThat(next).as("the stanza after the hostile one").isNotNull();
        assertThat(connection.isConnected()).isTrue();
        assertThat(component.connects.get()).as("handshakes").isEqualTo(1);
        assertThat(component.disconnects.get()).isZero();
        assertThat(conn.received()).doesNotContain("<stream:error>");
    }

    private static final String MALLORY = "mallory@localhost/evil";

    @Test
    void aMessageToTheServiceWithAnElementNameOf1100CharactersIsDeliveredAndTheStreamGoesOn() throws Exception {
        Conn conn = connected();
        String name = "n".repeat(1100);
        conn.send("<message from='" + MALLORY + "' to='" + DOMAIN + "' id='m1'><" + name + " xmlns='urn:x'/></message>");
        Packet p = component.nextPacket(WAIT);
        assertThat(p.getID()).isEqualTo("m1");
        assertThat(p.getElement().element(name)).isNotNull();
        theStreamGoesOnAfter(conn);
    }

    @Test
    void aGroupchatWithAnAttributeNameOf1100CharactersIsDeliveredAndTheStreamGoesOn() throws Exception {
        Conn conn = connected();
        conn.send("<message from='" + MALLORY + "' to='" + ROOM + "' type='groupchat' id='m2' " + "a".repeat(1100)
                + "='x'><body>hi</body></message>");
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("m2");
        theStreamGoesOnAfter(conn);
    }

    @Test
    void aChildWith10050AttributesIsRefusedWithPolicyViolationAndTheStreamGoesOn() throws Exception {
        Conn conn = connected(config(server.port(), 256 * 1024, Duration.ofSeconds(30)));
        int mark = conn.mark();
        StringBuilder attrs = new StringBuilder();
        for (int i = 0; i < 10_050; i++) {
            attrs.append(" a").append(i).append("='1'");
        }
        String stanza = "<message from='" + MALLORY + "' to='" + ROOM + "' type='groupchat' id='m3'><body>hi</body>"
                + "<x xmlns='urn:x'" + attrs + "/></message>";
        assertThat(stanza.length()).isBetween(80_000, 100_000);
        conn.send(stanza);
        assertThat(conn.awaitContainsSince(mark, "</message>", WAIT)).contains("id=\"m3\"", "<policy-violation ",
                "Too many attributes on one element: limit is 1000");
        theStreamGoesOnAfter(conn);
    }

    @Test
    void aThousandAttributesOnOneElementAreDelivered() throws Exception {
        Conn conn = connected(config(server.port(), 256 * 1024, Duration.ofSeconds(30)));
        StringBuilder attrs = new StringBuilder();
        for (int i = 0; i < XmlLimits.MAX_ATTRIBUTES; i++) {
            attrs.append(" a").append(i).append("='1'");
        }
        conn.send("<message from='" + MALLORY + "' to='" + ROOM + "' type='groupchat' id='m4'><body>hi</body>"
                + "<x xmlns='urn:x'" + attrs + "/></message>");
        Packet p = component.nextPacket(WAIT);
        assertThat(p.getID()).isEqualTo("m4");
        assertThat(p.getElement().element("x").attributeCount()).isEqualTo(XmlLimits.MAX_ATTRIBUTES);
        theStreamGoesOnAfter(conn);
    }

    @Test
    void nestingIsCountedTheSameByFramerAndParserEmptyElementsToo() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        int a = XmlLimits.MAX_DEPTH - 3;   // <message> is level 1, <body> 2, so <b/> is at 128
        conn.send(message("deepest", "<a>".repeat(a) + "<b/>" + "</a>".repeat(a)));
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("deepest");
        conn.send(message("deeper", "<a>".repeat(a + 1) + "<b/>" + "</a>".repeat(a + 1)));
        assertThat(conn.awaitContainsSince(mark, "</message>", WAIT))
                .contains("id=\"deeper\"", "<policy-violation ", "Stanza nested too deeply: limit is 128 levels");
        theStreamGoesOnAfter(conn);
    }

    @Test
    void aHugeTextNodeIsDeliveredWithinTheLimitAndRefusedPastItAndTheStreamGoesOn() throws Exception {
        Conn conn = connected(config(server.port(), 256 * 1024, Duration.ofSeconds(30)));
        int mark = conn.mark();
        conn.send(message("text1", "&lt;&#x1F600;".repeat(18_000)));   // 234,000 bytes of references
        assertThat(((Message) component.nextPacket(WAIT)).getBody()).hasSize(18_000 * 3);
        conn.send(message("text2", "x".repeat(300_000)));
        assertThat(conn.awaitContainsSince(mark, "</message>", WAIT))
                .contains("id=\"text2\"", "<policy-violation ", "Stanza too large: limit is 262144 bytes");
        theStreamGoesOnAfter(conn);
    }

    @Test
    void aStanzaTheParserRefusesIsAnsweredWithBadRequestAndTheStreamGoesOn() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        conn.send("<message from='" + MALLORY + "' to='" + ROOM + "' type='groupchat' id='p1'><u:x/></message>");
        String bounce = conn.awaitContainsSince(mark, "</message>", WAIT);
        assertThat(bounce).isEqualTo("<message from=\"" + ROOM + "\" to=\"" + MALLORY + "\" id=\"p1\" type=\"error\">"
                + "<error type=\"modify\"><bad-request xmlns=\"urn:ietf:params:xml:ns:xmpp-stanzas\"/>"
                + "<text xmlns=\"urn:ietf:params:xml:ns:xmpp-stanzas\">Stanza is not well-formed XML</text></error></message>");
        assertThat(connection.discardedIncoming()).isEqualTo(1);
        theStreamGoesOnAfter(conn);
    }

    @Test
    void aStanzaWhoseOwnStartTagTheParserRefusesIsAnsweredFromWhatTheFramerSaw() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        // Twice the same attribute: not well-formed, so the parser cannot read the start tag either.
        conn.send("<iq from='" + MALLORY + "' to='" + DOMAIN + "' type='get' id='q1' a='1' a='2'><query xmlns='urn:x'/></iq>");
        assertThat(conn.awaitContainsSince(mark, "</iq>", WAIT))
                .startsWith("<iq from=\"" + DOMAIN + "\" to=\"" + MALLORY + "\" id=\"q1\" type=\"error\">")
                .contains("<bad-request ", "Stanza is not well-formed XML");
        theStreamGoesOnAfter(conn);
    }

    @Test
    void unparsableErrorsAndStanzasWithoutAClearSenderAreDroppedUnanswered() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        conn.send("<message from='" + MALLORY + "' to='" + ROOM + "' type='error' id='e1'><u:x/></message>"
                + "<message from='" + MALLORY + "' from='juliet@localhost/balcony' to='" + ROOM + "' id='e2'><u:x/></message>"
                + "<message to='" + ROOM + "' id='e3'><u:x/></message>");
        theStreamGoesOnAfter(conn);
        assertThat(connection.discardedIncoming()).isEqualTo(3);
        assertThat(conn.receivedSince(mark)).doesNotContain("e1", "e2", "e3");
    }

    @Test
    void invalidUtf8InsideAStanzaCostsOnlyThatStanza() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("<message from='" + MALLORY + "' to='" + ROOM + "' id='u1'><body>").getBytes(StandardCharsets.UTF_8));
        b.write(0xC3);
        b.write(0x28);   // not a continuation byte
        b.writeBytes("</body></message>".getBytes(StandardCharsets.UTF_8));
        conn.sendBytes(b.toByteArray());
        assertThat(conn.awaitContainsSince(mark, "</message>", WAIT)).contains("id=\"u1\"", "<bad-request ", "Stanza is not well-formed XML");
        theStreamGoesOnAfter(conn);
    }

    // ------------------------------------------------------------------ restricted and malformed XML

    @Test
    void billionLaughsBeforeTheStreamHeaderIsRefusedWithRestrictedXml() throws Exception {
        start(config(server.port()));
        Conn conn = server.nextConnection(WAIT);
        conn.awaitContains("<stream:stream", WAIT);
        StringBuilder dtd = new StringBuilder("<?xml version='1.0'?><!DOCTYPE lolz [<!ENTITY lol0 \"lol\">");
        for (int i = 1; i < 10; i++) {
            dtd.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i - 1) + ";").repeat(10)).append("\">");
        }
        dtd.append("]>");
        conn.send(dtd + FakeComponentServer.serverHeader("x").substring("<?xml version='1.0'?>".length())
                + "<message to='" + ROOM + "' from='a@localhost/r'><body>&lol9;</body></message>");

        conn.awaitContains("<stream:error><restricted-xml xmlns='" + STREAM_ERRORS + "'/></stream:error></stream:stream>", WAIT);
        assertThat(conn.awaitEof(WAIT)).isTrue();
        assertThat(conn.received()).doesNotContain("<handshake>");

        Conn second = server.nextConnection(WAIT);
        second.acceptHandshake();
        assertThat(connection.awaitConnected(WAIT)).isTrue();
        assertThat(component.packets).isEmpty();
        assertThat(logs.messages(Level.WARN)).anyMatch(m -> m.contains("restricted-xml"));
    }

    @Test
    void doctypeInsideTheStreamIsRefusedWithRestrictedXml() throws Exception {
        Conn conn = connected();
        conn.send("<!DOCTYPE m [<!ENTITY xxe SYSTEM 'file:///etc/passwd'>]>"
                + "<message from='a@localhost/r' to='" + ROOM + "'><body>&xxe;</body></message>");
        conn.awaitContains("<restricted-xml xmlns='" + STREAM_ERRORS + "'/>", WAIT);
        await(() -> component.disconnects.get() == 1, "disconnected()");
        server.nextConnection(WAIT).acceptHandshake();
        await(() -> component.connects.get() == 2, "reconnected");
        assertThat(component.packets).isEmpty();
    }

    @Test
    void entityReferenceWithoutDtdIsRefusedWithRestrictedXml() throws Exception {
        Conn conn = connected();
        conn.send("<message from='a@localhost/r' to='" + ROOM + "'><body>&lol;</body></message>");
        conn.awaitContains("<restricted-xml xmlns='" + STREAM_ERRORS + "'/>", WAIT);
        assertThat(conn.awaitEof(WAIT)).isTrue();
        assertThat(component.packets).isEmpty();
    }

    @Test
    void commentsAndProcessingInstructionsAreRefusedWithRestrictedXml() throws Exception {
        Conn conn = connected();
        conn.send("<message from='a@localhost/r' to='" + ROOM + "'><!-- hi --><body>x</body></message>");
        conn.awaitContains("<restricted-xml xmlns='" + STREAM_ERRORS + "'/>", WAIT);
        Conn second = server.nextConnection(WAIT);
        second.acceptHandshake();
        second.send("<?evil stuff?>");
        second.awaitContains("<restricted-xml xmlns='" + STREAM_ERRORS + "'/>", WAIT);
        assertThat(component.packets).isEmpty();
    }

    @Test
    void brokenFramingIsRefusedWithNotWellFormedAndReconnected() throws Exception {
        Conn conn = connected();
        conn.send("<message from='a@localhost/r' to='" + ROOM + "' id='<'><body>x</body></message>");
        conn.awaitContains("<stream:error><not-well-formed xmlns='" + STREAM_ERRORS + "'/></stream:error></stream:stream>", WAIT);
        assertThat(conn.awaitEof(WAIT)).isTrue();
        Conn second = server.nextConnection(WAIT);
        second.acceptHandshake();
        second.send(message("ok", "fine"));
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("ok");
    }

    @Test
    void invalidUtf8InTheStreamHeaderIsRefusedWithNotWellFormed() throws Exception {
        start(config(server.port()));
        Conn conn = server.nextConnection(WAIT);
        conn.awaitContains("<stream:stream", WAIT);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes("<stream:stream xmlns='jabber:component:accept' xmlns:stream='http://etherx.jabber.org/streams' id='"
                .getBytes(StandardCharsets.UTF_8));
        b.write(0xC3);
        b.write(0x28);
        b.writeBytes("'>".getBytes(StandardCharsets.UTF_8));
        conn.sendBytes(b.toByteArray());
        conn.awaitContains("<not-well-formed xmlns='" + STREAM_ERRORS + "'/>", WAIT);
        assertThat(conn.received()).doesNotContain("<handshake>");
    }

    // ------------------------------------------------------------------ sending

    @Test
    void outgoingStanzaReachesTheServerByteForByteAsToXml() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        Message m = outgoing("x1", "Grüße <&> \"quoted\" 'single' 𝄞");
        m.addChildElement("stanza-id", "urn:xmpp:sid:0").addAttribute("id", "s1").addAttribute("by", ROOM);
        String expected = m.toXML();

        connection.sendPacket(component, m);
        m.setBody("changed after sending");   // must not affect what is sent

        byte[] want = expected.getBytes(StandardCharsets.UTF_8);
        Message next = outgoing("x2", "next");
        connection.sendPacket(component, next);
        byte[] nextBytes = next.toXML().getBytes(StandardCharsets.UTF_8);
        conn.await(s -> conn.receivedBytes().length >= mark + want.length + nextBytes.length, WAIT, "both stanzas");
        byte[] got = Arrays.copyOfRange(conn.receivedBytes(), mark, conn.receivedBytes().length);
        assertThat(Arrays.copyOfRange(got, 0, want.length)).isEqualTo(want);
        assertThat(Arrays.copyOfRange(got, want.length, got.length)).isEqualTo(nextBytes);
    }

    /**
     * What the service rendered reaches the socket as it is: the connection serialises nothing
     * again (XEP-0114 mode), so the bytes the server reads are the rendered text.
     */
    @Test
    void aRenderedStanzaIsQueuedAsItsTextAndNeverSerialisedAgain() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        RenderedStanzaTest.CountedMessage m = RenderedStanzaTest.groupchat("Grüße 𝄞");
        m.setFrom(ROOM + "/Romeo");
        RenderedStanza rendered = RenderedStanza.of(m);
        OutgoingStanza toJuliet = rendered.to("juliet@capulet.lit/balcony");
        OutgoingStanza toNurse = rendered.to("nurse@capulet.lit/kitchen");
        assertThat(connection.send(toJuliet)).isTrue();
        assertThat(connection.send(toNurse)).isTrue();
        byte[] want = (toJuliet.xml() + toNurse.xml()).getBytes(StandardCharsets.UTF_8);
        conn.await(s -> conn.receivedBytes().length >= mark + want.length, WAIT, "both copies");
        assertThat(Arrays.copyOfRange(conn.receivedBytes(), mark, conn.receivedBytes().length)).isEqualTo(want);
        assertThat(m.serialised).isEqualTo(1);
    }

    @Test
    void concurrentSendersEachKeepTheirOrder() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        int threads = 4;
        int perThread = 500;
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            senders.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    connection.sendPacket(component, outgoing(thread + "-" + i, "body " + i));
                }
            }));
        }
        senders.forEach(Thread::start);
        for (Thread t : senders) {
            t.join();
        }
        Pattern id = Pattern.compile("id=\"(\\d+)-(\\d+)\"");
        conn.await(s -> count(id, conn.receivedSince(mark)) == threads * perThread, WAIT, "all stanzas");
        int[] next = new int[threads];
        Matcher m = id.matcher(conn.receivedSince(mark));
        while (m.find()) {
            int t = Integer.parseInt(m.group(1));
            assertThat(Integer.parseInt(m.group(2))).isEqualTo(next[t]++);
        }
        assertThat(next).containsOnly(perThread);
    }

    private static int count(Pattern p, String s) {
        Matcher m = p.matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void stanzasTheServerWouldRejectAreNotSent() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        Message noFrom = outgoing("nofrom", "a");
        noFrom.setFrom((JID) null);
        Message foreign = outgoing("foreign", "b");
        foreign.setFrom(new JID("someone@localhost/x"));
        Message control = outgoing("control", "bell \u0007");
        connection.sendPacket(component, noFrom);
        connection.sendPacket(component, foreign);
        connection.sendPacket(component, control);
        connection.sendPacket(component, outgoing("fine", "ok"));

        String out = conn.awaitContainsSince(mark, "id=\"fine\"", WAIT);
        assertThat(out).doesNotContain("nofrom", "foreign", "control");
        assertThat(connection.droppedInvalid()).isEqualTo(3);
        assertThat(connection.isConnected()).isTrue();
        assertThat(logs.messages(Level.WARN)).hasSize(1).allMatch(m -> m.contains("no 'from'"));
    }

    @Test
    void aServerThatStopsReadingHoldsTheSendersBackAndNothingIsLost() throws Exception {
        connection = new ExternalComponentConnection(config(server.port()), component,
                tuning().withMaxQueuedChars(100_000));
        connection.start();
        Conn conn = server.nextConnection(WAIT);
        conn.acceptHandshake();
        assertThat(connection.awaitConnected(WAIT)).isTrue();
        int mark = conn.mark();
        conn.pauseReading();

        String body = "y".repeat(4000);
        int count = 5000;   // ~20 MB: far more than the socket buffers plus the queue
        AtomicInteger sent = new AtomicInteger();
        Thread sender = new Thread(() -> {
            for (int i = 0; i < count; i++) {
                connection.sendPacket(component, outgoing("f" + i, body));
                sent.incrementAndGet();
            }
        }, "room-sender");
        sender.start();
        await(() -> sender.getState() == Thread.State.WAITING && connection.backpressureWaits() > 0,
                "the sender to wait for the server");
        assertThat(sent.get()).isLessThan(count);
        assertThat(connection.queuedChars()).isLessThanOrEqualTo(100_000 + 5_000);

        conn.resumeReading();
        sender.join(Duration.ofSeconds(20).toMillis());
        assertThat(sender.isAlive()).isFalse();
        Pattern id = Pattern.compile("id=\"f(\\d+)\"");
        // The last one's arrival is awaited (a regex count of 20 MB at every read took longer than the bound
        // on a loaded machine); the order check below finds any missing before it.
        String last = "id=\"f" + (count - 1) + "\"";
        conn.await(x -> x.contains(last), Duration.ofSeconds(60), "every stanza");
        Matcher m = id.matcher(conn.receivedSince(mark));
        int next = 0;
        while (m.find()) {
            assertThat(Integer.parseInt(m.group(1))).isEqualTo(next++);
        }
        assertThat(next).isEqualTo(count);
        assertThat(connection.refusedWhileDisconnected()).isZero();
        assertThat(connection.droppedAfterClose()).isZero();
        assertThat(connection.isConnected()).isTrue();
        assertThat(logs.messages(Level.WARN)).isEmpty();
    }

    @Test
    void theReaderThreadKeepsReadingWhileRoomThreadsWaitForTheServer() throws Exception {
        // The component answers every stanza from the reader thread (as the service does for
        // stanzas to its own address): it must not wait at the bound, or a server that blocks
        // on writing to us while we stop reading would deadlock with us.
        component.onPacket = p -> {
            Message echo = outgoing("echo-" + p.getID(), "echo");
            connection.sendPacket(component, echo);
        };
        connection = new ExternalComponentConnection(config(server.port()), component,
                tuning().withMaxQueuedChars(50_000));
        connection.start();
        Conn conn = server.nextConnection(WAIT);
        conn.acceptHandshake();
        assertThat(connection.awaitConnected(WAIT)).isTrue();
        conn.pauseReading();
        String body = "z".repeat(4000);
        Thread sender = new Thread(() -> {
            for (int i = 0; i < 2000; i++) {
                connection.sendPacket(component, outgoing("r" + i, body));
            }
        }, "room-sender");
        sender.start();
        // Waiting at the bound, not anywhere else a thread can wait (a lock on the way there): both, as above.
        await(() -> sender.getState() == Thread.State.WAITING && connection.backpressureWaits() > 0,
                "the room thread to wait for the server");

        conn.send(message("ping1", "x"));
        conn.send(message("ping2", "x"));
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("ping1");
        // The reader got to ping2: answering ping1 past the bound did not hold it up.
        assertThat(component.nextPacket(WAIT).getID()).isEqualTo("ping2");
        conn.resumeReading();
        conn.awaitContains("id=\"echo-ping1\"", Duration.ofSeconds(20));
        sender.join(Duration.ofSeconds(20).toMillis());
        assertThat(sender.isAlive()).isFalse();
    }

    @Test
    void whitespaceKeepaliveIsSentWhenIdle() throws Exception {
        Conn conn = connected(config(server.port(), 4096, Duration.ofMillis(150)));
        int mark = conn.mark();
        conn.await(s -> conn.receivedSince(mark).length() >= 2, WAIT, "two keepalives");
        assertThat(conn.receivedSince(mark)).matches(" +");

        // While stanzas flow, no keepalive is needed.
        int mark2 = conn.mark();
        for (int i = 0; i < 10; i++) {
            connection.sendPacket(component, outgoing("k" + i, "x"));
            Thread.sleep(40);
        }
        String during = conn.receivedSince(mark2);
        // (one keepalive may have been due just before the first stanza)
        assertThat(during.replaceAll("<message[^>]*><body>x</body></message>", "")).matches(" ?");
    }

    // ------------------------------------------------------------------ queries

    @Test
    void queriesGetTheirAnswerInsteadOfProcessPacket() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        IQ q = new IQ(IQ.Type.get);
        q.setFrom(DOMAIN);
        q.setTo("localhost");
        q.setChildElement("query", "http://jabber.org/protocol/disco#info");
        CompletableFuture<IQ> answer = new CompletableFuture<>();
        connection.query(component, q, new IQResultListener() {
            @Override
            public void receivedAnswer(IQ packet) {
                answer.complete(packet);
            }

            @Override
            public void answerTimeout(String packetId) {
                answer.completeExceptionally(new AssertionError("timeout"));
            }
        });
        String sent = conn.awaitContainsSince(mark, "</iq>", WAIT);
        Matcher id = Pattern.compile("id=\"([^\"]+)\"").matcher(sent);
        assertThat(id.find()).isTrue();
        conn.send("<iq from='localhost' to='" + DOMAIN + "' type='result' id='" + id.group(1) + "'>"
                + "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>");
        assertThat(answer.get(3, TimeUnit.SECONDS).getType()).isEqualTo(IQ.Type.result);
        assertThat(component.packets).isEmpty();

        // Blocking form, from another thread; the fake server never answers, so it times out.
        IQ q2 = q.createCopy();
        q2.setID("q2");
        assertThat(connection.query(component, q2, 100)).isNull();

        // From the reader thread it would deadlock, so it is refused.
        CompletableFuture<Throwable> refused = new CompletableFuture<>();
        component.onPacket = p -> {
            try {
                connection.query(component, q.createCopy(), 100);
                refused.complete(null);
            } catch (ComponentException e) {
                refused.complete(e);
            }
        };
        conn.send(message("trigger", "x"));
        assertThat(refused.get(3, TimeUnit.SECONDS)).isInstanceOf(ComponentException.class);
    }

    // ------------------------------------------------------------------ closing

    @Test
    void closeEndsTheStreamShutsTheComponentDownAndIsIdempotent() throws Exception {
        Conn conn = connected();
        int mark = conn.mark();
        connection.close();
        assertThat(conn.awaitEof(WAIT)).isTrue();
        assertThat(conn.receivedSince(mark)).isEqualTo("</stream:stream>");
        assertThat(component.shutdowns.get()).isEqualTo(1);
        assertThat(component.disconnects.get()).isZero();
        assertThat(awaitTermination()).isEqualTo(Termination.CLOSED);
        assertThat(connection.isConnected()).isFalse();

        connection.close();
        assertThat(component.shutdowns.get()).isEqualTo(1);
        connection.sendPacket(component, outgoing("late", "x"));
        assertThat(connection.droppedAfterClose()).isEqualTo(1);
        assertThat(server.noConnectionWithin(Duration.ofMillis(200))).isTrue();
    }

    @Test
    void closeWhileBackingOffReturnsPromptly() throws Exception {
        int port = unusedPort();
        ServiceConfig slow = ServiceConfig.builder().server("127.0.0.1", port).domain(DOMAIN).secret(SECRET)
                .maxStanzaBytes(4096).build();
        start(slow, tuning().withInitialBackoff(Duration.ofSeconds(20)));
        await(() -> !logs.messages(Level.WARN).isEmpty(), "the first attempt to fail");   // then it sleeps ~20 s
        long t0 = System.nanoTime();
        connection.close();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(1));
        assertThat(awaitTermination()).isEqualTo(Termination.CLOSED);
        assertThat(component.shutdowns.get()).isEqualTo(1);
    }

    @Test
    void closeWhileWaitingForTheHandshakeReturnsPromptly() throws Exception {
        start(config(server.port()));
        Conn conn = server.nextConnection(WAIT);
        conn.awaitContains("<stream:stream", WAIT);   // the server never answers
        long t0 = System.nanoTime();
        connection.close();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(1));
        assertThat(conn.awaitEof(WAIT)).isTrue();
        assertThat(awaitTermination()).isEqualTo(Termination.CLOSED);
    }

    @Test
    void closeFromProcessPacketDoesNotDeadlock() throws Exception {
        component.onPacket = p -> connection.close();
        Conn conn = connected();
        conn.send(message("bye", "x"));
        assertThat(awaitTermination()).isEqualTo(Termination.CLOSED);
        assertThat(component.shutdowns.get()).isEqualTo(1);
        conn.awaitContains("</stream:stream>", WAIT);
    }

    @Test
    void componentManagerBasics() throws Exception {
        connection = new ExternalComponentConnection(config(server.port()), component, tuning());
        assertThat(connection.isExternalMode()).isTrue();
        assertThat(connection.getServerName()).isEqualTo("127.0.0.1");
        connection.setProperty("a", "1");
        assertThat(connection.getProperty("a")).isEqualTo("1");
        connection.setProperty("a", null);
        assertThat(connection.getProperty("a")).isNull();
        assertThatThrownBy(() -> connection.addComponent("x", component)).isInstanceOf(ComponentException.class);
        assertThatThrownBy(() -> connection.removeComponent("x")).isInstanceOf(ComponentException.class);
        connection.start();
        assertThatThrownBy(() -> connection.start()).isInstanceOf(IllegalStateException.class);
        assertThat(List.copyOf(component.events)).containsExactly("initialize");
    }
}
