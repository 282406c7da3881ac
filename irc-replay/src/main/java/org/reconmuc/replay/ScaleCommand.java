package org.reconmuc.replay;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.reconmuc.replay.irc.IrcLogs;
import org.reconmuc.replay.light.LightMeters;
import org.reconmuc.replay.light.LightPlan;
import org.reconmuc.replay.light.WorkerProcess;
import org.reconmuc.servers.ServerPlacement;

/**
 * {@code replay scale}: one room, growing, on one machine — the curve of what a room of N costs and
 * how late its messages are, for the server's own MUC and for the component, with the light bots
 * ({@link org.reconmuc.replay.light.LightWorker}) in several processes. For each size, each scenario
 * still growing runs on fresh processes: the server (or the ejabberd cluster), the component, the
 * workers; logs the bots in, joins them, states requirements, replays the logs, drains, and records
 * a row (see {@link #row}). A scenario stops growing at the first size that loses a message or
 * misses its lag bound; the others go on. Every phase is bounded; traffic stays on loopback.
 */
public final class ScaleCommand {
    /** One scenario of the curve. */
    enum Kind {
        OWN("own MUC", false, 0.0),
        OFF("component, nobody relaxed", true, 0.0),
        RELAXED("component, 90 % relaxed", true, 0.9);

        final String title;
        final boolean component;
        final double relaxedShare;

        Kind(String title, boolean component, double relaxedShare) {
            this.title = title;
            this.component = component;
            this.relaxedShare = relaxedShare;
        }

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final ScaleOptions o;
    private final PrintStream log;

    private ScaleCommand(ScaleOptions o, PrintStream log) {
        this.o = o;
        this.log = log;
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        ScaleOptions o;
        try {
            o = ScaleOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("scale: " + e.getMessage());
            return 2;
        }
        if (o.help) {
            out.print(Help.TEXT);
            return 0;
        }
        new ScaleCommand(o, out).curve();
        return 0;
    }

    /** Runs the curve {@code o} asks for; its rows, as written to {@code o.out}. */
    static List<Map<String, Object>> run(ScaleOptions o, PrintStream log) throws Exception {
        return new ScaleCommand(o, log).curve();
    }

    private List<Map<String, Object>> curve() throws Exception {
        Files.createDirectories(o.out);
        Path rows = o.out.resolve("rows.jsonl");
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
        log.println("[scale] load before: " + loadBefore);
        Set<Kind> growing = new LinkedHashSet<>(o.kinds);
        List<Map<String, Object>> all = new ArrayList<>();
        for (int size : o.sizes) {
            for (Kind kind : o.kinds) {
                if (!growing.contains(kind)) {
                    continue;
                }
                if (o.server.equals("prosody") && size > ScaleHost.MAX_SESSIONS_PER_PROCESS) {
                    log.println("[scale] prosody: " + size + " is past what one process holds ("
                            + ScaleHost.MAX_SESSIONS_PER_PROCESS + " sessions): the curve ends");
                    growing.clear();
                    break;
                }
                Map<String, Object> row;
                try {
                    row = runOne(size, kind);
                } catch (Exception e) {
                    row = new LinkedHashMap<>();
                    row.put("server", o.server);
                    row.put("occupants", size);
                    row.put("scenario", kind.label());
                    row.put("ok", false);
                    row.put("error", e.toString());
                    log.println("[scale] " + kind.label() + " at " + size + " failed: " + e);
                }
                all.add(row);
                Files.writeString(rows, Json.write(row).replace("\n", " ") + "\n",
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                if (!Boolean.TRUE.equals(row.get("ok"))) {
                    log.println("[scale] " + kind.label() + " stops growing at " + size + ": " + row.get("verdict"));
                    growing.remove(kind);
                }
            }
        }
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).trim();
        log.println("[scale] load after: " + loadAfter);
        ScaleReport.write(o, all, loadBefore, loadAfter);
        return all;
    }

