package org.reconmuc.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Topics (reconmuc.md §5.3): how a {@code <topic/>} value or a filter's topic is normalised, and
 * the {@code #hashtags} that tag a message without {@code <topic/>} elements. One definition for
 * the service (which routes by them) and clients (which filter locally when the room does not).
 */
public final class Topics {
    /** Longest normalised topic. */
    public static final int MAX_LENGTH = 64;
    /** A service considers at most this many topics per message (§5.3 rule 5); clients too. */
    public static final int MAX_PER_MESSAGE = 16;
    /** A '#' at a word start, then 1 to 64 letters, digits, '_' or '-' (a longer run is no hashtag). */
    private static final Pattern HASHTAG =
            Pattern.compile("(?<![\\p{L}\\p{Nd}_#&])#([\\p{L}\\p{Nd}_-]{1,64})(?![\\p{L}\\p{Nd}_-])");

    private Topics() {
    }

    /** A topic as compared: trimmed of white space, without one leading '#', lower case (locale-independent). May be empty. */
    public static String normalize(String topic) {
        String t = topic.trim();
        if (t.startsWith("#")) {
            t = t.substring(1);
        }
        return t.toLowerCase(Locale.ROOT);
    }

    /** Whether a normalised topic may tag a message or fill a filter: 1 to {@link #MAX_LENGTH} characters. */
    public static boolean isValid(String normalized) {
        return !normalized.isEmpty() && normalized.length() <= MAX_LENGTH;
    }

    /** The hashtags of a body, normalised, in order, duplicates once, at most {@link #MAX_PER_MESSAGE}. */
    public static List<String> hashtags(CharSequence body) {
        List<String> tags = new ArrayList<>();
        Matcher m = HASHTAG.matcher(body);
        while (m.find() && tags.size() < MAX_PER_MESSAGE) {
            String t = m.group(1).toLowerCase(Locale.ROOT);
            if (!tags.contains(t)) {
                tags.add(t);
            }
        }
        return tags;
    }
}
