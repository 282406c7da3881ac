package org.reconmuc.joom.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.reconmuc.joom.model.Messages.batched;
import static org.reconmuc.joom.model.Messages.live;
import static org.reconmuc.joom.model.Messages.mine;
import static org.reconmuc.joom.model.Messages.reply;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Alice's Joom in one room, message by message. */
class JoomRoomTest {
    private final JoomRoom alice = new JoomRoom("Alice");
    private final List<String> events = new ArrayList<>();

    JoomRoomTest() {
        alice.addListener(new JoomRoom.Listener() {
            @Override
            public void messageAdded(ChatMessage message, int index) {
                events.add("added " + message.body() + " at " + index);
            }

            @Override
            public void topicsChanged() {
            }

            @Override
            public void replyToMe(ChatMessage reply) {
                events.add("reply " + reply.body());
            }
        });
    }

    private static List<String> bodies(List<ChatMessage> messages) {
        return messages.stream().map(ChatMessage::body).toList();
    }

    @Test
    void theConversationShowsTheActiveTopicAndTheOthersCountAsUnread() {
        alice.activate("movies");
        alice.receive(live("Bob", "Almodóvar tonight?", 1, "movies"));
        alice.receive(live("Carol", "Did you hear?", 2, "gossip"));
        alice.receive(live("Carol", "More news", 3, "gossip"));
        assertThat(bodies(alice.conversation())).containsExactly("Almodóvar tonight?");
        assertThat(bodies(alice.timeline())).containsExactly("Almodóvar tonight?", "Did you hear?", "More news");
        assertThat(alice.topics()).containsExactly(new TopicView("movies", 0, 0, 1, true), new TopicView("gossip", 1, 2, 2, false));

        // Alice switches to gossip: its backlog is there at once, and its counter clears.
        assertThat(alice.activate("#Gossip")).isEqualTo("movies");
        assertThat(bodies(alice.conversation())).containsExactly("Did you hear?", "More news");
        assertThat(alice.topics()).extracting(TopicView::unread).containsExactly(0, 0);
        assertThat(alice.activeTopic()).isEqualTo("gossip");
    }

    @Test
    void aDelayedMessageIsPlacedAtTheTimeTheRoomReceivedIt() {
        alice.activate("movies");
        alice.receive(live("Bob", "at 10", 10, "movies"));
        alice.receive(live("Bob", "at 20", 20, "movies"));
        alice.receive(batched("Carol", "gossip at 5", 5, "gossip"));
        alice.receive(batched("Carol", "gossip at 15", 15, "gossip"));
        assertThat(bodies(alice.timeline())).containsExactly("gossip at 5", "at 10", "gossip at 15", "at 20");
        assertThat(alice.timeline().get(0).delayed()).isTrue();
        assertThat(alice.timeline().get(1).delayed()).isFalse();
        assertThat(events).contains("added gossip at 5 at 0", "added gossip at 15 at 2");
    }

    @Test
    void aMessageReceivedTwiceIsShownOnce() {
        ChatMessage m = live("Bob", "once", 1, "movies");
        assertThat(alice.receive(m)).isTrue();
        assertThat(alice.receive(m)).as("the same stanza-id again, e.g. history after a reconnect").isFalse();
        assertThat(alice.timeline()).hasSize(1);
        assertThat(alice.topics().get(0).messages()).isEqualTo(1);
    }

    @Test
    void repliesToAliceAreCountedAndAnnounced() {
        alice.activate("movies");
        ChatMessage hers = mine("Alice", "Anyone for tea?", 1, "movies");
        alice.receive(hers);
        ChatMessage bobs = live("Bob", "Almodóvar?", 2, "movies");
        alice.receive(bobs);
        alice.receive(reply("Carol", "Yes please", 3, hers, "gossip"));
        alice.receive(reply("Carol", "Not me", 4, bobs, "movies"));
        assertThat(alice.unseenReplies()).isEqualTo(1);
        assertThat(events).contains("reply Yes please").doesNotContain("reply Not me");
        assertThat(alice.isReplyToMe(alice.timeline().get(2))).isTrue();
        alice.repliesSeen();
        assertThat(alice.unseenReplies()).isZero();
    }

    @Test
    void herOwnMessagesAreNeverUnreadAndMentionsAreSeen() {
        alice.activate("movies");
        alice.receive(mine("Alice", "I start gossip", 1, "gossip"));
        alice.receive(live("Bob", "alice: look at this", 2, "movies"));
        alice.receive(live("Bob", "malice is not a mention", 3, "movies"));
        assertThat(alice.topics()).filteredOn(t -> t.name().equals("gossip")).extracting(TopicView::unread).containsExactly(0);
        assertThat(alice.mentionsMe(alice.timeline().get(1))).isTrue();
        assertThat(alice.mentionsMe(alice.timeline().get(2))).isFalse();
        assertThat(alice.mentionsMe(alice.timeline().get(0))).as("her own").isFalse();
    }

    @Test
    void topicsAreCreatedAsHashtagsAndNumberedForTheShortcuts() {
        assertThat(alice.createTopic("#Movies ")).isEqualTo("movies");
        alice.createTopic("gossip");
        alice.receive(live("Bob", "x", 1, "sports"));
        assertThat(alice.topicAt(1)).isEqualTo("movies");
        assertThat(alice.topicAt(3)).isEqualTo("sports");
        assertThat(alice.topicAt(4)).isNull();
        assertThat(alice.colourOf("gossip")).isEqualTo(1);
        assertThatThrownBy(() -> alice.createTopic("#")).hasMessageContaining("1 to 64");
        assertThatThrownBy(() -> alice.createTopic("two words")).hasMessageContaining("one word");
    }

    @Test
    void searchLooksAtTextSenderAndTopic() {
        alice.receive(live("Bob", "The new Almodóvar", 1, "movies"));
        alice.receive(live("Carol", "tea time", 2, "gossip"));
        assertThat(bodies(alice.search("almodó"))).containsExactly("The new Almodóvar");
        assertThat(bodies(alice.search("carol"))).containsExactly("tea time");
        assertThat(bodies(alice.search("#gossip"))).containsExactly("tea time");
        assertThat(alice.search("  ")).hasSize(2);
    }
}
