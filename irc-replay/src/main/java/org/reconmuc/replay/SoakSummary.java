package org.reconmuc.replay;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.reconmuc.servers.SharedStore;

/**
 * What {@code irc-replay soak} found, for summary.json and summary.md: the acknowledged messages'
 * fate at every bot ({@link RoomTally}: lost, duplicated, out of order; late apart from lost), each
 * room's archive against them (every acknowledged message once, each speaker's in the order sent),
 * ghosts (the room's occupant list against the bots in it), and the memory figures' slopes from
 * minute 20 on (from the middle of a shorter run), with charts of every per-minute figure.
 */
final class SoakSummary {
    private static final Pattern ARCHIVED_BODY = Pattern.compile("<body>\\[r(\\d+)m(\\d+)\\]");

    private final Path out;
    private final Map<Integer, List<SoakBot>> byRoom;
    private final SoakLedger ledger;
    private final int speakers;
    private final Map<String, Object> summary = new LinkedHashMap<>();
    private long lost;
    private long duplicated;
    private long outOfOrder;
    private long archiveGaps;
    private long ghosts;
    private long exceptions;

    SoakSummary(Path out, Map<Integer, List<SoakBot>> byRoom, SoakLedger ledger, int speakers) {
        this.out = out;
        this.byRoom = byRoom;
        this.ledger = ledger;
        this.speakers = speakers;
    }

    void put(String key, Object value) {
        summary.put(key, value);
        if (key.equals("unhandled_exceptions")) {
            exceptions = ((Number) value).longValue();
        }
    }

    Object get(String key) {
        return summary.get(key);
    }

    /** The issue's bound on honest occupants' at-once p99 outside the seconds of a fault (the hostile trickle included). */
    static final double AT_ONCE_P99_BOUND_MS = 2_000;

    /**
     * Nothing acknowledged lost, duplicated or out of order, no archive gap, no ghost, no unhandled
     * exception, and the at-once p99 outside faults within {@link #AT_ONCE_P99_BOUND_MS}.
     */
    boolean clean() {
        return lost == 0 && duplicated == 0 && outOfOrder == 0 && archiveGaps == 0 && ghosts == 0 && exceptions == 0
                && !(ledger.atOnceP99OutsideFaults() > AT_ONCE_P99_BOUND_MS);
    }

    private Map<Integer, List<Integer>> acknowledgedByRoom() {
        Map<Integer, List<Integer>> acked = new TreeMap<>();
        for (String key : ledger.acks.acknowledged.keySet()) {
            String[] rs = key.split(":");
            acked.computeIfAbsent(Integer.parseInt(rs[0]), k -> new ArrayList<>()).add(Integer.parseInt(rs[1]));
        }
        return acked;
    }

