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
        StringBuilder series = new StringBuilder();
        int last = deliveriesPerSecond.length - 1;
        while (last >= 0 && deliveriesPerSecond[last] == 0) {
            last--;
        }
        for (int i = 0; i <= last; i++) {
            series.append(i == 0 ? "" : ",").append(deliveriesPerSecond[i]);
        }
        out.println(prefix + "series deliveries " + series);
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
                if (p.length == 3 && !p[2].isEmpty()) {
                    String[] v = p[2].split(",");
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
