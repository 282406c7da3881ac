package org.reconmuc.replay;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jivesoftware.smack.packet.Message;

/**
 * The answers {@code irc-replay rooms} got to what its bots sent, by {@code "<room>:<seq>"}: a
 * message is acknowledged when its sender sees it echoed, bounced when an error comes back with its id
 * ({@code r<room>m<seq>}) or it could not be sent.
 */
final class RoomAcks {
    private static final Pattern SENT_ID = Pattern.compile("r(\\d+)m(\\d+)");

    /** Key to when its echo came (System.nanoTime). */
    final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    final Set<String> bounced = ConcurrentHashMap.newKeySet();

    static String key(int room, int seq) {
        return room + ":" + seq;
    }

    /** The id a sent message carries, so that its error names it. */
    static String stanzaId(int room, int seq) {
        return "r" + room + "m" + seq;
    }

    /** Watches {@code bot}'s connection for its own echoes and for errors. */
    void listen(RoomBot bot) {
        bot.connection.addSyncStanzaListener(s -> answer((Message) s, bot.nick), s -> s instanceof Message);
    }

    /** A message that came to the occupant now named {@code nick}: its own echo, or an error naming what it sent. */
    void answer(Message m, String nick) {
        if (m.getType() == Message.Type.error) {
            Matcher sentId = SENT_ID.matcher(String.valueOf(m.getStanzaId()));
            if (sentId.matches()) {
                bounced.add(sentId.group(1) + ":" + sentId.group(2));
            }
            return;
        }
        Matcher id = m.getBody() == null ? null : RoomBot.BODY_ID.matcher(m.getBody());
        if (id == null || !id.find()) {
            return;
        }
        if (m.getFrom() != null && nick.equals(String.valueOf(m.getFrom().getResourceOrNull()))) {
            acknowledged.putIfAbsent(id.group(1) + ":" + id.group(2), System.nanoTime());
        }
    }

    /** Whether each of the {@code sent} messages was echoed or bounced. */
    boolean allAnswered(int sent) {
        return acknowledged.size() + bounced.stream().filter(k -> !acknowledged.containsKey(k)).count() >= sent;
    }
}
