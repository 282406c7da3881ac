package org.reconmuc.joom.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One groupchat message as Joom shows it.
 *
 * @param key what identifies it for de-duplication: the room's stanza-id, else the sender's id and nick
 * @param stanzaId the id the room gave it (XEP-0359), which replies name; null if the room gave none
 * @param nick the sender's nick in the room
 * @param body the text
 * @param topics its topics, normalised: its {@code <topic/>} elements, else its hashtags
 * @param sentAt when the room received it: the XEP-0203 delay if it has one, else when it arrived
 * @param arrival how it arrived
 * @param replyToId the stanza-id of the message it replies to (XEP-0461), or null
 * @param replyToNick the nick of that message's author, or null
 * @param mine whether this user sent it
 */
public record ChatMessage(String key, String stanzaId, String nick, String body, List<String> topics, Instant sentAt,
        Arrival arrival, String replyToId, String replyToNick, boolean mine) {

    public ChatMessage {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(nick, "nick");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(sentAt, "sentAt");
        Objects.requireNonNull(arrival, "arrival");
        topics = List.copyOf(topics);
    }

    /** Whether it came later than the room received it (a batch or the join history): shown with a mark. */
    public boolean delayed() {
        return arrival != Arrival.LIVE;
    }

    /** Whether it is tagged with {@code topic} (normalised). */
    public boolean hasTopic(String topic) {
        return topics.contains(topic);
    }

    /** Its first topic, or null: the one its colour shows. */
    public String mainTopic() {
        return topics.isEmpty() ? null : topics.get(0);
    }
}
