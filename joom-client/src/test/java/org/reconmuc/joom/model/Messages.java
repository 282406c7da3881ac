package org.reconmuc.joom.model;

import java.time.Instant;
import java.util.List;

/** Messages for the model's tests, at fixed times (no clock). */
final class Messages {
    static final Instant T0 = Instant.parse("2011-03-21T09:00:00Z");
    private static int ids;

    private Messages() {
    }

    static ChatMessage live(String nick, String body, int second, String... topics) {
        return message(nick, body, second, Arrival.LIVE, null, null, false, topics);
    }

    static ChatMessage batched(String nick, String body, int second, String... topics) {
        return message(nick, body, second, Arrival.BATCHED, null, null, false, topics);
    }

    static ChatMessage mine(String nick, String body, int second, String... topics) {
        return message(nick, body, second, Arrival.LIVE, null, null, true, topics);
    }

    static ChatMessage reply(String nick, String body, int second, ChatMessage parent, String... topics) {
        return message(nick, body, second, Arrival.LIVE, parent.stanzaId(), parent.nick(), false, topics);
    }

    static ChatMessage message(String nick, String body, int second, Arrival arrival, String replyToId, String replyToNick,
            boolean mine, String... topics) {
        String sid = "sid-" + (++ids);
        return new ChatMessage(sid, sid, nick, body, List.of(topics), T0.plusSeconds(second), arrival, replyToId, replyToNick,
                mine);
    }
}
