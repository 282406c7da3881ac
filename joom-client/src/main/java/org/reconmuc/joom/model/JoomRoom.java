package org.reconmuc.joom.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.reconmuc.codec.Topics;

/**
 * One joined room as Joom shows it: the timeline, the topics (from messages seen and created
 * here) with their counters, the active topic and its conversation, replies and mentions of the
 * user, and the search. Not thread-safe: the UI owns it on its event thread.
 */
public final class JoomRoom {

    /** What changed, for the views. */
    public interface Listener {
        /** A message was added to the timeline at {@code index}. */
        void messageAdded(ChatMessage message, int index);

        /** The topic list changed: a topic, a counter or the active topic. */
        void topicsChanged();

        /** Someone replied to one of the user's messages (the tray / notification hint). */
        default void replyToMe(ChatMessage reply) {
        }
    }

    private static final class Counters {
        final int colour;
        int unread;
        int messages;

        Counters(int colour) {
            this.colour = colour;
        }
    }

    private final Timeline timeline = new Timeline();
    private final Map<String, Counters> topics = new LinkedHashMap<>();
    private final Set<String> myStanzaIds = new HashSet<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private String myNick;
    private String active;
    private int unseenReplies;

    public JoomRoom(String myNick) {
        this.myNick = myNick;
    }

    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    public String myNick() {
        return myNick;
    }

    /** After a nick change. */
    public void setMyNick(String nick) {
        this.myNick = nick;
    }

    /** The active topic, or null before one is chosen. */
    public String activeTopic() {
        return active;
    }

    /**
     * Adds a received message: to the timeline at its time, to its topics' counters (unread unless
     * it is the user's own or belongs to the active topic). Returns false for a message already held.
     */
    public boolean receive(ChatMessage m) {
        int index = timeline.add(m);
        if (index < 0) {
            return false;
        }
        if (m.mine() && m.stanzaId() != null) {
            myStanzaIds.add(m.stanzaId());
        }
        boolean seen = m.mine() || (active != null && m.hasTopic(active));
        for (String t : m.topics()) {
            Counters c = counters(t);
            c.messages++;
            if (!seen) {
                c.unread++;
            }
        }
        boolean reply = isReplyToMe(m);
        if (reply) {
            unseenReplies++;
        }
        for (Listener l : listeners) {
            l.messageAdded(m, index);
            if (!m.topics().isEmpty()) {
                l.topicsChanged();
            }
            if (reply) {
                l.replyToMe(m);
            }
        }
        return true;
    }

    private Counters counters(String topic) {
        return topics.computeIfAbsent(topic, t -> new Counters(topics.size()));
    }

    /**
     * Creates a topic here (before any message has it); returns it normalised.
     *
     * @throws IllegalArgumentException in plain words, if it is empty or too long
     */
    public String createTopic(String name) {
        String t = Topics.normalize(name);
        if (!Topics.isValid(t)) {
            throw new IllegalArgumentException("A topic needs 1 to " + Topics.MAX_LENGTH + " characters after an optional #.");
        }
        if (!t.matches("[\\p{L}\\p{Nd}_-]+")) {
            throw new IllegalArgumentException("A topic is one word: letters, digits, _ and - (so it works as a #hashtag).");
        }
        if (!topics.containsKey(t)) {
            counters(t);
            listeners.forEach(Listener::topicsChanged);
        }
        return t;
    }

    /**
     * Makes {@code topic} (normalised, created if new) the active topic and clears its unread
     * counter; returns the topic that was active before (null if none).
     */
    public String activate(String topic) {
        String t = createTopic(topic);
        String before = active;
        active = t;
        topics.get(t).unread = 0;
        listeners.forEach(Listener::topicsChanged);
        return before;
    }

    /** The {@code n}-th topic of the list, 1-based (Ctrl+1..9), or null. */
    public String topicAt(int n) {
        int i = 1;
        for (String t : topics.keySet()) {
            if (i++ == n) {
                return t;
            }
        }
        return null;
    }

    /** The topics in the order they appeared, with their counters. */
    public List<TopicView> topics() {
        List<TopicView> views = new ArrayList<>(topics.size());
        topics.forEach((t, c) -> views.add(new TopicView(t, c.colour, c.unread, c.messages, t.equals(active))));
        return views;
    }

    /** The colour index of a topic, or -1 for none. */
    public int colourOf(String topic) {
        Counters c = topic == null ? null : topics.get(topic);
        return c == null ? -1 : c.colour;
    }

    /** Every message, in the room's order. */
    public List<ChatMessage> timeline() {
        return timeline.messages();
    }

    /** The active topic's messages, in the room's order (empty before a topic is active). */
    public List<ChatMessage> conversation() {
        List<ChatMessage> c = new ArrayList<>();
        if (active != null) {
            for (ChatMessage m : timeline.messages()) {
                if (m.hasTopic(active)) {
                    c.add(m);
                }
            }
        }
        return c;
    }

    /** Messages whose text, sender or topic contains {@code query} (any case); all for a blank query. */
    public List<ChatMessage> search(String query) {
        String q = query == null ? "" : query.strip().toLowerCase(Locale.ROOT);
        if (q.isEmpty()) {
            return timeline.messages();
        }
        String topic = q.startsWith("#") ? q.substring(1) : null;
        List<ChatMessage> found = new ArrayList<>();
        for (ChatMessage m : timeline.messages()) {
            if (m.body().toLowerCase(Locale.ROOT).contains(q) || m.nick().toLowerCase(Locale.ROOT).contains(q)
                    || (topic != null && m.hasTopic(topic))) {
                found.add(m);
            }
        }
        return found;
    }

    /** The message with this room stanza-id, or null (a reply's parent). */
    public ChatMessage byStanzaId(String stanzaId) {
        return timeline.byStanzaId(stanzaId);
    }

    /** Whether {@code m} replies to one of the user's messages (by the parent's id, or its author's nick). */
    public boolean isReplyToMe(ChatMessage m) {
        if (m.mine() || (m.replyToId() == null && m.replyToNick() == null)) {
            return false;
        }
        return myStanzaIds.contains(m.replyToId()) || myNick.equals(m.replyToNick());
    }

    /** Whether {@code m} mentions the user's nick (and is not the user's own). */
    public boolean mentionsMe(ChatMessage m) {
        return !m.mine() && MessageText.mentions(m.body(), myNick);
    }

    /** Replies to the user not yet looked at. */
    public int unseenReplies() {
        return unseenReplies;
    }

    /** The user looked at the replies. */
    public void repliesSeen() {
        unseenReplies = 0;
        listeners.forEach(Listener::topicsChanged);
    }
}
