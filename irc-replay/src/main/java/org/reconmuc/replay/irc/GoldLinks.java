package org.reconmuc.replay.irc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Gold reply links of one log file ({@code *.annotation.txt}): a line {@code A B -} links lines A
 * and B (0-based), the later replying to the earlier; {@code A A -} starts a new conversation.
 * A line is <em>annotated</em> when it is the later end of some link (self-links included).
 */
public final class GoldLinks {
    private final Map<Integer, Set<Integer>> parents = new TreeMap<>();

    public static GoldLinks parse(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    public static GoldLinks parse(String content) {
        GoldLinks g = new GoldLinks();
        for (String raw : content.split("\r?\n")) {
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\s+");
            if (f.length < 2) {
                throw new IllegalArgumentException("bad annotation line '" + raw + "'");
            }
            int a = Integer.parseInt(f[0]);
            int b = Integer.parseInt(f[1]);
            int child = Math.max(a, b);
            int parent = Math.min(a, b);
            Set<Integer> ps = g.parents.computeIfAbsent(child, k -> new TreeSet<>());
            if (parent != child) {
                ps.add(parent);
            }
        }
        return g;
    }

    /** Lines that were annotated (every line the annotators looked at as a reply candidate). */
    public Set<Integer> annotated() {
        return Collections.unmodifiableSet(parents.keySet());
    }

    /** The gold parents of a line (empty if it starts a conversation or is not annotated). */
    public Set<Integer> parentsOf(int line) {
        Set<Integer> p = parents.get(line);
        return p == null ? Set.of() : Collections.unmodifiableSet(p);
    }
}
