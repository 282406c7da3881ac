package org.reconmuc.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Real message bodies from the shared IRC logs ({@code ../shared/irc-logs/}, see its README):
 * the six channels of the paper's evaluation, each a topic, interleaved at random as a replay
 * into one room merges them. System lines (joins, quits) are skipped; control characters
 * (mIRC colours in the mediawiki log), which XML 1.0 cannot carry, are dropped.
 *
 * <p>Found through the system property {@code reconmuc.ircLogs}, else as {@code shared/irc-logs}
 * beside the working directory or one of its parents.
 */
public final class IrcCorpus {
    /** One chat line: the channel is its topic. */
    public record Line(String topic, String nick, String body) {
    }

    /** Channel (topic) and its log file, relative to the irc-logs folder. */
    private static final String[][] CHANNELS = {
        {"ubuntu", "ubuntu/2012-02-03.train-a.raw.txt"},
        {"linux", "linux/channel-two.all.raw.txt"},
        {"rust", "new-domains/rust.0.ascii.txt"},
        {"mediawiki", "new-domains/mediawiki.0.ascii.txt"},
        {"stripe", "new-domains/stripe.0.ascii.txt"},
        {"ubuntu-meeting", "new-domains/ubuntu-meeting.0.ascii.txt"},
    };
    private static final Pattern LINE = Pattern.compile("^(?:\\S+ \\S+ )?\\[[0-9:]+\\] <([^>\\s]+)>\\s?(.*)$");

    private IrcCorpus() {
    }

    public static Path directory() {
        String property = System.getProperty("reconmuc.ircLogs");
        if (property != null) {
            return Paths.get(property);
        }
        for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path candidate = d.resolve("shared/irc-logs");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("cannot find shared/irc-logs from " + Paths.get("").toAbsolutePath()
                + "; set -Dreconmuc.ircLogs=/path/to/irc-logs");
    }

    /** The first {@code perChannel} chat lines of each of the six channels, interleaved with a fixed seed. */
    public static List<Line> load(int perChannel) {
        Path dir = directory();
        List<List<Line>> channels = new ArrayList<>();
        for (String[] c : CHANNELS) {
            channels.add(read(c[0], dir.resolve(c[1]), perChannel));
        }
        SplittableRandom random = new SplittableRandom(7);
        int[] next = new int[channels.size()];
        List<Line> merged = new ArrayList<>();
        int remaining = channels.stream().mapToInt(List::size).sum();
        while (remaining > 0) {
            int c = random.nextInt(channels.size());
            if (next[c] < channels.get(c).size()) {
                merged.add(channels.get(c).get(next[c]++));
                remaining--;
            }
        }
        return merged;
    }

    private static List<Line> read(String topic, Path file, int max) {
        List<Line> lines = new ArrayList<>();
        try {
            for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                Matcher m = LINE.matcher(raw);
                if (!m.matches()) {
                    continue;
                }
                String body = clean(m.group(2));
                if (body.isEmpty()) {
                    continue;
                }
                lines.add(new Line(topic, m.group(1), body));
                if (lines.size() == max) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (lines.isEmpty()) {
            throw new IllegalStateException("no chat lines in " + file);
        }
        return lines;
    }

    private static String clean(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != 0xFFFE && c != 0xFFFF) {
                b.append(c);
            } else if (c == '\t') {
                b.append(' ');
            }
        }
        return b.toString().strip();
    }
}