    /** One scenario at one size, on fresh processes; its row. */
    private Map<String, Object> runOne(int size, Kind kind) throws Exception {
        String label = o.server + "-" + size + "-" + kind.label();
        Path runDir = o.runDir.resolve(label).toAbsolutePath();
        Files.createDirectories(runDir);
        log.println("[scale] " + label + ": starting " + o.server);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("server", o.server);
        row.put("occupants", size);
        row.put("scenario", kind.label());
        if (!o.botsOn.equals("all")) {
            row.put("bots_on_nodes", o.botsOn);
        }
        row.put("load_before", Files.readString(Path.of("/proc/loadavg")).trim());
        try (ScaleHost host = ScaleHost.start(o.server, size, runDir, o.nodes, o.botsOn)) {
            row.put("server_nodes", host.pids().size());
            ComponentProcess component = null;
            try {
                if (kind.component) {
                    component = ComponentProcess.start(host.attach(), ServerPlacement.LOOPBACK, o.historySize, o.componentHeap,
                            componentArgs(size), runDir.resolve("component.log"));
                }
                String room = "scale@" + (kind.component ? host.attach().componentDomain() : host.attach().nativeMucDomain());
                LightPlan plan = new LightPlan(room, host.attach().loginDomain(), host.endpoints(), o.sources, size,
                        o.messages, o.rate, kind.relaxedShare, o.timeSeconds, o.volume, o.aggregation,
                        kind.component ? o.presenceLevel : null, !kind.component, o.logs, o.seed);
                ScaleRun run = new ScaleRun(plan, o, host, component, runDir, log, label);
                try {
                    run.execute(row);
                } catch (Exception e) {
                    row.put("error", e.getMessage() == null ? e.toString() : e.getMessage());
                }
            } finally {
                if (component != null) {
                    component.close();
                }
            }
        }
        row.put("load_after", Files.readString(Path.of("/proc/loadavg")).trim());
        verdict(row, kind);
        log.println("[scale] " + label + ": " + row.get("verdict"));
        return row;
    }

    /** The component's settings for a room of {@code size}: its limits above the room, the replay's speakers unlimited. */
    private List<String> componentArgs(int size) {
        List<String> args = new ArrayList<>(List.of("--store", "none", "--max-occupants", Integer.toString(Math.max(size * 2, 1000))));
        args.addAll(o.componentOptions);
        return args;
    }

    /** Whether the row holds its promises: nothing lost, duplicated or out of order; at-once p99 and digests within bounds. */
    private void verdict(Map<String, Object> row, Kind kind) {
        List<String> missed = new ArrayList<>();
        if (row.containsKey("error")) {
            missed.add("error: " + row.get("error"));
        }
        for (String k : List.of("lost", "duplicated", "out_of_order", "failed_logins", "failed_joins", "failed_requirements",
                "send_failures", "errors_received")) {
            Object v = row.get(k);
            if (v instanceof Number n && n.longValue() > 0) {
                missed.add(k + " " + n);
            }
        }
        if (row.get("immediate_p99_ms") instanceof Number p && p.doubleValue() > o.lagBoundMs) {
            missed.add("at-once p99 " + Math.round(p.doubleValue()) + " ms > " + Math.round(o.lagBoundMs) + " ms");
        }
        if (kind.relaxedShare > 0 && row.get("retained_p99_ms") instanceof Number p
                && p.doubleValue() > o.timeSeconds * 1000.0 + o.lagBoundMs) {
            missed.add("digests p99 " + Math.round(p.doubleValue()) + " ms > bound + " + Math.round(o.lagBoundMs) + " ms");
        }
        row.put("ok", missed.isEmpty());
        row.put("verdict", missed.isEmpty() ? "ok" : String.join("; ", missed));
    }

