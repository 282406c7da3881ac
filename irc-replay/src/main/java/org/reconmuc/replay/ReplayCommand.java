package org.reconmuc.replay;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jivesoftware.smack.ReconnectionManager;
import org.jivesoftware.smack.SmackConfiguration;
import org.jivesoftware.smack.roster.Roster;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.reconmuc.replay.irc.IrcLogs;
import org.reconmuc.replay.irc.LogFile;
import org.reconmuc.replay.meter.MeteringCompressionHandler;
import org.reconmuc.replay.meter.Series.Metric;

/** {@code replay [options] SCENARIO...}: runs each scenario in turn and writes the results folder. */
final class ReplayCommand {
    private ReplayCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        for (String a : args) {
            if (a.equals("--help") || a.equals("-h")) {
                out.print(Help.TEXT);
                return 0;
            }
        }
        ReplayOptions o;
        try {
            o = ReplayOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("replay: " + e.getMessage());
            return 2;
        }
        List<ScenarioResult> results = run(o, out);
        boolean clean = true;
        for (ScenarioResult r : results) {
            clean &= r.lost == 0 && r.duplicated == 0 && r.outOfOrder == 0;
        }
        return clean ? 0 : 1;
    }

    /** Runs every scenario of the options; writes and prints the results. */
    static List<ScenarioResult> run(ReplayOptions o, PrintStream out) throws Exception {
        System.setProperty("java.awt.headless", "true");
        configureSmack();
        Map<String, List<LogFile>> channels = IrcLogs.load(o.logs);
        Workload w = Workload.build(channels, o.messages, o.rate, o.speed, o.durationSeconds, o.bots, o.speakingBots, o.replies);
        List<Scenario> scenarios = o.scenarios();
        int history = o.historySizeFor(scenarios);
        Status status = new Status(out, o.status);
        out.printf(Locale.ROOT, "[replay] workload: %d messages (%s), %d speakers%s, %d bots (%d listeners), "
                        + "last message at %.0f s, replies: %s (%d)%n",
                w.messages().size(), w.perChannel(), w.speakers(),
                w.speakersFolded() > 0 ? " (" + w.speakersFolded() + " folded onto other bots)" : "",
                w.bots().size(), w.bots().stream().filter(Workload.BotSpec::listener).count(), w.lastOffsetNanos() / 1e9,
                o.replies.name().toLowerCase(Locale.ROOT), w.messages().stream().filter(m -> m.parent() >= 0).count());
        Files.createDirectories(o.out);
        List<ScenarioResult> results = new ArrayList<>();
        if (o.concurrent) {
            List<ReplayRun> runs = new ArrayList<>();
            for (Scenario sc : scenarios) {
                runs.add(new ReplayRun(sc, w, o, history, out, status));
            }
            ExecutorService pool = Executors.newFixedThreadPool(runs.size());
            try {
                List<Future<?>> started = new ArrayList<>();
                for (ReplayRun run : runs) {
                    started.add(pool.submit(() -> {
                        run.execute();
                        return null;
                    }));
                }
                for (Future<?> f : started) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            for (ReplayRun run : runs) {
                results.add(finish(run, o, out));
            }
            writeRun(o, w, history, results);
        } else {
            for (Scenario sc : scenarios) {
                ReplayRun run = new ReplayRun(sc, w, o, history, out, status);
                run.execute();
                results.add(finish(run, o, out));
                writeRun(o, w, history, results);
            }
        }
        out.println();
        out.println(comparison(results));
        out.println("[replay] results in " + o.out.toAbsolutePath());
        return results;
    }

    private static ScenarioResult finish(ReplayRun run, ReplayOptions o, PrintStream out) throws java.io.IOException {
        ScenarioResult r = new ScenarioResult(run);
        r.write(run, o.out.resolve(r.label), o.perBotSeries);
        out.println();
        out.println(oneScenario(r));
        return r;
    }

    static void configureSmack() {
        SmackConfiguration.DEBUG = false;
        Roster.setRosterLoadedAtLoginDefault(false);
        ReconnectionManager.setEnabledPerDefault(false);
        XMPPTCPConnection.setUseStreamManagementDefault(false);
        XMPPTCPConnection.setUseStreamManagementResumptionDefault(false);
        MeteringCompressionHandler.install();
        java.util.logging.Logger.getLogger("org.jivesoftware").setLevel(java.util.logging.Level.SEVERE);
    }

    private static void writeRun(ReplayOptions o, Workload w, int history, List<ScenarioResult> results) throws Exception {
        Map<String, Object> all = new LinkedHashMap<>();
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("server", o.server);
        params.put("bots", o.bots);
        params.put("messages", o.messages);
        params.put(o.speed > 0 ? "speed" : "rate", o.speed > 0 ? o.speed : o.rate);
        params.put("duration_limit_seconds", o.durationSeconds);
        params.put("join_rate", o.joinRate);
        if (o.speakingBots < o.bots) {
            params.put("speaking_bots", o.speakingBots);
        }
        params.put("replies", o.replies.name().toLowerCase(Locale.ROOT));
        params.put("worlds", o.worlds.stream().map(world -> world.label() + ": " + world.what).toList());
        params.put("component", o.componentMode);
        params.put("scenarios_concurrent", o.concurrent);
        params.put("link", o.link);
        params.put("component_heap", o.componentHeap);
        params.put("component_store", o.componentStore);
        params.put("component_options", o.componentOptions);
        params.put("component_history_size", history);
        params.put("presence_broadcast", o.presenceBroadcast == null ? "every role" : o.presenceBroadcast);
        params.put("own_muc_presence_broadcast", o.ownMucPresenceBroadcast == null ? "as presence_broadcast"
                : o.ownMucPresenceBroadcast);
        params.put("presence_level", o.presenceLevel == null ? "none asked (the room's broadcast)" : o.presenceLevel);
        params.put("room_logging", o.roomLogging == null ? "the room's default" : o.roomLogging ? "on" : "off");
        params.put("visitors_every_seconds", o.visitorsEverySeconds);
        params.put("seed", o.seed);
        params.put("logs", o.logs.toString());
        params.put("machine_cores", Runtime.getRuntime().availableProcessors());
        params.put("harness_max_heap_mb", Runtime.getRuntime().maxMemory() / 1e6);
        all.put("parameters", params);
        Map<String, Object> wl = new LinkedHashMap<>();
        wl.put("messages", w.messages().size());
        wl.put("per_channel", w.perChannel());
        wl.put("speakers", w.speakers());
        wl.put("speakers_folded_onto_other_bots", w.speakersFolded());
        wl.put("listeners", w.bots().stream().filter(Workload.BotSpec::listener).count());
        wl.put("replies", w.messages().stream().filter(m -> m.parent() >= 0).count());
        wl.put("last_message_at_seconds", w.lastOffsetNanos() / 1e9);
        all.put("workload", wl);
        List<Object> sc = new ArrayList<>();
        for (ScenarioResult r : results) {
            sc.add(r.summary);
        }
        all.put("scenarios", sc);
        Files.writeString(o.out.resolve("summary.json"), Json.write(all));
        Files.writeString(o.out.resolve("comparison.md"), comparison(results));
        Charts.bytesPerSecond(results, Metric.SOCKET_BYTES,
                "Bytes received by all bots per second (socket bytes; XEP-0138 compressed when negotiated)",
                o.out.resolve("bytes-per-second.png"));
        Charts.bytesPerSecond(results, Metric.WIRE_ZLIB_MODEL_BYTES,
                "Modelled wire bytes per second (zlib stream per bot, sync flush per stanza; 52 B TCP/IP header per segment)",
                o.out.resolve("wire-bytes-per-second.png"));
        if (o.link.equals("veth")) {
            Charts.bytesPerSecond(results, Metric.WIRE_REAL_BYTES,
                    "Real wire bytes per second, server to bots (IP packets counted on a 1500-MTU veth link)",
                    o.out.resolve("real-wire-bytes-per-second.png"));
        }
        Charts.latencyCdf(results, o.out.resolve("latency-cdf.png"));
    }

    static String oneScenario(ScenarioResult r) {
        return String.format(Locale.ROOT,
                "[replay] %s: sent %s, lost %d, late %d, duplicated %d, out of causal order %d | socket %s B, xml %s B, "
                        + "zlib model %s B, wire(zlib model) %s B | direct replies p50 %s ms, all p50 %s ms | schedule lag p99 %s ms",
                r.label, r.get("messages_sent"), r.lost, r.late, r.duplicated, r.outOfOrder, r.bytes(Metric.SOCKET_BYTES),
                r.bytes(Metric.XML_BYTES), r.bytes(Metric.ZLIB_MODEL_BYTES), r.bytes(Metric.WIRE_ZLIB_MODEL_BYTES),
                num(r.get("latency_ms", "direct_replies_at_parent_author", "p50")),
                num(r.get("latency_ms", "all_deliveries", "p50")), num(r.get("schedule_lag_ms", "p99")));
    }

    /**
     * Markdown tables of all scenarios, bytes as a percentage of the first standard (or first)
     * scenario, then of the other baselines present; one set per world when the bots were split.
     */
    static String comparison(List<ScenarioResult> results) {
        List<World> worlds = results.get(0).worlds();
        if (worlds.isEmpty()) {
            return comparison(results, null);
        }
        StringBuilder b = new StringBuilder();
        for (World w : worlds) {
            b.append("### World ").append(w.name()).append(": ").append(w.what).append(" (")
                    .append(results.get(0).get("worlds", w.label(), "bots")).append(" bots)\n\n");
            b.append(comparison(results, w)).append('\n');
        }
        return b.toString();
    }

    /** The tables for the bots of one world ({@code null}: all bots). */
    private static String comparison(List<ScenarioResult> results, World w) {
        ScenarioResult base = results.stream().filter(r -> r.label.equals("standard")).findFirst().orElse(results.get(0));
        List<Metric> byteMetrics = byteMetrics(results);
        boolean real = byteMetrics.contains(Metric.WIRE_REAL_BYTES);
        StringBuilder b = new StringBuilder();
        b.append("Bytes received by ").append(w == null ? "all bots" : "world " + w.name() + "'s bots").append(", as % of '")
                .append(base.label).append("'; latencies in ms.\n\n");
        b.append("| scenario | sent | lost | late | dup | out of order | socket bytes | % | payload (xml) | % | zlib model | % "
                + "| wire, xml | % | wire, zlib model | % | wire, socket | %" + (real ? " | wire, real (veth) | %" : "")
                + " | direct reply p50 / mean | all p50 / p99 "
                + "| lag p99 | server CPU s | component CPU s | server RSS max MB | component RSS max MB | component heap after GC max MB | component live heap before / at end MB |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
                .append(real ? "---:|---:|" : "").append("---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (ScenarioResult r : results) {
            b.append("| ").append(r.label).append(" | ").append(r.get("messages_sent")).append(" | ").append(r.lost)
                    .append(" | ").append(r.late).append(" | ").append(r.duplicated).append(" | ").append(r.outOfOrder);
            for (Metric m : byteMetrics) {
                long v = r.bytes(w, m);
                long bv = base.bytes(w, m);
                b.append(String.format(Locale.ROOT, " | %,d | %.0f %%", v, bv == 0 ? 0 : 100.0 * v / bv));
            }
            b.append(" | ").append(num(r.get(w, "latency_ms", "direct_replies_at_parent_author", "p50"))).append(" / ")
                    .append(num(r.get(w, "latency_ms", "direct_replies_at_parent_author", "mean")));
            b.append(" | ").append(num(r.get(w, "latency_ms", "all_deliveries", "p50"))).append(" / ")
                    .append(num(r.get(w, "latency_ms", "all_deliveries", "p99")));
            b.append(" | ").append(num(r.get("schedule_lag_ms", "p99")));
            b.append(" | ").append(num(r.get("processes", "xmpp_server", "cpu_seconds")));
            b.append(" | ").append(num(r.get("processes", "component", "cpu_seconds")));
            b.append(" | ").append(num(r.get("processes", "xmpp_server", "rss_mb_max")));
            b.append(" | ").append(num(r.get("processes", "component", "rss_mb_max")));
            b.append(" | ").append(num(r.get("processes", "component", "heap_after_gc_mb_max")));
            b.append(" | ").append(num(r.get("processes", "component", "live_heap_mb_at_start"))).append(" / ")
                    .append(num(r.get("processes", "component", "live_heap_mb_at_end")));
            b.append(" |\n");
        }
        for (String other : List.of("standard-mam", "off")) {
            ScenarioResult baseline = results.stream().filter(r -> r.label.equals(other)).findFirst().orElse(null);
            if (baseline == null || baseline == base) {
                continue;
            }
            b.append(other.equals("off")
                    ? "\nThe same, as % of 'off' (this component, nobody relaxed: same stanza format, so the engine's own effect):\n\n"
                    : "\nThe same, as % of 'standard-mam' (the server's MUC archiving: it stamps stanza-ids as ReConMUC does,"
                            + " the like-for-like baseline):\n\n");
            b.append("| scenario | socket bytes | payload (xml) | zlib model | wire, xml | wire, zlib model | wire, socket |")
                    .append(real ? " wire, real (veth) |\n" : "\n");
            b.append("|---|---:|---:|---:|---:|---:|---:|").append(real ? "---:|\n" : "\n");
            for (ScenarioResult r : results) {
                b.append("| ").append(r.label);
                for (Metric m : byteMetrics) {
                    long bv = baseline.bytes(w, m);
                    b.append(String.format(Locale.ROOT, " | %.0f %%", bv == 0 ? 0 : 100.0 * r.bytes(w, m) / bv));
                }
                b.append(" |\n");
            }
        }
        return b.toString();
    }

    /** The byte counts every table shows: the real link's too when every scenario ran on one. */
    private static List<Metric> byteMetrics(List<ScenarioResult> results) {
        List<Metric> metrics = new ArrayList<>(List.of(Metric.SOCKET_BYTES, Metric.XML_BYTES, Metric.ZLIB_MODEL_BYTES,
                Metric.WIRE_XML_BYTES, Metric.WIRE_ZLIB_MODEL_BYTES, Metric.WIRE_SOCKET_BYTES));
        if (results.stream().allMatch(r -> r.summary.containsKey("real_link"))) {
            metrics.add(Metric.WIRE_REAL_BYTES);
        }
        return metrics;
    }

    static String num(Object o) {
        if (o instanceof Number n) {
            double d = n.doubleValue();
            if (Double.isNaN(d)) {
                return "-";
            }
            return d >= 100 ? String.format(Locale.ROOT, "%.0f", d) : String.format(Locale.ROOT, "%.2f", d);
        }
        return "-";
    }
}
