package org.reconmuc.replay;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code paper [--quick] [--out DIR] [--phases LIST] [--forms A/B] [--messages N] [--scenarios LIST] [--with-5000]}: the seed
 * paper's evaluation in one command. Every phase is a replay run (each scenario on a fresh
 * server); the report ({@link PaperReport}) puts their numbers into the paper's tables and
 * figures, beside the paper's own.
 *
 * <p>The bandwidth phase holds both worlds in one room (even bots with XEP-0138, odd bots
 * without, each half over a veth link of its own), so one run per scenario serves both: the same
 * room, the same load, counted apart. Scenarios run one after the other, never two at once,
 * except in the radio phase: its two real-time runs are light (a few dozen bots at the logs' own
 * pace) and run side by side, so that 30 minutes of radio take 30 minutes.
 */
final class PaperCommand {
    /** What a phase is for, and the replay options and scenarios it runs. */
    record Phase(String name, String purpose, List<String> args) {
    }

    /** The batch forms of protocol 0.1 (XEP-0297 items, plain and deflated on their own), measured beside newer ones. */
    static final String LEGACY_FORMS = "plain/deflate";
    /** The forms of protocol 0.2: world B's messages at once still go as stanzas, measured beside 0.3's live items. */
    static final String STREAM_FORMS = "compact/compact-deflate";
    /**
     * The forms each world's stream is best served by (0.3): messages at once as live items, in
     * compact batches where the server compresses the stream (A), in the deflate stream where not (B).
     */
    static final String DEFAULT_FORMS = "compact-live/compact-deflate-live";