    /** The options of {@code replay scale}. */
    static final class ScaleOptions {
        String server = "prosody";
        List<Integer> sizes = List.of(800, 2000, 5000, 10_000, 20_000, 50_000, 100_000);
        List<Kind> kinds = List.of(Kind.OWN, Kind.OFF, Kind.RELAXED);
        int messages = 60;
        double rate = 1;
        int timeSeconds = 60;
        int volume = 100;
        String aggregation = "compact";
        String presenceLevel = "none";
        double joinRate = 500;
        int botsPerWorker = 16_000;
        int historySize = 100;
        String componentHeap = "2g";
        List<String> componentOptions = new ArrayList<>();
        /** Where the bots connect from, round robin: the ephemeral ports of one address run out near 28,000 connections. */
        List<String> sources = List.of("127.0.0.1", "127.0.1.1", "127.0.1.2", "127.0.1.3", "127.0.1.4", "127.0.1.5",
                "127.0.1.6", "127.0.1.7");
        double drainSeconds = -1;
        double lateWaitSeconds = 600;
        double lagBoundMs = 2000;
        /** ejabberd: nodes in the cluster (0: one per 19,000 sessions), and which of them the bots connect to. */
        int nodes;
        String botsOn = "all";
        Path out;
        Path runDir = Path.of(System.getProperty("java.io.tmpdir"), "irc-replay-scale");
        Path logs = IrcLogs.defaultDir();
        long seed = 1;
        boolean help;

        static ScaleOptions parse(String[] args) {
            ScaleOptions o = new ScaleOptions();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--help") || a.equals("-h")) {
                    o.help = true;
                    return o;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--server" -> {
                        if (!v.equals("prosody") && !v.equals("ejabberd")) {
                            throw new IllegalArgumentException("--server prosody or ejabberd, not " + v);
                        }
                        o.server = v;
                    }
                    case "--sizes" -> o.sizes = java.util.Arrays.stream(v.split(",")).map(s -> Integer.parseInt(s.replace("_", "")))
                            .sorted().toList();
                    case "--scenarios" -> o.kinds = java.util.Arrays.stream(v.split(","))
                            .map(s -> Kind.valueOf(s.toUpperCase(Locale.ROOT))).toList();
                    case "--messages" -> o.messages = Integer.parseInt(v);
                    case "--rate" -> o.rate = Double.parseDouble(v);
                    case "--time" -> o.timeSeconds = Integer.parseInt(v);
                    case "--volume" -> o.volume = Integer.parseInt(v);
                    case "--aggregate" -> o.aggregation = v;
                    case "--presence-level" -> o.presenceLevel = v;
                    case "--join-rate" -> o.joinRate = Double.parseDouble(v);
                    case "--bots-per-worker" -> o.botsPerWorker = Integer.parseInt(v);
                    case "--history-size" -> o.historySize = Integer.parseInt(v);
                    case "--component-heap" -> o.componentHeap = v;
                    case "--component-option" -> {
                        int eq = v.indexOf('=');
                        if (eq <= 0) {
                            throw new IllegalArgumentException("--component-option NAME=VALUE, not " + v);
                        }
                        o.componentOptions.add("--" + v.substring(0, eq));
                        o.componentOptions.add(v.substring(eq + 1));
                    }
                    case "--sources" -> o.sources = List.of(v.split(","));
                    case "--drain" -> o.drainSeconds = Double.parseDouble(v);
                    case "--late-wait" -> o.lateWaitSeconds = Double.parseDouble(v);
                    case "--lag-bound-ms" -> o.lagBoundMs = Double.parseDouble(v);
                    case "--nodes" -> o.nodes = Integer.parseInt(v);
                    case "--bots-on" -> {
                        if (!List.of("all", "first", "others").contains(v)) {
                            throw new IllegalArgumentException("--bots-on all, first or others, not " + v);
                        }
                        o.botsOn = v;
                    }
                    case "--out" -> o.out = Path.of(v);
                    case "--run-dir" -> o.runDir = Path.of(v);
                    case "--logs" -> o.logs = Path.of(v);
                    case "--seed" -> o.seed = Long.parseLong(v);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (o.out == null) {
                o.out = Path.of("scale-results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm")));
            }
            return o;
        }
    }
}
