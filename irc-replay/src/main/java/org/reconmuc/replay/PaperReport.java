package org.reconmuc.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.reconmuc.replay.PaperCommand.Phase;
import org.reconmuc.replay.meter.Series.Metric;

/**
 * The paper's tables and figures from the phases of {@link PaperCommand}: README.md (Table 1,
 * bytes; Table 2, direct-reply latency; completeness; radio; Prosody; scale) and the figures
 * (3: wire bytes per second, 4: the component's heap and RSS, 5: CPU as occupants grow).
 * Rewritten after every phase, so a run cut short still leaves what it measured.
 */
final class PaperReport {
    /** The seed paper's outbound bandwidth vs its standard MUC (XEP-0138 on): Table 1 / Figure 3. */
    private static final Map<Integer, String> PAPER_BANDWIDTH = Map.of(10, "82 %", 30, "58 %", 60, "56 %");

    private PaperReport() {
    }

    static void write(Path dir, List<Phase> plan, Map<Phase, List<ScenarioResult>> results, Map<Phase, String> failures,
            Map<Phase, String[]> loads, Map<String, Object> facts, double minutes) throws IOException {
        StringBuilder b = new StringBuilder();
        b.append("# The seed paper's evaluation, rerun\n\n");
        b.append("Alves & Ferreira, *ReConMUC*, CSCW 2011: outbound bandwidth 82 / 58 / 56 % of the standard MUC at volume"
                + " 10 / 30 / 60, 115 % without aggregation, direct replies in 6–9 ms against 60 ms, memory within 100 MB of the"
                + " standard MUC — with 800 participants, six IRC channels in one room, XEP-0138 stream compression on.\n\n");
        for (Map.Entry<String, Object> f : facts.entrySet()) {
            b.append("- ").append(f.getKey().replace('_', ' ')).append(": ").append(f.getValue()).append('\n');
        }
        b.append(String.format(Locale.ROOT, "- minutes so far: %.1f%n%n", minutes));
        b.append("| phase | what | minutes | load average before | after | result |\n|---|---|---:|---|---|---|\n");
        for (Phase p : plan) {
            String[] l = loads.get(p);
            b.append("| ").append(p.name()).append(" | ").append(p.purpose()).append(" | ")
                    .append(l == null ? "" : l[2]).append(" | ").append(l == null ? "" : l[0]).append(" | ")
                    .append(l == null ? "" : l[1]).append(" | ")
                    .append(failures.containsKey(p) ? "FAILED: " + failures.get(p) : results.containsKey(p) ? "done" : "not run")
                    .append(" |\n");
        }
        b.append("\nEach phase's own folder holds its `summary.json`, `comparison.md`, charts and per-scenario"
                + " `timeseries.csv` / `bots.csv`; the exact options are in its `summary.json` (`parameters`).\n\n");
        completeness(b, results);
        Phase bandwidth = find(results, "bandwidth");
        if (bandwidth != null) {
            List<ScenarioResult> rs = results.get(bandwidth);
            table1(b, rs);
            table2(b, rs);
            figures3and4(b, dir, rs);
        }
        figure5(b, dir, plan, results);
        Phase prosody = find(results, "prosody");
        if (prosody != null) {
            b.append("## Prosody's own MUC beside the component (").append(prosody.purpose()).append(")\n\n");
            bytesTable(b, results.get(prosody), World.A);
            bytesTable(b, results.get(prosody), World.B);
            table2(b, results.get(prosody));
        }
        Phase radio = find(results, "radio");
        if (radio != null) {
            radio(b, results.get(radio));
        }
        Phase big = find(results, "scale-5000");
        if (big != null) {
            b.append("## 5,000 occupants in one room\n\n");
            bytesTable(b, results.get(big), World.A);
            bytesTable(b, results.get(big), World.B);
            table2(b, results.get(big));
            processes(b, results.get(big));
        }
        Files.writeString(dir.resolve("README.md"), b.toString());
    }

    private static Phase find(Map<Phase, List<ScenarioResult>> results, String name) {
        return results.keySet().stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
    }

