package org.reconmuc.component.activity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.dom4j.DocumentHelper;
import org.dom4j.QName;
import org.junit.jupiter.api.Test;
import org.xmpp.packet.Message;
import org.xmpp.packet.Presence;

/**
 * XEP-0437's "one notice until she joins again" when the news of a subscription reaches a room late:
 * the service's subscribers change on the thread that read the presence, and each room hears of it
 * on its own thread, after whatever the room had queued before. Here the rooms' turns are taken by
 * hand, in the order a loaded machine once took them (the web client's RAI test: two notices).
 */
class RoomActivityTest {
    private static final String NEWS = "news@chat.example";
    private static final String ALICE = "alice@example.org/converse";

    /** #news as RoomActivity sees it: Alice its owner, in it or not, and what it sent. */
    private static final class News implements ActivityHost {
        long newest;
        final Set<String> in = new HashSet<>();
        final List<Message> sent = new ArrayList<>();

        @Override public String roomJid() { return NEWS; }
        @Override public String serviceJid() { return "chat.example"; }
        @Override public Instant now() { return Instant.EPOCH; }
        @Override public long newestMessage() { return newest; }
        @Override public boolean joined(String session) { return in.contains(session); }
        @Override public boolean affiliated(String session) { return true; }
        @Override public boolean mayEnter(String session) { return true; }
        @Override public boolean publishesActivity() { return false; }
        @Override public void send(Message notice) { sent.add(notice); }
    }

    private final News news = new News();
    /** What the service told the rooms, not yet handed to #news: its turn comes when the test says. */
    private final List<ActivitySubscriptions.Change> toldLater = new ArrayList<>();
    private final ActivitySubscriptions subscriptions = new ActivitySubscriptions(10, toldLater::add);
    private final RoomActivity activity = new RoomActivity(news, subscriptions);

    private static Presence rai() {
        Presence p = new Presence();
        p.getElement().add(DocumentHelper.createElement(QName.get(RaiElement.ELEMENT, RaiElement.NAMESPACE)));
        return p;
    }

    private void carolSpeaks() {
        news.newest++;
        Message m = new Message();
        m.setType(Message.Type.groupchat);
        m.setBody("news " + news.newest);
        activity.messageLogged(m);
    }

    /** #news handles the news of subscriptions that reached it. */
    private void roomsTurn() {
        for (ActivitySubscriptions.Change c : toldLater) {
            if (c instanceof ActivitySubscriptions.Subscribed s) {
                activity.subscribed(s.session());
            }
        }
        toldLater.clear();
    }

    @Test
    void aliceIsToldOnceWhenTheNewsOfHerSubscriptionReachesTheRoomAfterHerLeaveAndAMessage() {
        news.in.add(ALICE);
        activity.joined(ALICE);
        // Converse leaves #news and subscribes: the subscription is read first, its news waits for #news's turn
        subscriptions.presence(ALICE, rai());
        news.in.remove(ALICE);
        activity.left(ALICE, true, news.newest);
        carolSpeaks();
        assertThat(news.sent).hasSize(1);
        roomsTurn();
        carolSpeaks();
        assertThat(news.sent).as("one notice, however much Carol says").hasSize(1);
    }

    @Test
    void theNewsOfASubscriptionStillWatchesWhereNoLeaveSawIt() {
        subscriptions.presence(ALICE, rai());
        roomsTurn();
        assertThat(news.sent).isEmpty();
        carolSpeaks();
        carolSpeaks();
        assertThat(news.sent).hasSize(1);
    }

    @Test
    void aNewSubscriptionAfterTheEndOfTheLastIsNewsAgain() {
        subscriptions.presence(ALICE, rai());
        roomsTurn();
        carolSpeaks();
        Presence gone = new Presence();
        gone.setType(Presence.Type.unavailable);
        subscriptions.presence(ALICE, gone);
        toldLater.clear();
        carolSpeaks();
        subscriptions.presence(ALICE, rai());
        roomsTurn();
        assertThat(news.sent).as("the second subscription is told at once of what was said since").hasSize(2);
    }
}
