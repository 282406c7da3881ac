package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.reconmuc.servers.XmppServer;

/**
 * Issue 33: one hostile stanza must cost only itself. Mallory, a logged-in user with a raw
 * socket, sends through the server (each subclass names it) stanzas it accepts and forwards to
 * the component but that the JDK's parser used to refuse, closing the component's stream (a name
 * of 1,100 characters; 10,050 attributes on one element, now refused by the component's own
 * limit), and 200 levels of nesting, which the framer refuses: each is answered with an error, and
 * Romeo, in a room, goes on getting Juliet's messages; the component's link is never lost.
 */
abstract class HostileStanzaIT extends LiveServiceIT {
    private static final Duration WAIT = Duration.ofSeconds(15);

    private ExternalComponentConnection link;
    private MultiUserChat juliet;
    private MultiUserChat romeo;
    private RawClient mallory;
    private EntityBareJid room;
    private int said;

    /** Default settings: max-stanza-bytes is 256 KiB, like Prosody's c2s_stanza_size_limit and the max_stanza_size of our ejabberd template. */
    @BeforeAll
    void julietAndRomeoInTheRoomMalloryOnTheServer() throws Exception {
        link = live.connection();
        room = JidCreate.entityBareFrom("hostile@" + server.componentDomain());
        XMPPTCPConnection j = server.newClient("juliet");
        juliet = MultiUserChatManager.getInstanceFor(j).getMultiUserChat(room);
        juliet.createOrJoin(Resourcepart.from("Juliet")).makeInstant();
        romeo = MultiUserChatManager.getInstanceFor(server.newClient("romeo")).getMultiUserChat(room);
        romeo.join(Resourcepart.from("Romeo"));
        mallory = RawClient.login(server, "mallory");
        romeoHearsJuliet();
    }

    @AfterAll
    void malloryLeaves() throws IOException {
        if (mallory != null) {
            mallory.close();
        }
    }

    /** Juliet says something; Romeo hears it, and the component has never reconnected. */
    private void romeoHearsJuliet() throws Exception {
        String body = "line " + (++said);
        juliet.sendMessage(body);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Message m = romeo.nextMessage(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (m != null && body.equals(m.getBody())) {
                assertThat(link.connections()).as("handshakes of the component: its link was never lost").isEqualTo(1);
                assertThat(link.isConnected()).isTrue();
                return;
            }
        }
        throw new AssertionError("Romeo did not hear '" + body + "'; component handshakes: " + link.connections()
                + "\n" + server.logTail(20));
    }

    @Test
    void aMessageToTheServiceWithAnElementNameOf1100Characters() throws Exception {
        String reply = mallory.sendAndAwaitReply("h1", "<message to='" + server.componentDomain() + "' id='h1'>"
                + "<body>hi</body><" + "n".repeat(1100) + " xmlns='urn:x'/></message>");
        assertThat(reply).contains("type='error'", "send messages to a room");
        romeoHearsJuliet();
    }

    @Test
    void aGroupchatWithAnAttributeNameOf1100Characters() throws Exception {
        String reply = mallory.sendAndAwaitReply("h2", "<message to='" + room + "' type='groupchat' id='h2' "
                + "a".repeat(1100) + "='x'><body>hi</body></message>");
        assertThat(reply).contains("type='error'", "not-acceptable");   // Mallory is not in the room
        romeoHearsJuliet();
    }

    @Test
    void aChildWith10050Attributes() throws Exception {
        StringBuilder attrs = new StringBuilder();
        for (int i = 0; i < 10_050; i++) {
            attrs.append(" a").append(i).append("='1'");
        }
        String reply = mallory.sendAndAwaitReply("h3", "<message to='" + room + "' type='groupchat' id='h3'><body>hi</body>"
                + "<x xmlns='urn:x'" + attrs + "/></message>");
        assertThat(reply).contains("type='error'", "policy-violation", "Too many attributes on one element: limit is 1000");
        romeoHearsJuliet();
    }