    private PaperCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        boolean quick = false;
        boolean with5000 = false;
        Path outDir = Path.of("benchmarks", "results", LocalDate.now().toString());
        String forms = DEFAULT_FORMS;
        int messages = 0;
        List<String> only = null;
        List<String> bandwidthScenarios = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--with-5000" -> with5000 = true;
                case "--out" -> outDir = Path.of(value(args, ++i, "--out"));
                case "--forms" -> forms = value(args, ++i, "--forms");
                case "--messages" -> messages = Integer.parseInt(value(args, ++i, "--messages"));
                case "--phases" -> only = List.of(value(args, ++i, "--phases").split(","));
                case "--scenarios" -> bandwidthScenarios = List.of(value(args, ++i, "--scenarios").split(","));
                case "--help", "-h" -> {
                    out.print(Help.TEXT);
                    return 0;
                }
                default -> {
                    err.println("paper: unknown argument '" + args[i] + "' (see --help)");
                    return 2;
                }
            }
        }
        List<Phase> plan = plan(quick, forms, with5000, messages, bandwidthScenarios);
        if (only != null) {
            List<String> names = plan.stream().map(Phase::name).toList();
            for (String n : only) {
                if (!names.contains(n)) {
                    err.println("paper: no phase '" + n + "' (phases: " + names + ")");
                    return 2;
                }
            }
            List<String> chosen = only;
            plan = plan.stream().filter(p -> chosen.contains(p.name())).toList();
        }
        Files.createDirectories(outDir);
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("command", "java -jar irc-replay.jar paper " + String.join(" ", args));
        facts.put("started", java.time.Instant.now().toString());
        facts.put("git_commit", gitCommit());
        facts.put("load_average_before", loadAverage());
        long start = System.nanoTime();
        Map<Phase, List<ScenarioResult>> results = new LinkedHashMap<>();
        Map<Phase, String> failures = new LinkedHashMap<>();
        Map<Phase, String[]> loads = new LinkedHashMap<>();
        boolean clean = true;
        for (Phase phase : plan) {
            out.println("[paper] phase " + phase.name() + ": " + phase.purpose());
            List<String> a = new ArrayList<>(phase.args());
            a.add("--out");
            a.add(outDir.resolve(phase.name()).toString());
            String before = loadAverage();
            long phaseStart = System.nanoTime();
            try {
                List<ScenarioResult> r = ReplayCommand.run(ReplayOptions.parse(a.toArray(new String[0])), out);
                results.put(phase, r);
                for (ScenarioResult s : r) {
                    clean &= s.lost == 0 && s.duplicated == 0 && s.outOfOrder == 0;
                }
            } catch (Exception e) {
                failures.put(phase, e.toString());
                clean = false;
                err.println("[paper] phase " + phase.name() + " failed: " + e);
            }
            loads.put(phase, new String[] {before, loadAverage(),
                    String.format(Locale.ROOT, "%.1f", (System.nanoTime() - phaseStart) / 60e9)});
            PaperReport.write(outDir, plan, results, failures, loads, facts, (System.nanoTime() - start) / 60e9);
        }
        facts.put("load_average_after", loadAverage());
        facts.put("minutes", String.format(Locale.ROOT, "%.1f", (System.nanoTime() - start) / 60e9));
        PaperReport.write(outDir, plan, results, failures, loads, facts, (System.nanoTime() - start) / 60e9);
        out.println("[paper] report: " + outDir.resolve("README.md").toAbsolutePath());
        return clean ? 0 : 1;
    }

    /**
     * The runs. {@code forms} is the aggregation world A's and world B's relaxed bots ask for
     * ({@link #DEFAULT_FORMS}: the form each world's stream is best served by);
     * {@code bandwidthMessages}, when above 0, the bandwidth phase's message count (at 6/s, 5,400
     * are the paper's 15 minutes); {@code bandwidthScenarios}, when not null, the bandwidth phase's
     * scenarios instead of its own (a run at the paper's length takes ~17 minutes a scenario).
     */
    static List<Phase> plan(boolean quick, String forms, boolean with5000, int bandwidthMessages,
            List<String> bandwidthScenarios) {
        String bots = quick ? "60" : "800";
        String messages = bandwidthMessages > 0 ? String.valueOf(bandwidthMessages) : quick ? "180" : "540";
        String duration = bandwidthMessages > 0 ? String.valueOf(bandwidthMessages / 6 + 10) : quick ? "40" : "100";
        // Like for like with the servers' own MUCs, which send no XEP-0421 occupant ids (the component's
        // default is to send them); every volume fixed, as the paper's clients asked for one.
        List<String> setting = List.of("--link", "veth", "--worlds", "ab", "--rate", "6", "--join-rate", "40",
                "--login-threads", "8", "--time", "30", "--volume-draw", "fixed", "--history-size", "200", "--drain", "120",
                "--component-option", "occupant-ids=false");
        List<String> common = join(List.of("--server", "ejabberd"), setting);
        List<Phase> plan = new ArrayList<>();
        List<String> bandwidth = new ArrayList<>(List.of("--bots", bots, "--messages", messages, "--duration", duration));
        if (bandwidthScenarios != null) {
            bandwidth.addAll(bandwidthScenarios);
        } else {
            bandwidth.addAll(List.of("standard", "standard-mam", "off", "relaxed:v=10:a=" + forms, "relaxed:v=30:a=" + forms,
                    "relaxed:v=60:a=" + forms, "relaxed:v=30:a=none"));
            for (String older : List.of(STREAM_FORMS, LEGACY_FORMS)) {
                if (!forms.equals(older)) {
                    bandwidth.add("relaxed:v=30:a=" + older);
                }
            }
        }
        plan.add(new Phase("bandwidth", "Table 1, Table 2, Figures 3 and 4: ejabberd, " + bots + " bots in one room (half in"
                + " each world), " + messages + " messages at 6/s", join(common, bandwidth)));
        for (String n : quick ? List.of("20", "40") : List.of("100", "400")) {
            plan.add(new Phase("scale-" + n, "Figure 5: CPU of the server and the component with " + n + " occupants",
                    join(common, List.of("--bots", n, "--messages", quick ? "120" : "360", "--duration", quick ? "25" : "65",
                            "standard", "relaxed:v=30:a=" + forms))));
        }
        plan.add(new Phase("prosody", "Prosody's own MUC where it keeps up (200 occupants) beside the component",
                join(join(List.of("--server", "prosody"), setting), List.of("--bots", quick ? "40" : "200",
                        "--messages", quick ? "120" : "360", "--duration", quick ? "25" : "65",
                        "standard", "relaxed:v=30:a=" + forms))));
        plan.add(new Phase("radio", "the radio-on time of background occupants (XEP-0286, 11 s tail): the logs at their own"
                + " pace, standard and relaxed with time bounds of 30, 120 and 300 s side by side",
                // No --drain: each scenario drains for its own time bound + 15 s, so a 300-s bound's last
                // flush is counted in time, not late.
                List.of("--server", "ejabberd", "--worlds", "ab",
                "--speed", "1", "--messages", "100000", "--duration", quick ? "180" : "1800",
                "--bots", quick ? "20" : "60", "--speaking-bots", quick ? "8" : "20", "--join-rate", "40", "--time", "30",
                "--volume-draw", "fixed",
                "--history-size", "200", "--component-option", "occupant-ids=false", "--concurrent",
                "standard", "relaxed:v=30:a=" + forms, "relaxed:v=30:t=120:a=" + forms, "relaxed:v=30:t=300:a=" + forms)));
        if (with5000) {
            plan.add(new Phase("scale-5000", "the scale the paper never tried: 5,000 occupants in one room",
                    join(common, List.of("--bots", "5000", "--messages", "300", "--rate", "1", "--duration", "310",
                            "--join-rate", "100", "--login-threads", "16", "--component-heap", "2g",
                            // As big rooms are run (and as the N² join presences would otherwise dwarf the chat):
                            // the room broadcasts only its moderators' presences, on ejabberd and the component alike.
                            "--presence-broadcast", "moderator",
                            "standard", "relaxed:v=30:a=" + forms))));
        }
        return plan;
    }

    private static List<String> join(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String gitCommit() {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String s = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? s + (dirty() ? " (with uncommitted changes)" : "") : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static boolean dirty() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("git", "status", "--porcelain", "--untracked-files=no").redirectErrorStream(true).start();
        boolean changes = !new String(p.getInputStream().readAllBytes()).isBlank();
        return p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) && changes;
    }
}