    /** The deliveries' figures; {@code missingAfterDrain - missingAtEnd} came late. */
    void deliveries(long missingAfterDrain, long missingAtEnd) {
        Map<Integer, List<Integer>> acked = acknowledgedByRoom();
        Map<String, Object> d = new LinkedHashMap<>();
        long expected = 0;
        long caughtUp = 0;
        List<String> examples = new ArrayList<>();
        Map<String, List<String>> lostTrails = new LinkedHashMap<>();
        long rejoins = 0;
        long resent = 0;
        long reconnects = 0;
        long catchUpFailures = 0;
        for (Map.Entry<Integer, List<SoakBot>> room : byRoom.entrySet()) {
            for (boolean ofRelaxed : new boolean[] {false, true}) {
                List<RoomTally.BotView> views = new ArrayList<>();
                for (SoakBot b : room.getValue()) {
                    if (b.relaxed() == ofRelaxed) {
                        views.add(b.view());
                    }
                }
                if (views.isEmpty()) {
                    continue;
                }
                RoomTally t = RoomTally.of(SoakLedger.roomName(room.getKey()), views,
                        acked.getOrDefault(room.getKey(), List.of()), seq -> seq % speakers);
                expected += t.expected;
                lost += t.lost;
                duplicated += t.duplicated;
                outOfOrder += t.outOfOrder;
                caughtUp += t.caughtUp;
                t.examples.stream().limit(Math.max(0, 10 - examples.size())).forEach(examples::add);
                for (RoomTally.Lost l : t.lostExamples) {
                    lostTrails.put(SoakLedger.roomName(room.getKey()) + "/" + l.bot() + " never got m" + l.seq(),
                            lostTrail(room.getKey(), room.getValue(), l));
                }
            }
            for (SoakBot b : room.getValue()) {
                resent += b.resent.get();
                rejoins += b.rejoins.get();
                reconnects += b.reconnects.get();
                catchUpFailures += b.catchUpFailures.get();
            }
        }
        d.put("lost_trails", lostTrails);
        long unanswered = ledger.sentAt.size() - ledger.acks.acknowledged.size()
                - ledger.acks.bounced.stream().filter(k -> !ledger.acks.acknowledged.containsKey(k)).count();
        d.put("sent", ledger.sentAt.size());
        d.put("acknowledged", ledger.acks.acknowledged.size());
        d.put("unacknowledged_bounced", ledger.acks.bounced.stream().filter(k -> !ledger.acks.acknowledged.containsKey(k)).count());
        d.put("unacknowledged_dropped", unanswered);
        d.put("deliveries_expected", expected);
        d.put("deliveries", ledger.deliveries.get());
        d.put("lost", lost);
        d.put("late", missingAfterDrain - missingAtEnd);
        d.put("duplicated", duplicated);
        d.put("out_of_order", outOfOrder);
        d.put("resent_same_stanza_id_dropped", resent);
        d.put("caught_up_from_archive", caughtUp);
        d.put("examples", examples);
        d.put("rejoins", rejoins);
        d.put("reconnects", reconnects);
        d.put("archive_catch_ups_failed", catchUpFailures);
        d.put("bot_operations_failed", ledger.botFailures.get());
        d.put("bot_operations_failed_examples", List.copyOf(ledger.botFailureExamples));
        d.put("at_once_p99_ms", nullIfNaN(ledger.atOnceP99()));
        d.put("at_once_p99_ms_outside_faults", nullIfNaN(ledger.atOnceP99OutsideFaults()));
        summary.put("acknowledged_messages", d);
    }

    /** Every room's archive (read from the shared store) against what its senders had acknowledged. */
    void archive(SharedStore store, String domain) throws Exception {
        Map<Integer, List<Integer>> acked = acknowledgedByRoom();
        long missing = 0;
        long twice = 0;
        long disorder = 0;
        List<String> examples = new ArrayList<>();
        for (int r : byRoom.keySet()) {
            List<Integer> archived = new ArrayList<>();
            for (String xml : store.archive(SoakLedger.roomName(r) + "@" + domain)) {
                Matcher m = ARCHIVED_BODY.matcher(xml);
                if (m.find() && Integer.parseInt(m.group(1)) == r) {
                    archived.add(Integer.parseInt(m.group(2)));
                }
            }
            Map<Integer, Integer> counts = new HashMap<>();
            archived.forEach(s -> counts.merge(s, 1, Integer::sum));
            for (int seq : acked.getOrDefault(r, List.of())) {
                Integer n = counts.get(seq);
                if (n == null) {
                    missing++;
                    example(examples, SoakLedger.roomName(r) + "'s archive lacks m" + seq);
                } else if (n > 1) {
                    twice++;
                    example(examples, SoakLedger.roomName(r) + "'s archive has m" + seq + " " + n + " times");
                }
            }
            Map<Integer, Integer> lastBySpeaker = new HashMap<>();
            for (int seq : archived) {
                Integer before = lastBySpeaker.put(seq % speakers, seq);
                if (before != null && before > seq) {
                    disorder++;
                    example(examples, SoakLedger.roomName(r) + "'s archive has m" + before + " before m" + seq);
                }
            }
        }
        archiveGaps = missing + twice + disorder;
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("missing", missing);
        a.put("duplicated", twice);
        a.put("out_of_order", disorder);
        a.put("examples", examples);
        summary.put("archive_gaps", a);
    }

    /** The rooms' occupant lists (disco#items from an outsider) against the bots in each room. */
    void ghosts(XMPPTCPConnection observer, String domain, IntFunction<Set<String>> botsIn) throws Exception {
        long missing = 0;
        List<String> examples = new ArrayList<>();
        for (int r : byRoom.keySet()) {
            Set<String> listed = new TreeSet<>(SoakCommand.listedNicks(observer, SoakLedger.roomName(r) + "@" + domain));
            Set<String> bots = botsIn.apply(r);
            for (String nick : listed) {
                if (!bots.contains(nick)) {
                    ghosts++;
                    example(examples, SoakLedger.roomName(r) + " lists " + nick + ", no bot of it is in");
                }
            }
            for (String nick : bots) {
                if (!listed.contains(nick)) {
                    missing++;
                    example(examples, SoakLedger.roomName(r) + " does not list its bot " + nick);
                }
            }
        }
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("ghosts", ghosts);
        g.put("bots_in_but_not_listed", missing);
        g.put("examples", examples);
        summary.put("occupants_at_end", g);
        ghosts += missing;
    }

