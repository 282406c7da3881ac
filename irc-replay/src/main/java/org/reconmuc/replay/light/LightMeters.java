package org.reconmuc.replay.light;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.reconmuc.replay.meter.Histogram;

/**
 * What the light bots of one process measured, in the terms the Smack bots use (ScenarioResult):
 * deliveries at once and retained, their latency from the send time carried in each message's id,
 * direct replies, lost, duplicated, out of causal order, late; bytes and stanzas received in the
 * fill (the joins) and in the measurement; how long logins and joins took. Written as
 * {@code meter NAME VALUE} and {@code histogram NAME COMPACT} lines and added up over processes by
 * {@link #add(String)}, so the coordinator reports one room however many processes held it.
 */
public final class LightMeters {
    /** Counters, by name, in the order they were first counted. */
    public final Map<String, Long> counts = new LinkedHashMap<>();
    public final Histogram immediate = new Histogram();
    public final Histogram retained = new Histogram();
    public final Histogram directReplies = new Histogram();
    public final Histogram all = new Histogram();
    public final Histogram login = new Histogram();
    public final Histogram join = new Histogram();
    /** Deliveries per second of the measurement. */
    public final long[] deliveriesPerSecond = new long[4 * 3600];
    /**
     * The latest any occupant got each message at once, in ms, by the message's number: which
     * messages came late, e.g. those sent while the digests were due.
     */
    public final long[] immediateMaxByMessage = new long[100_000];

    private Map<String, Histogram> histograms() {
        Map<String, Histogram> h = new LinkedHashMap<>();
        h.put("immediate", immediate);
        h.put("retained", retained);
        h.put("direct-replies", directReplies);
        h.put("all", all);
        h.put("login", login);
        h.put("join", join);
        return h;
    }

    public void count(String name, long delta) {
        counts.merge(name, delta, Long::sum);
    }

    public long get(String name) {
        return counts.getOrDefault(name, 0L);
    }

    /** Writes every measure as lines (see the class comment), prefixed with {@code prefix}. */
    public void write(PrintStream out, String prefix) {
        counts.forEach((k, v) -> out.println(prefix + "meter " + k + " " + v));
        histograms().forEach((k, v) -> out.println(prefix + "histogram " + k + " " + v.toCompact()));
        out.println(prefix + "series deliveries " + trimmed(deliveriesPerSecond));
        out.println(prefix + "series immediate-max " + trimmed(immediateMaxByMessage));
    }

    /** The values up to the last that is not 0, comma-separated. */
    private static String trimmed(long[] values) {
        StringBuilder s = new StringBuilder();
        for (long v : trimmedCopy(values)) {
            s.append(s.isEmpty() ? "" : ",").append(v);
        }
        return s.toString();
    }

    /** The values up to the last that is not 0. */
    private static long[] trimmedCopy(long[] values) {
        int last = values.length - 1;
        while (last >= 0 && values[last] == 0) {
            last--;
        }
        return java.util.Arrays.copyOf(values, last + 1);
    }

    /** The values of {@link #immediateMaxByMessage} up to the last message anyone got at once. */
    public long[] immediateMaxByMessage() {
        return trimmedCopy(immediateMaxByMessage);
    }

    /** Adds one line {@link #write} wrote (without its prefix); false if it is none of them. */
    public boolean add(String line) {
        String[] p = line.split(" ", 3);
        if (p.length < 2) {
            return false;
        }
        switch (p[0]) {
            case "meter" -> count(p[1], Long.parseLong(p[2]));
            case "histogram" -> {
                Histogram h = histograms().get(p[1]);
                if (h != null && p.length == 3) {
                    h.addAll(p[2]);
                }
            }
            case "series" -> {
                String[] v = p.length == 3 && !p[2].isEmpty() ? p[2].split(",") : new String[0];
                if (p[1].equals("immediate-max")) {
                    for (int i = 0; i < v.length && i < immediateMaxByMessage.length; i++) {
                        immediateMaxByMessage[i] = Math.max(immediateMaxByMessage[i], Long.parseLong(v[i]));
                    }
                } else {
                    for (int i = 0; i < v.length && i < deliveriesPerSecond.length; i++) {
                        deliveriesPerSecond[i] += Long.parseLong(v[i]);
                    }
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }
}
