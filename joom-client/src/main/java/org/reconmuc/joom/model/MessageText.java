package org.reconmuc.joom.model;

import java.util.List;
import java.util.Locale;
import org.reconmuc.codec.Topics;

/** What Joom reads in and writes into message text. */
public final class MessageText {

    private MessageText() {
    }

    /**
     * Whether {@code body} mentions {@code nick}: the nick as a whole word, in any case (also
     * {@code @nick} and the IRC-style {@code nick:} address).
     */
    public static boolean mentions(String body, String nick) {
        if (nick == null || nick.isEmpty()) {
            return false;
        }
        String b = body.toLowerCase(Locale.ROOT);
        String n = nick.toLowerCase(Locale.ROOT);
        for (int i = b.indexOf(n); i >= 0; i = b.indexOf(n, i + 1)) {
            boolean startsWord = i == 0 || !isWordChar(b.charAt(i - 1));
            int end = i + n.length();
            boolean endsWord = end == b.length() || !isWordChar(b.charAt(end));
            if (startsWord && endsWord) {
                return true;
            }
        }
        return false;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-';
    }

    /**
     * The body to send for {@code topic}: as typed, with {@code #topic} appended unless it already
     * carries that hashtag, so standard clients see the topic too (reconmuc.md §5.13 rule 5).
     */
    public static String withHashtag(String body, String topic) {
        String text = body.strip();
        if (topic == null || Topics.hashtags(text).contains(topic)) {
            return text;
        }
        return text + " #" + topic;
    }

    /**
     * The topics of a message: its {@code <topic/>} values normalised (invalid ones dropped), or,
     * when it has none, the hashtags of its body (reconmuc.md §5.3).
     */
    public static List<String> topics(List<String> topicElements, String body) {
        if (!topicElements.isEmpty()) {
            return topicElements.stream().map(Topics::normalize).filter(Topics::isValid).distinct()
                    .limit(Topics.MAX_PER_MESSAGE).toList();
        }
        return body == null ? List.of() : Topics.hashtags(body);
    }
}