    private static void completeness(StringBuilder b, Map<Phase, List<ScenarioResult>> results) {
        b.append("## Completeness (every phase; a run that loses one message is a failed run)\n\n");
        b.append("| phase | scenario | messages sent | deliveries expected | lost | late | duplicated | out of causal order |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
        results.forEach((p, rs) -> {
            for (ScenarioResult r : rs) {
                b.append("| ").append(p.name()).append(" | ").append(r.label).append(" | ").append(r.get("messages_sent"))
                        .append(" | ").append(String.format(Locale.ROOT, "%,d", r.expected)).append(" | ").append(r.lost)
                        .append(" | ").append(r.late).append(" | ").append(r.duplicated).append(" | ").append(r.outOfOrder).append(" |\n");
            }
        });
        b.append('\n');
    }

    /** Table 1: bytes per world, modelled and real, against every baseline. */
    private static void table1(StringBuilder b, List<ScenarioResult> rs) {
        b.append("## Table 1 — bytes the server sent the occupants\n\n");
        b.append("Per message and occupant, then as a share of each baseline in the same run: `standard` (ejabberd's own MUC,"
                + " MAM off, as the paper measured), `standard-mam` (the same room archiving: it stamps a stanza-id on every"
                + " message as ReConMUC does — the like-for-like baseline), `off` (ReConMUC, nobody relaxed). *Modelled* wire"
                + " = payload + 52 B of TCP/IP header per 1448-B segment, a segment per stanza at least; *real* = IP bytes the"
                + " kernel sent over the 1500-MTU veth link (offloads off). Paper: 82 / 58 / 56 % at volume 10 / 30 / 60, 115 %"
                + " without aggregation (world A, vs standard).\n\n");
        for (World w : World.values()) {
            bytesTable(b, rs, w);
        }
    }

    private static void bytesTable(StringBuilder b, List<ScenarioResult> rs, World w) {
        if (rs.isEmpty() || !rs.get(0).worlds().contains(w)) {
            return;
        }
        Metric modelled = w == World.A ? Metric.WIRE_ZLIB_MODEL_BYTES : Metric.WIRE_XML_BYTES;
        boolean real = rs.get(0).get(w, "real_link") != null;
        b.append("### World ").append(w.name()).append(": ").append(w.what).append("\n\n");
        b.append("| scenario | payload B | ").append(w == World.A ? "zlib-model B | " : "")
                .append("wire modelled B | wire real B | packets per stanza | modelled % standard | real % standard | real % standard-mam | real % off | paper |\n");
        b.append("|---|---:|").append(w == World.A ? "---:|" : "").append("---:|---:|---:|---:|---:|---:|---:|---|\n");
        ScenarioResult standard = byLabel(rs, "standard");
        ScenarioResult mam = byLabel(rs, "standard-mam");
        ScenarioResult off = byLabel(rs, "off");
        Metric realMetric = real ? Metric.WIRE_REAL_BYTES : Metric.WIRE_SOCKET_BYTES;
        for (ScenarioResult r : rs) {
            double per = perMessagePerBot(r, w);
            b.append("| ").append(r.label).append(" | ").append(f1(r.bytes(w, Metric.XML_BYTES) / per)).append(" | ");
            if (w == World.A) {
                b.append(f1(r.bytes(w, Metric.ZLIB_MODEL_BYTES) / per)).append(" | ");
            }
            b.append(f1(r.bytes(w, modelled) / per)).append(" | ")
                    .append(real ? f1(r.bytes(w, realMetric) / per) : "–").append(" | ")
                    .append(real ? f2(((Number) r.get(w, "real_link", "server_to_bots_packets_per_stanza")).doubleValue()) : "–")
                    .append(" | ").append(pct(r, standard, w, modelled)).append(" | ")
                    .append(real ? pct(r, standard, w, realMetric) : "–").append(" | ")
                    .append(real ? pct(r, mam, w, realMetric) : "–").append(" | ")
                    .append(real ? pct(r, off, w, realMetric) : "–").append(" | ")
                    .append(w == World.A ? paper(r) : "").append(" |\n");
        }
        b.append('\n');
    }

    private static String paper(ScenarioResult r) {
        Object aggregation = r.get("aggregation");
        Object volume = r.get("volume");
        if (aggregation == null || volume == null) {
            return "";
        }
        if (aggregation.toString().startsWith("none")) {
            return "115 %";
        }
        // The paper's clients each stated one volume: our fixed-volume runs are its setting.
        return PAPER_BANDWIDTH.getOrDefault(((Number) volume).intValue(), "");
    }

    /** Table 2: latency of direct replies at the parent's author, and of everything. */
    private static void table2(StringBuilder b, List<ScenarioResult> rs) {
        b.append("## Table 2 — direct-reply latency (send to receipt at the parent's author), ms\n\n");
        b.append("Paper: 6–9 ms relaxed against 60 ms standard.\n\n");
        b.append("| scenario | world | direct replies | mean | p50 | p99 | all deliveries p50 | p99 |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (ScenarioResult r : rs) {
            for (World w : r.worlds()) {
                b.append("| ").append(r.label).append(" | ").append(w.name()).append(" | ")
                        .append(r.get(w, "latency_ms", "direct_replies_at_parent_author", "count")).append(" | ")
                        .append(num(r.get(w, "latency_ms", "direct_replies_at_parent_author", "mean"))).append(" | ")
                        .append(num(r.get(w, "latency_ms", "direct_replies_at_parent_author", "p50"))).append(" | ")
                        .append(num(r.get(w, "latency_ms", "direct_replies_at_parent_author", "p99"))).append(" | ")
                        .append(num(r.get(w, "latency_ms", "all_deliveries", "p50"))).append(" | ")
                        .append(num(r.get(w, "latency_ms", "all_deliveries", "p99"))).append(" |\n");
            }
        }
        b.append('\n');
    }

    private static void figures3and4(StringBuilder b, Path dir, List<ScenarioResult> rs) throws IOException {
        for (World w : rs.get(0).worlds()) {
            Map<String, double[]> lines = new LinkedHashMap<>();
            Metric m = rs.get(0).get(w, "real_link") != null ? Metric.WIRE_REAL_BYTES : Metric.WIRE_SOCKET_BYTES;
            for (ScenarioResult r : rs) {
                lines.put(r.label, r.perSecondByWorld.get(w)[m.ordinal()]);
            }
            String file = "figure-3-wire-bytes-per-second-world-" + w.label() + ".png";
            Charts.perSecond(lines, "Figure 3 (world " + w.name() + ", " + w.what + "): wire bytes per second, server to occupants",
                    "kB/s (10 s average)", 1000.0, 10, dir.resolve(file));
            b.append("![Figure 3, world ").append(w.name()).append("](").append(file).append(")\n\n");
        }
        Map<String, double[]> heap = new LinkedHashMap<>();
        for (ScenarioResult r : rs) {
            if (r.samples.isEmpty() || r.samples.get(0).componentRss() < 0) {
                continue;
            }
            heap.put(r.label + ": RSS", r.samples.stream().mapToDouble(s -> s.componentRss()).toArray());
            heap.put(r.label + ": heap after GC", r.samples.stream().mapToDouble(s -> s.componentHeapAfterGc()).toArray());
        }
        if (!heap.isEmpty()) {
            Charts.perSecond(heap, "Figure 4: the component's memory over the run", "MB", 1e6, 1,
                    dir.resolve("figure-4-component-memory.png"));
            b.append("![Figure 4](figure-4-component-memory.png)\n\n");
            processes(b, rs);
        }
    }

    private static void processes(StringBuilder b, List<ScenarioResult> rs) {
        b.append("| scenario | server CPU s | component CPU s | server RSS max MB | component RSS max MB | component heap after GC max MB | component live heap before the first message / at end MB |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (ScenarioResult r : rs) {
            b.append("| ").append(r.label).append(" | ").append(num(r.get("processes", "xmpp_server", "cpu_seconds")))
                    .append(" | ").append(num(r.get("processes", "component", "cpu_seconds"))).append(" | ")
                    .append(num(r.get("processes", "xmpp_server", "rss_mb_max"))).append(" | ")
                    .append(num(r.get("processes", "component", "rss_mb_max"))).append(" | ")
                    .append(num(r.get("processes", "component", "heap_after_gc_mb_max"))).append(" | ")
                    .append(num(r.get("processes", "component", "live_heap_mb_at_start"))).append(" / ")
                    .append(num(r.get("processes", "component", "live_heap_mb_at_end"))).append(" |\n");
        }
        b.append('\n');
    }

    /** Figure 5: CPU (% of one core over the measured window) of the server and the component as occupants grow. */
    private static void figure5(StringBuilder b, Path dir, List<Phase> plan, Map<Phase, List<ScenarioResult>> results)
            throws IOException {
        Map<String, List<double[]>> points = new LinkedHashMap<>();
        for (Phase p : plan) {
            if (!(p.name().startsWith("scale-") || p.name().equals("bandwidth")) || !results.containsKey(p)) {
                continue;
            }
            List<ScenarioResult> rs = results.get(p);
            // The standard MUC, and the first relaxed v30 scenario: the forms the plan put first.
            List<ScenarioResult> chosen = new ArrayList<>();
            rs.stream().filter(r -> r.label.equals("standard")).findFirst().ifPresent(chosen::add);
            rs.stream().filter(r -> r.label.startsWith("relaxed-v30-")).findFirst().ifPresent(chosen::add);
            for (ScenarioResult r : chosen) {
                double bots = ((Number) r.get("bots")).doubleValue();
                String kind = r.label.equals("standard") ? "standard MUC" : "relaxed v30";
                points.computeIfAbsent(kind + ": XMPP server", k -> new ArrayList<>())
                        .add(new double[] {bots, cpuPercent(r, "xmpp_server")});
                if (!r.label.equals("standard")) {
                    points.computeIfAbsent(kind + ": component", k -> new ArrayList<>())
                            .add(new double[] {bots, cpuPercent(r, "component")});
                }
            }
        }
        if (points.isEmpty()) {
            return;
        }
        Map<String, double[][]> lines = new LinkedHashMap<>();
        b.append("## Figure 5 — CPU as occupants grow (% of one core over the measured window)\n\n");
        b.append("| line | ").append("occupants: CPU % |\n|---|---|\n");
        points.forEach((k, v) -> {
            v.sort((x, y) -> Double.compare(x[0], y[0]));
            double[][] xy = new double[2][v.size()];
            StringBuilder row = new StringBuilder();
            for (int i = 0; i < v.size(); i++) {
                xy[0][i] = v.get(i)[0];
                xy[1][i] = v.get(i)[1];
                row.append(i == 0 ? "" : ", ").append((int) v.get(i)[0]).append(": ").append(f1(v.get(i)[1]));
            }
            lines.put(k, xy);
            b.append("| ").append(k).append(" | ").append(row).append(" |\n");
        });
        b.append('\n');
        Charts.points(lines, "Figure 5: CPU of the XMPP server and the component as occupants grow", "occupants",
                "CPU, % of one core", dir.resolve("figure-5-cpu-by-occupants.png"));
        b.append("![Figure 5](figure-5-cpu-by-occupants.png)\n\n");
    }

    private static double cpuPercent(ScenarioResult r, String process) {
        Object v = r.get("processes", process, "cpu_percent_mean");
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** A relaxed scenario's listeners' radio fed only their own topic; "—" for standard (it follows none). */
    private static String ownTopicRadio(ScenarioResult r, World w) {
        Object share = r.get(w, "radio_xep0286", "listeners", "own_topic_radio_on_share_mean");
        Object wakeups = r.get(w, "radio_xep0286", "listeners", "own_topic_wakeups_per_hour_mean");
        if (!(share instanceof Number s) || !(wakeups instanceof Number h)) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.1f %% / %.1f", 100 * s.doubleValue(), h.doubleValue());
    }

    private static void radio(StringBuilder b, List<ScenarioResult> rs) {
        b.append("## Radio-on time of background occupants (XEP-0286: the radio stays on 11 s after each transmission)\n\n");
        b.append("Listeners (occupants that never speak), the logs replayed at their own pace. Standard and relaxed ran side by"
                + " side, each on its own server.\n\n");
        b.append("| scenario | world | listeners | measured minutes | radio on, share of the time | wake-ups per hour "
                + "| their own topic alone: radio on / wake-ups per hour |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (ScenarioResult r : rs) {
            for (World w : r.worlds()) {
                b.append("| ").append(r.label).append(" | ").append(w.name()).append(" | ")
                        .append(r.get(w, "radio_xep0286", "listeners", "bots")).append(" | ")
                        .append(f1(((Number) r.get("measured_seconds")).doubleValue() / 60)).append(" | ")
                        .append(String.format(Locale.ROOT, "%.1f %%",
                                100 * ((Number) r.get(w, "radio_xep0286", "listeners", "radio_on_share_mean")).doubleValue()))
                        .append(" | ").append(f1(((Number) r.get(w, "radio_xep0286", "listeners", "wakeups_per_hour_mean"))
                                .doubleValue()))
                        .append(" | ").append(ownTopicRadio(r, w)).append(" |\n");
            }
        }
        b.append('\n');
        b.append("The last column is what no time bound can lower: each listener's radio fed only the messages of the"
                + " topic its filter asks for at once, as they were sent. A relaxed listener's radio is on at least that"
                + " long; the rest is retained messages and what else the room sends.\n\n");
    }

    private static ScenarioResult byLabel(List<ScenarioResult> rs, String label) {
        return rs.stream().filter(r -> r.label.equals(label)).findFirst().orElse(null);
    }

    private static double perMessagePerBot(ScenarioResult r, World w) {
        double sent = ((Number) r.get("messages_sent")).doubleValue();
        double bots = ((Number) r.get(w, "bots")).doubleValue();
        return Math.max(1, sent * bots);
    }

    private static String pct(ScenarioResult r, ScenarioResult base, World w, Metric m) {
        if (base == null) {
            return "–";
        }
        long bv = base.bytes(w, m);
        return bv == 0 ? "–" : String.format(Locale.ROOT, "%.1f %%", 100.0 * r.bytes(w, m) / bv);
    }

    private static String f1(double d) {
        return Double.isNaN(d) ? "–" : String.format(Locale.ROOT, "%.1f", d);
    }

    private static String f2(double d) {
        return String.format(Locale.ROOT, "%.2f", d);
    }

    private static String num(Object o) {
        return ReplayCommand.num(o);
    }
}
