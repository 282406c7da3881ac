package org.reconmuc.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jivesoftware.smack.MessageListener;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;

/** Real Smack clients in a room of the component: join, and a message said and received. */
final class Rooms {
    private Rooms() {
    }

    /** {@code nick} creates {@code room} as an instant room (XEP-0045 §10.1.2): it is open at once. */
    static MultiUserChat create(XMPPTCPConnection c, String room, String nick) throws Exception {
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(JidCreate.entityBareFrom(room));
        m.create(Resourcepart.from(nick)).makeInstant();
        return m;
    }

    /** {@code nick} joins {@code room}, which exists. */
    static MultiUserChat join(XMPPTCPConnection c, String room, String nick) throws Exception {
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(JidCreate.entityBareFrom(room));
        m.join(m.getEnterConfigurationBuilder(Resourcepart.from(nick)).requestNoHistory().build());
        return m;
    }

    /** {@code speaker} says {@code body}; returns the sender address {@code listener} got it from. */
    static String sayAndReceive(MultiUserChat speaker, MultiUserChat listener, String body) throws Exception {
        BlockingQueue<Message> inbox = new ArrayBlockingQueue<>(100);
        MessageListener l = inbox::offer;
        listener.addMessageListener(l);
        try {
            speaker.sendMessage(body);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                Message m = inbox.poll(1, TimeUnit.SECONDS);
                if (m != null && body.equals(m.getBody())) {
                    return m.getFrom().toString();
                }
            }
        } finally {
            listener.removeMessageListener(l);
        }
        assertThat(false).as("'" + body + "' reached the listener within 30 s").isTrue();
        return null;
    }
}
