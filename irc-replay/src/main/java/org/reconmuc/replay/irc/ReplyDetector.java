package org.reconmuc.replay.irc;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reply detection as the paper's replay tool did it: a message addressed to a nick
 * ({@code nick: …} or {@code nick, …} at the start of its text) replies to that nick's latest
 * message. Nicks compare case-insensitively; a nick change carries the latest message over to the
 * new nick; a nick that has not spoken yet, or the speaker's own nick, is no address.
 */
public final class ReplyDetector {
    /** {@code nick:} or {@code nick,} (an optional leading {@code @}), then anything. */
    private static final Pattern ADDRESS = Pattern.compile("^@?([^\\s:,]{1,64})\\s?[:,](?:\\s|$).*", Pattern.DOTALL);

    private ReplyDetector() {
    }

    /**
     * The detected parent of every line: {@code parents[i]} is the index of the line that line i
     * replies to, or -1.
     */
    public static int[] detect(List<LogLine> lines) {
        int[] parents = new int[lines.size()];
        java.util.Arrays.fill(parents, -1);
        Map<String, Integer> latest = new HashMap<>();
        for (LogLine line : lines) {
            switch (line.kind()) {
                case MESSAGE, ACTION -> {
                    String to = addressee(line.text());
                    if (to != null) {
                        String key = to.toLowerCase(Locale.ROOT);
                        Integer parent = latest.get(key);
                        if (parent != null && !key.equals(line.nick().toLowerCase(Locale.ROOT))) {
                            parents[line.index()] = parent;
                        }
                    }
                    latest.put(line.nick().toLowerCase(Locale.ROOT), line.index());
                }
                case NICK -> {
                    Integer last = latest.get(line.nick().toLowerCase(Locale.ROOT));
                    if (last != null) {
                        latest.put(line.newNick().toLowerCase(Locale.ROOT), last);
                    }
                }
                default -> {
                    // joins, leaves, notices and system lines are never parents here
                }
            }
        }
        return parents;
    }

    /** The nick a text addresses with {@code nick:} / {@code nick,}, or null. */
    public static String addressee(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = ADDRESS.matcher(text.strip());
        return m.matches() ? m.group(1) : null;
    }
}