    @Test
    void aStanzaNested200LevelsDeep() throws Exception {
        String reply = mallory.sendAndAwaitReply("h4", "<message to='" + room + "' type='groupchat' id='h4'><body>hi</body>"
                + "<x xmlns='urn:x'>" + "<a>".repeat(200) + "</a>".repeat(200) + "</x></message>");
        assertThat(reply).contains("type='error'", "policy-violation", "Stanza nested too deeply: limit is 128 levels");
        romeoHearsJuliet();
    }

    @Test
    void aHugeTextNode() throws Exception {
        String reply = mallory.sendAndAwaitReply("h5", "<message to='" + room + "' type='groupchat' id='h5'><body>"
                + "&lt;x&gt;".repeat(25_000) + "</body></message>");   // 225 KB on the wire
        assertThat(reply).contains("type='error'", "not-acceptable");
        romeoHearsJuliet();
    }

    /**
     * A client on a plain c2s socket (the servers' {@code insecure.localhost}: any name and
     * password, SASL PLAIN without TLS), which writes whatever XML it is given.
     */
    private static final class RawClient implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final StringBuilder received = new StringBuilder();
        private final Thread reader;

        private RawClient(Socket socket) throws IOException {
            this.socket = socket;
            this.out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            this.reader = new Thread(() -> {
                byte[] buf = new byte[8192];
                try {
                    int n;
                    while ((n = in.read(buf)) > 0) {
                        synchronized (received) {
                            received.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                            received.notifyAll();
                        }
                    }
                } catch (IOException ignored) {
                    // closed
                }
            }, "mallory-reader");
            reader.setDaemon(true);
            reader.start();
        }

        static RawClient login(XmppServer server, String user) throws Exception {
            RawClient c = new RawClient(new Socket(server.host(), server.c2sPort()));
            String host = server.loginDomain();
            String header = "<?xml version='1.0'?><stream:stream to='" + host + "' xmlns='jabber:client'"
                    + " xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>";
            c.send(header);
            c.await("</stream:features>", 0);
            int mark = c.length();
            String plain = Base64.getEncoder().encodeToString(("\0" + user + "\0pw").getBytes(StandardCharsets.UTF_8));
            c.send("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>" + plain + "</auth>");
            c.await("<success", mark);
            mark = c.length();
            c.send(header);
            c.await("</stream:features>", mark);
            mark = c.length();
            c.send("<iq type='set' id='bind1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>evil</resource></bind></iq>");
            c.await("</iq>", mark);
            return c;
        }

        void send(String xml) throws IOException {
            out.write(xml.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        /** Sends {@code xml} and returns the first stanza that comes back with {@code id}. */
        String sendAndAwaitReply(String id, String xml) throws Exception {
            int mark = length();
            send(xml);
            Pattern reply = Pattern.compile("<(message|iq|presence)\\b[^>]*\\bid=['\"]" + Pattern.quote(id)
                    + "['\"].*?</\\1>", Pattern.DOTALL);
            long deadline = System.nanoTime() + WAIT.toNanos();
            synchronized (received) {
                while (true) {
                    Matcher m = reply.matcher(received.substring(mark));
                    if (m.find()) {
                        return m.group().replace('"', '\'');
                    }
                    long left = (deadline - System.nanoTime()) / 1_000_000;
                    if (left <= 0) {
                        throw new AssertionError("no reply to " + id + "; Mallory received: " + received.substring(mark));
                    }
                    received.wait(left);
                }
            }
        }

        private int length() {
            synchronized (received) {
                return received.length();
            }
        }

        private void await(String text, int from) throws InterruptedException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            synchronized (received) {
                while (received.indexOf(text, from) < 0) {
                    long left = (deadline - System.nanoTime()) / 1_000_000;
                    if (left <= 0) {
                        throw new AssertionError("waited for " + text + "; received: " + received);
                    }
                    received.wait(left);
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
