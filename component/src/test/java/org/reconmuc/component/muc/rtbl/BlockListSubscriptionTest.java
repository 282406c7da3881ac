package org.reconmuc.component.muc.rtbl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.dom4j.DocumentHelper;
import org.junit.jupiter.api.Test;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * One instance of several (behind ejabberd's domain_balancing) finds an address of the domain that
 * reaches it before it subscribes to the block list: instance A sends itself probes, the server
 * brings one back to A (the others reach B), and A subscribes from that one.
 */
class BlockListSubscriptionTest {
    private static final String DOMAIN = "chat.example";
    private static final String LIST = "rtbl.example";
    private static final String NODE = "muc_bans_sha256";

    private final List<Packet> sent = new ArrayList<>();
    private final List<Long> delays = new ArrayList<>();
    private final List<Runnable> later = new ArrayList<>();
    private final BlockList list = new BlockList();
    private int newlyListed;
    private final BlockListSubscription a = new BlockListSubscription(LIST, NODE, DOMAIN, list, sent::add,
            (delay, task) -> {
                delays.add(delay);
                later.add(task);
            }, () -> newlyListed++);

    private List<Message> probes() {
        List<Message> probes = new ArrayList<>();
        for (Packet p : sent) {
            if (p instanceof Message m && m.getTo().getNode() != null && m.getTo().getNode().startsWith("rtbl-home-")) {
                probes.add(m);
            }
        }
        return probes;
    }

    private static Message event(String to, String items) throws Exception {
        return new Message(DocumentHelper.parseText("<message from='" + LIST + "' to='" + to + "'>"
                + "<event xmlns='http://jabber.org/protocol/pubsub#event'><items node='" + NODE + "'>" + items
                + "</items></event></message>").getRootElement());
    }

    @Test
    void instanceAProbesSixteenAddressesAndSubscribesFromTheOneThatCameBackToIt() throws Exception {
        a.followFromHome();

        List<Message> probes = probes();
        assertThat(probes).hasSize(16);
        assertThat(probes).allMatch(m -> m.getFrom().toString().equals(DOMAIN));
        sent.clear();

        // The server brings the seventh back to A (the others went to B's buckets).
        Message back = probes.get(6);
        assertThat(a.handle(back)).isTrue();

        assertThat(a.subscriber()).isEqualTo(new JID(back.getTo().toBareJID()));
        assertThat(sent).hasSize(2);
        IQ subscribe = (IQ) sent.get(0);
        assertThat(subscribe.getFrom()).isEqualTo(a.subscriber());
        assertThat(subscribe.getChildElement().element("subscribe").attributeValue("jid")).isEqualTo(back.getTo().toBareJID());
        assertThat(((IQ) sent.get(1)).getFrom()).isEqualTo(a.subscriber());

        // A second probe coming back later changes nothing; B's probes reaching A are dropped, never a room's.
        sent.clear();
        assertThat(a.handle(probes.get(7))).isTrue();
        Message ofB = new Message();
        ofB.setFrom(DOMAIN);
        ofB.setTo("rtbl-home-b0b@" + DOMAIN);
        assertThat(a.handle(ofB)).isTrue();
        assertThat(sent).isEmpty();

        // A notification reaches A at its address: applied.
        assertThat(a.handle(event(a.subscriber().toString(), "<item id='" + "ab".repeat(32) + "'/>"))).isTrue();
        assertThat(list.size()).isEqualTo(1);
        assertThat(newlyListed).isEqualTo(1);
    }

    @Test
    void aRoundNobodyAnsweredIsFollowedByAnotherTwoSecondsLaterAndEightByAMinutesWait() {
        a.followFromHome();
        for (int round = 2; round <= 8; round++) {
            assertThat(delays.get(delays.size() - 1)).isEqualTo(2_000L);
            later.remove(later.size() - 1).run();
            assertThat(probes()).hasSize(16 * round);
        }
        later.remove(later.size() - 1).run();
        assertThat(delays.get(delays.size() - 1)).isEqualTo(60_000L);
        assertThat(probes()).hasSize(16 * 8);
        later.remove(later.size() - 1).run();
        assertThat(probes()).hasSize(16 * 9);
    }

    @Test
    void whenTheConnectionsChangeANewAddressIsFoundAndTheOldSubscriptionEnded() {
        a.followFromHome();
        Message first = probes().get(0);
        a.handle(first);
        sent.clear();

        a.followFromHome();
        Message second = probes().get(0);
        sent.clear();
        a.handle(second);

        IQ unsubscribe = (IQ) sent.get(0);
        assertThat(unsubscribe.getChildElement().element("unsubscribe").attributeValue("jid")).isEqualTo(first.getTo().toBareJID());
        assertThat(unsubscribe.getFrom().toString()).isEqualTo(first.getTo().toBareJID());
        assertThat(a.subscriber().toString()).isEqualTo(second.getTo().toBareJID());
        assertThat(((IQ) sent.get(1)).getChildElement().element("subscribe").attributeValue("jid")).isEqualTo(second.getTo().toBareJID());
    }
}