    /**
     * The memory figures' slopes (MB per hour, least squares) from minute 20 on, or from the middle of
     * a run shorter than 40 minutes; charts of every figure against the minutes.
     */
    @SuppressWarnings("unchecked")
    void memory(List<Map<String, Object>> rows) throws IOException {
        int from = warmUpMinutes(rows.size());
        Map<String, Map<String, double[][]>> charts = new LinkedHashMap<>();
        for (String figure : List.of("live_heap_mb", "rss_mb", "fds", "threads")) {
            charts.put(figure, new TreeMap<>());
        }
        charts.put("ejabberd_rss_mb", new TreeMap<>());
        charts.put("at_once_p99_ms", new TreeMap<>());
        charts.put("queue_high_water", new TreeMap<>());
        Map<String, List<double[]>> points = new TreeMap<>();
        Map<String, Double> highest = new TreeMap<>();
        for (Map<String, Object> row : rows) {
            double minute = ((Number) row.get("minute")).doubleValue();
            ((Map<String, Object>) row.get("instances")).forEach((name, v) -> ((Map<String, Object>) v).forEach((figure, value) -> {
                if (charts.containsKey(figure) && value instanceof Number n) {
                    points.computeIfAbsent(figure + " " + name, k -> new ArrayList<>()).add(new double[] {minute, n.doubleValue()});
                }
            }));
            for (String figure : List.of("ejabberd_rss_mb", "at_once_p99_ms")) {
                if (row.get(figure) instanceof Number n) {
                    points.computeIfAbsent(figure + " ejabberd", k -> new ArrayList<>()).add(new double[] {minute, n.doubleValue()});
                }
            }
            if (row.get("high_water") instanceof Map<?, ?> marks) {
                marks.forEach((queue, value) -> {
                    if (value instanceof Number n) {
                        points.computeIfAbsent("queue_high_water " + queue, k -> new ArrayList<>()).add(new double[] {minute, n.doubleValue()});
                        highest.merge((String) queue, n.doubleValue(), Math::max);
                    }
                });
            }
        }
        Map<String, Object> slopes = new TreeMap<>();
        points.forEach((series, pts) -> {
            String figure = series.substring(0, series.indexOf(' '));
            String who = series.substring(series.indexOf(' ') + 1);
            double[][] xy = new double[2][pts.size()];
            for (int i = 0; i < pts.size(); i++) {
                xy[0][i] = pts.get(i)[0];
                xy[1][i] = pts.get(i)[1];
            }
            charts.get(figure).put(who, xy);
            if (figure.endsWith("_mb")) {
                List<double[]> tail = pts.stream().filter(p -> p[0] > from).toList();
                slopes.put(series.replace(' ', '.') + "_per_hour", tail.size() < 2 ? null : slope(tail) * 60);
            }
        });
        for (Map.Entry<String, Map<String, double[][]>> chart : charts.entrySet()) {
            if (!chart.getValue().isEmpty()) {
                Charts.points(chart.getValue(), chart.getKey().replace('_', ' ') + " by minute", "minute",
                        chart.getKey().replace('_', ' '), out.resolve(chart.getKey() + ".png"));
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("slopes_from_minute", from + 1);
        m.put("slopes", slopes);
        m.put("by_process", byProcess(rows, from));
        m.put("live_heap_all_instances", liveHeapOfAllInstances(rows, from));
        summary.put("memory", m);
        summary.put("queue_high_water", highest);
    }

    /**
     * The trail of the bot that never got {@code lost}, from 90 s before the message was sent to 90 s
     * after, times in seconds from its sending — was it in the room, did it leave, reconnect, catch up,
     * and what did it get around it.
     */
    private List<String> lostTrail(int room, List<SoakBot> bots, RoomTally.Lost lost) {
        Long sentNanos = ledger.sentAt.get(RoomAcks.key(room, lost.seq()));
        if (sentNanos == null) {
            return List.of();
        }
        long sentMillis = System.currentTimeMillis() - (System.nanoTime() - sentNanos) / 1_000_000;
        return bots.stream().filter(b -> b.name().equals(lost.bot())).findFirst()
                .map(b -> b.trail(sentMillis - 90_000, sentMillis + 90_000, sentMillis)).orElse(List.of());
    }

    /**
     * Minutes a process warms up before its memory counts: 19 (its slopes from its 20th minute on), or
     * half of a run shorter than 40 minutes.
     */
    static int warmUpMinutes(int minutesRun) {
        return minutesRun >= 40 ? 19 : minutesRun / 2;
    }

    /**
     * Each instance process's RSS and live heap slopes from its own {@code warmUp}-th minute on: an
     * instance killed and restarted is a new JVM warming up (JIT code, metaspace), which a slope of the
     * instance's series from minute 20 counts as growth. Processes judged fewer than ten minutes have
     * no slope.
     */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> byProcess(List<Map<String, Object>> rows, int warmUp) {
        Map<String, Map<Long, List<Map<String, Object>>>> samples = new TreeMap<>();
        for (Map<String, Object> row : rows) {
            int minute = ((Number) row.get("minute")).intValue();
            ((Map<String, Object>) row.get("instances")).forEach((name, v) -> {
                Map<String, Object> one = new LinkedHashMap<>((Map<String, Object>) v);
                one.put("minute", minute);
                samples.computeIfAbsent(name, k -> new LinkedHashMap<>())
                        .computeIfAbsent(((Number) one.get("pid")).longValue(), k -> new ArrayList<>()).add(one);
            });
        }
        List<Map<String, Object>> all = new ArrayList<>();
        samples.forEach((name, byPid) -> byPid.forEach((pid, pts) -> {
            int first = (int) pts.get(0).get("minute");
            int last = (int) pts.get(pts.size() - 1).get("minute");
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("instance", name);
            p.put("pid", pid);
            p.put("first_minute", first);
            p.put("last_minute", last);
            List<Map<String, Object>> judged = pts.stream().filter(x -> (int) x.get("minute") - first >= warmUp).toList();
            p.put("minutes_judged", judged.size());
            for (String figure : List.of("rss_mb", "live_heap_mb")) {
                List<double[]> xy = judged.stream().filter(x -> x.get(figure) instanceof Number)
                        .map(x -> new double[] {((Number) x.get("minute")).doubleValue(), ((Number) x.get(figure)).doubleValue()})
                        .toList();
                p.put(figure + "_per_hour", xy.size() < 10 ? null : slope(xy) * 60);
            }
            all.add(p);
        }));
        return all;
    }

    /**
     * The instances' live heaps added up, in the minutes every instance answered: the mean of the first
     * five minutes after warm-up against the mean of the last five. Rooms move between instances with
     * every kill; their sum is the service's data.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> liveHeapOfAllInstances(List<Map<String, Object>> rows, int warmUp) {
        int instances = rows.stream().mapToInt(r -> ((Map<String, Object>) r.get("instances")).size()).max().orElse(0);
        List<Double> totals = new ArrayList<>();
        for (Map<String, Object> row : rows) {
            Map<String, Object> byInstance = (Map<String, Object>) row.get("instances");
            if (((Number) row.get("minute")).intValue() <= warmUp || byInstance.size() < instances) {
                continue;
            }
            double total = 0;
            for (Object v : byInstance.values()) {
                if (!(((Map<String, Object>) v).get("live_heap_mb") instanceof Number n)) {
                    total = Double.NaN;
                    break;
                }
                total += n.doubleValue();
            }
            if (!Double.isNaN(total)) {
                totals.add(total);
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("minutes", totals.size());
        if (totals.size() >= 10) {
            double first = totals.subList(0, 5).stream().mapToDouble(Double::doubleValue).average().orElse(0);
            double last = totals.subList(totals.size() - 5, totals.size()).stream().mapToDouble(Double::doubleValue).average().orElse(0);
            m.put("first_five_mb", first);
            m.put("last_five_mb", last);
            m.put("change_percent", (last - first) / first * 100);
        }
        return m;
    }

    private static String round(Object v) {
        return v instanceof Number n ? String.format(java.util.Locale.ROOT, "%.1f", n.doubleValue()) : "-";
    }

    /** Least-squares slope of y on x. */
    static double slope(List<double[]> pts) {
        double n = pts.size();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (double[] p : pts) {
            sx += p[0];
            sy += p[1];
            sxx += p[0] * p[0];
            sxy += p[0] * p[1];
        }
        double d = n * sxx - sx * sx;
        return d == 0 ? 0 : (n * sxy - sx * sy) / d;
    }

    /** summary.json, summary.md, and the verdict on the console. */
    @SuppressWarnings("unchecked")
    void write(PrintStream console) throws IOException {
        summary.put("clean", clean());
        String json = Json.write(summary);
        Files.writeString(out.resolve("summary.json"), json);
        Map<String, Object> d = (Map<String, Object>) summary.get("acknowledged_messages");
        Map<String, Object> a = (Map<String, Object>) summary.get("archive_gaps");
        Map<String, Object> g = (Map<String, Object>) summary.get("occupants_at_end");
        StringBuilder md = new StringBuilder("# Soak\n\n");
        md.append("| figure | value |\n|---|---|\n");
        for (String k : List.of("sent", "acknowledged", "deliveries", "lost", "late", "duplicated", "out_of_order",
                "resent_same_stanza_id_dropped", "caught_up_from_archive", "rejoins", "reconnects", "at_once_p99_ms", "at_once_p99_ms_outside_faults")) {
            md.append("| ").append(k.replace('_', ' ')).append(" | ").append(d.get(k)).append(" |\n");
        }
        md.append("| archive: missing / duplicated / out of order | ").append(a.get("missing")).append(" / ")
                .append(a.get("duplicated")).append(" / ").append(a.get("out_of_order")).append(" |\n");
        md.append("| ghosts / bots in but not listed | ").append(g.get("ghosts")).append(" / ")
                .append(g.get("bots_in_but_not_listed")).append(" |\n");
        md.append("| unhandled exceptions | ").append(summary.get("unhandled_exceptions")).append(" |\n");
        md.append("| queue high water, highest minute on any instance | ").append(summary.get("queue_high_water")).append(" |\n");
        md.append("| clean (every count above 0, at-once p99 outside faults ≤ ").append((long) AT_ONCE_P99_BOUND_MS)
                .append(" ms) | ").append(clean()).append(" |\n\n");
        if (d.get("lost_trails") instanceof Map<?, ?> trails && !trails.isEmpty()) {
            trails.forEach((example, trail) -> md.append(example).append(", the bot around it (s from its sending):\n\n")
                    .append(String.join("\n", ((List<String>) trail).stream().map(line -> "    " + line).toList())).append("\n\n"));
        }
        md.append("Faults: ").append(summary.get("faults")).append("\n\n");
        Map<String, Object> memory = (Map<String, Object>) summary.get("memory");
        md.append("Memory slopes (MB/hour) of each instance's series: ").append(memory.get("slopes")).append("\n\n");
        md.append("| instance | pid | minutes | judged | RSS MB/hour | live heap MB/hour |\n|---|---|---|---|---|---|\n");
        for (Map<String, Object> p : (List<Map<String, Object>>) memory.get("by_process")) {
            md.append("| ").append(p.get("instance")).append(" | ").append(p.get("pid")).append(" | ").append(p.get("first_minute"))
                    .append("–").append(p.get("last_minute")).append(" | ").append(p.get("minutes_judged")).append(" | ")
                    .append(round(p.get("rss_mb_per_hour"))).append(" | ").append(round(p.get("live_heap_mb_per_hour"))).append(" |\n");
        }
        md.append("\nLive heap of all instances (first five minutes after warm-up → last five): ")
                .append(memory.get("live_heap_all_instances")).append("\n\n");
        if (summary.get("native_memory") != null) {
            md.append("Native memory (committed KB, change since each process's baseline): nmt-*.txt and summary.json\n\n");
        }
        md.append("Charts: live_heap_mb.png, rss_mb.png, fds.png, threads.png, ejabberd_rss_mb.png, at_once_p99_ms.png,"
                + " queue_high_water.png;"
                + " every minute in minutes.jsonl; everything in summary.json.\n");
        Files.writeString(out.resolve("summary.md"), md);
        console.print(json);
        console.printf("soak: %s%n", clean() ? "clean" : "NOT clean");
    }

    private static void example(List<String> examples, String text) {
        if (examples.size() < 10) {
            examples.add(text);
        }
    }

    private static Double nullIfNaN(double v) {
        return Double.isNaN(v) ? null : v;
    }
}
