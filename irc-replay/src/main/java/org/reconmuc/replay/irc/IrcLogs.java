package org.reconmuc.replay.irc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The six channels of {@code shared/irc-logs}: {@code ubuntu} (ten files, in date order),
 * {@code linux}, {@code rust}, {@code mediawiki}, {@code stripe}, {@code ubuntu-meeting}.
 */
public final class IrcLogs {
    public static final List<String> CHANNELS = List.of("ubuntu", "linux", "rust", "mediawiki", "stripe", "ubuntu-meeting");

    private IrcLogs() {
    }

    /** Every channel's files, in the order of {@link #CHANNELS}. */
    public static Map<String, List<LogFile>> load(Path logsDir) throws IOException {
        if (!Files.isDirectory(logsDir)) {
            throw new IOException("no IRC log directory " + logsDir + " (give --logs DIR: shared/irc-logs)");
        }
        Map<String, List<LogFile>> channels = new LinkedHashMap<>();
        for (String channel : CHANNELS) {
            List<LogFile> files = new ArrayList<>();
            for (Path log : logFiles(logsDir, channel)) {
                files.add(load(channel, log));
            }
            if (files.isEmpty()) {
                throw new IOException("no log files for #" + channel + " under " + logsDir);
            }
            channels.put(channel, files);
        }
        return channels;
    }

    static LogFile load(String channel, Path log) throws IOException {
        String name = log.getFileName().toString();
        String stem = name.replaceFirst("\\.(raw|ascii)\\.txt$", "");
        Path annotation = log.resolveSibling(stem + ".annotation.txt");
        GoldLinks gold = Files.isRegularFile(annotation) ? GoldLinks.parse(annotation) : null;
        return new LogFile(channel, log, IrcLogParser.parse(log), gold);
    }

    private static List<Path> logFiles(Path dir, String channel) throws IOException {
        Path sub;
        String glob;
        switch (channel) {
            case "ubuntu" -> {
                sub = dir.resolve("ubuntu");
                glob = "*.raw.txt";
            }
            case "linux" -> {
                sub = dir.resolve("linux");
                glob = "*.raw.txt";
            }
            default -> {
                sub = dir.resolve("new-domains");
                glob = channel + ".*.ascii.txt";
            }
        }
        if (!Files.isDirectory(sub)) {
            return List.of();
        }
        var matcher = sub.getFileSystem().getPathMatcher("glob:" + glob);
        try (Stream<Path> s = Files.list(sub)) {
            return s.filter(p -> matcher.matches(p.getFileName())).sorted().toList();
        }
    }

    /** {@code shared/irc-logs}, found beside or above the working directory or the repository root. */
    public static Path defaultDir() {
        String prop = System.getProperty("reconmuc.repoRoot");
        List<Path> starts = new ArrayList<>();
        if (prop != null && !prop.isBlank()) {
            starts.add(Path.of(prop).toAbsolutePath().normalize());
        }
        starts.add(Path.of("").toAbsolutePath());
        for (Path start : starts) {
            for (Path p = start; p != null; p = p.getParent()) {
                for (Path c : List.of(p.resolve("shared/irc-logs"), p.resolve("../shared/irc-logs"))) {
                    if (Files.isDirectory(c)) {
                        return c.normalize();
                    }
                }
            }
        }
        return Path.of("../shared/irc-logs");
    }
}
