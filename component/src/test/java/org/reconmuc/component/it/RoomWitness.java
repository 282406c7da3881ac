package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.packet.MUCUser;

/**
 * What one client saw of the rooms while instances came and went: every groupchat body, as
 * "room body", and the rooms that told it it was no longer in them (110 + 333: join again).
 */
final class RoomWitness {
    final Set<String> messages = ConcurrentHashMap.newKeySet();
    final Set<String> toldToRejoin = ConcurrentHashMap.newKeySet();

    RoomWitness(XMPPTCPConnection client) {
        client.addAsyncStanzaListener(s -> {
            if (s instanceof Message m && m.getBody() != null) {
                messages.add(m.getFrom().asBareJid() + " " + m.getBody());
            } else if (s instanceof Presence p && p.getType() == Presence.Type.unavailable) {
                MUCUser user = MUCUser.from(p);
                if (user != null && user.getStatus().contains(MUCUser.Status.create(333))
                        && user.getStatus().contains(MUCUser.Status.create(110))) {
                    toldToRejoin.add(p.getFrom().asBareJid().toString());
                }
            }
        }, s -> true);
    }

    void awaitMessage(Object room, String body) throws InterruptedException {
        await(messages, room + " " + body);
    }

    private static void await(Set<String> set, String element) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!set.contains(element) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(set).as("waited for " + element).contains(element);
    }
}
