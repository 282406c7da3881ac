import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.MessageBuilder;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.sid.element.StanzaIdElement;
import org.jxmpp.jid.parts.Resourcepart;
import org.jxmpp.jid.impl.JidCreate;
import org.reconmuc.smack.element.TopicElement;
import org.reconmuc.smack.reply.element.ReplyElement;

/**
 * The non-browser occupant of the browser tests (web-client/test/): a real Smack 4.4 client with
 * reconmuc-smack's elements, in standard mode, driven line by line on stdin:
 *
 *   send TOPIC TEXT            a groupchat message tagged with TOPIC ('-': no topic)
 *   reply PARENT TOPIC TEXT    an XEP-0461 reply to the last message whose body has the word
 *                              PARENT: its room stanza-id, from what this client received, waiting
 *                              for that message up to 10 s (another client's message may still be
 *                              on its way here when the command comes)
 *   replay COUNT PAUSE_MS      the next COUNT lines "TEXT" read from stdin, sent PAUSE_MS apart
 *   quit
 *
 * and answering each with one line: "ok ..." or "error ...". Started as
 *   java -cp CLASSPATH SmackPeer.java HOST C2S_PORT DOMAIN USER ROOM NICK
 */
public final class SmackPeer {
    /** How long a reply waits for its parent to arrive here. */
    private static final long PARENT_WAIT_MILLIS = 10_000;

    /** The room stanza-id of the last message received with each word of its body; the listener's thread writes, the command's waits. */
    private static final class StanzaIdsByWord {
        private final Map<String, String> ids = new HashMap<>();

        synchronized void received(String body, String stanzaId) {
            for (String word : body.split("\\s+")) {
                ids.put(word, stanzaId);
            }
            notifyAll();
        }

        /** The stanza-id for {@code word}, waiting for it up to {@code millis}; null if none came. */
        synchronized String await(String word, long millis) throws InterruptedException {
            long deadline = System.nanoTime() + millis * 1_000_000;
            for (long left = millis; !ids.containsKey(word) && left > 0; left = (deadline - System.nanoTime()) / 1_000_000) {
                wait(left);
            }
            return ids.get(word);
        }
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        String domain = args[2];
        String user = args[3];
        String room = args[4];
        String nick = args[5];
        XMPPTCPConnection c = new XMPPTCPConnection(XMPPTCPConnectionConfiguration.builder()
                .setXmppDomain(domain).setHostAddress(InetAddress.getByName(host)).setPort(port)
                .setSecurityMode(SecurityMode.disabled).setUsernameAndPassword(user, "pw").setResource("smack")
                .setConnectTimeout(10_000).build());
        c.setReplyTimeout(10_000);
        c.connect().login();
        MultiUserChat muc = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(JidCreate.entityBareFrom(room));
        StanzaIdsByWord stanzaIds = new StanzaIdsByWord();
        muc.addMessageListener(m -> {
            StanzaIdElement sid = m.getExtension(StanzaIdElement.class);
            if (m.getBody() != null && sid != null && room.equals(sid.getBy())) {
                stanzaIds.received(m.getBody(), sid.getId());
            }
        });
        MultiUserChat.MucCreateConfigFormHandle handle = muc.createOrJoin(Resourcepart.from(nick));
        if (handle != null) {
            handle.makeInstant();
        }
        System.out.println("ok joined " + room + " as " + nick);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] w = line.split(" ", 4);
            try {
                switch (w[0]) {
                    case "send" -> {
                        String[] p = line.split(" ", 3);
                        muc.sendMessage(message(muc, p[1], p[2]));
                        System.out.println("ok sent");
                    }
                    case "reply" -> {
                        String parentId = stanzaIds.await(w[1], PARENT_WAIT_MILLIS);
                        if (parentId == null) {
                            System.out.println("error no message with the word " + w[1] + " received in "
                                    + PARENT_WAIT_MILLIS + " ms");
                            break;
                        }
                        MessageBuilder b = message(muc, w[2], w[3]);
                        b.addExtension(new ReplyElement(null, parentId));
                        muc.sendMessage(b);
                        System.out.println("ok replied to " + parentId);
                    }
                    case "replay" -> {
                        int count = Integer.parseInt(w[1]);
                        long pause = Long.parseLong(w[2]);
                        for (int i = 0; i < count; i++) {
                            String text = in.readLine();
                            if (text == null) {
                                break;
                            }
                            muc.sendMessage(message(muc, "-", text));
                            Thread.sleep(pause);
                        }
                        System.out.println("ok replayed " + count);
                    }
                    case "quit" -> {
                        muc.leave();
                        c.disconnect();
                        System.out.println("ok bye");
                        return;
                    }
                    default -> System.out.println("error unknown command " + w[0]);
                }
            } catch (Exception e) {
                System.out.println("error " + e);
            }
            System.out.flush();
        }
        c.disconnect();
    }

    private static MessageBuilder message(MultiUserChat muc, String topic, String text) {
        MessageBuilder b = muc.buildMessage().setBody(text);
        if (!"-".equals(topic)) {
            b.addExtension(new TopicElement(topic));
        }
        return b;
    }
}
