package org.reconmuc.replay;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.reconmuc.replay.light.LightMeters;
import org.reconmuc.replay.light.LightPlan;
import org.reconmuc.replay.light.WorkerProcess;

/**
 * The phases of one scale run, with its workers: log in, create the room, join, state
 * requirements, replay, drain, report. What each phase cost (the server's, the component's and the
 * bots' CPU apart; their memory) and what the bots measured go into the run's row.
 */
final class ScaleRun {
    private final LightPlan plan;
    private final ScaleCommand.ScaleOptions o;
    private final ScaleHost host;
    private final ComponentProcess component;
    private final Path runDir;
    private final PrintStream log;
    private final String label;
    private final List<WorkerProcess> workers = new ArrayList<>();

    ScaleRun(LightPlan plan, ScaleCommand.ScaleOptions o, ScaleHost host, ComponentProcess component, Path runDir,
             PrintStream log, String label) {
        this.plan = plan;
        this.o = o;
        this.host = host;
        this.component = component;
        this.runDir = runDir;
        this.log = log;
        this.label = label;
    }

    /** CPU seconds of the server's processes, the component and the workers, now. */
    private double[] cpu() {
        double server = 0;
        for (long pid : host.pids()) {
            server += ProcSampler.cpuSeconds(pid);
        }
        double bots = 0;
        for (WorkerProcess w : workers) {
            bots += ProcSampler.cpuSeconds(w.pid());
        }
        return new double[] {server, component == null ? 0 : ProcSampler.cpuSeconds(component.pid()), bots};
    }

    /** Resident memory of the server's processes, the component and the workers, now. */
    private long[] rss() {
        long server = 0;
        for (long pid : host.pids()) {
            server += ProcSampler.rssBytes(pid);
        }
        long bots = 0;
        for (WorkerProcess w : workers) {
            bots += ProcSampler.rssBytes(w.pid());
        }
        return new long[] {server, component == null ? 0 : ProcSampler.rssBytes(component.pid()), bots};
    }

    void execute(Map<String, Object> row) throws Exception {
        int size = plan.bots();
        int count = (size + o.botsPerWorker - 1) / o.botsPerWorker;
        String runTag = Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        try {
            for (int w = 0; w < count; w++) {
                int first = w * size / count;
                int last = (w + 1) * size / count;
                workers.add(WorkerProcess.start(w, plan, first, last - first, runTag, runDir.resolve("worker-" + w + ".err"),
                        this::relay, log));
            }
            row.put("bot_processes", count);
            phases(row);
        } finally {
            for (WorkerProcess w : workers) {
                w.close();
            }
        }
    }

    /** A worker sent a message: the others learn it (what is sent, and whether as a reply the room knows). */
    private void relay(String sentLine) {
        for (WorkerProcess w : workers) {
            w.send(sentLine);
        }
    }

    private void phases(Map<String, Object> row) throws Exception {
        long componentBaseHeap = -1;
        int size = plan.bots();
        // Logins: the workers at once, each at most 200 in flight.
        long t = System.nanoTime();
        double[] cpu0 = cpu();
        all("login", Math.max(120_000, size * 20L), row, "failed_logins");
        row.put("login_seconds", (System.nanoTime() - t) / 1e9);
        double[] cpu1 = cpu();
        row.put("login_cpu_server", cpu1[0] - cpu0[0]);
        // The room: made by bot 0 (and configured for a big room if it is the server's own).
        workers.get(0).send("create");
        String created = workers.get(0).await("done", 60_000);
        if (created == null || !created.startsWith("done")) {
            throw new IllegalStateException("the room was not created: " + created);
        }
        // The fill: every other bot joins, join-rate a second in all. The component's heap before it,
        // with the room made, is the base of what each occupant costs.
        if (component != null) {
            // The least of three readings: one full collection can leave what the next one frees
            // (seen once: 27 MB where the other sizes read 16 MB, with nothing in the room yet).
            componentBaseHeap = Long.MAX_VALUE;
            for (int reading = 0; reading < 3; reading++) {
                long heap = component.liveHeap();
                componentBaseHeap = heap > 0 ? Math.min(componentBaseHeap, heap) : componentBaseHeap;
            }
            componentBaseHeap = componentBaseHeap == Long.MAX_VALUE ? -1 : componentBaseHeap;
            row.put("component_live_heap_base_bytes", componentBaseHeap);
        }
        long linkBefore = component == null ? 0 : component.linkBytes;
        long multicastBefore = component == null ? 0 : component.multicastStanzas;
        long copiesBefore = component == null ? 0 : component.multicastCopies;
        t = System.nanoTime();
        double[] fill0 = cpu();
        for (WorkerProcess w : workers) {
            w.send("join " + o.joinRate / workers.size());
        }
        awaitAll("join", Math.max(120_000, (long) (size / o.joinRate * 3000) + 60_000), row, "failed_joins");
        if (plan.relaxedShare() > 0) {
            all("require", Math.max(120_000, size * 10L), row, "failed_requirements");
        }
        Thread.sleep(2000);   // what the joins caused is still arriving
        double[] fill1 = cpu();
        long[] rssFilled = rss();
        row.put("fill_seconds", (System.nanoTime() - t) / 1e9 - 2);
        row.put("fill_cpu_server", fill1[0] - fill0[0]);
        row.put("fill_cpu_component", fill1[1] - fill0[1]);
        row.put("fill_cpu_bots", fill1[2] - fill0[2]);
        if (component != null) {
            Thread.sleep(1100);   // the component reports its link counters every second
            long stanzas = component.multicastStanzas - multicastBefore;
            row.put("fill_component_link_bytes_per_join", (double) (component.linkBytes - linkBefore) / size);
            row.put("fill_component_multicast_stanzas", stanzas);
            row.put("fill_component_multicast_copies", component.multicastCopies - copiesBefore);
            long heap = component.liveHeap();
            row.put("component_live_heap_filled_bytes", heap);
            row.put("component_bytes_per_occupant", componentBaseHeap > 0 && heap > 0 ? (double) (heap - componentBaseHeap) / size : -1);
        }
        row.put("server_rss_filled_bytes", rssFilled[0]);
        row.put("component_rss_filled_bytes", rssFilled[1]);
        row.put("bots_rss_bytes", rssFilled[2]);
        row.put("bots_rss_bytes_per_session", (double) rssFilled[2] / size);
        // The replay, from a start every worker agrees on.
        long start = System.nanoTime() + 2_000_000_000L;
        double[] m0 = cpu();
        for (WorkerProcess w : workers) {
            w.send("start " + start);
        }
        long[] peak = rss();
        long sendBound = (long) (plan.messages() / plan.rate() * 1000) + 60_000;
        for (WorkerProcess w : workers) {
            String done = w.await("done", sendBound);
            if (done == null || !done.startsWith("done")) {
                throw new IllegalStateException("a worker did not finish sending: " + done);
            }
        }
        long lastSent = System.nanoTime();
        double drain = o.drainSeconds >= 0 ? o.drainSeconds : plan.relaxedShare() > 0 ? plan.timeSeconds() + 15 : 15;
        long cutoff = lastSent + (long) (drain * 1e9);
        for (WorkerProcess w : workers) {
            w.send("cutoff " + cutoff);
        }
        log.println("[scale] " + label + ": sent; draining (up to " + (int) drain + " s, then while messages still arrive)");
        long lateEnd = cutoff + (long) (o.lateWaitSeconds * 1e9);
        long missing = Long.MAX_VALUE;
        long lastProgress = System.nanoTime();
        while (true) {
            Thread.sleep(500);
            long[] now = rss();
            for (int i = 0; i < 3; i++) {
                peak[i] = Math.max(peak[i], now[i]);
            }
            long m = missing();
            if (m < missing) {
                lastProgress = System.nanoTime();
            }
            missing = m;
            long n = System.nanoTime();
            if (m == 0 || n > lateEnd || n > cutoff && n - lastProgress > 30_000_000_000L) {
                break;
            }
        }
        row.put("measured_seconds", (System.nanoTime() - start) / 1e9);
        double[] m1 = cpu();
        row.put("cpu_server", m1[0] - m0[0]);
        row.put("cpu_component", m1[1] - m0[1]);
        row.put("cpu_bots", m1[2] - m0[2]);
        row.put("server_rss_peak_bytes", peak[0]);
        row.put("component_rss_peak_bytes", peak[1]);
        row.put("bots_rss_peak_bytes", peak[2]);
        LightMeters meters = new LightMeters();
        for (WorkerProcess w : workers) {
            w.send("report");
        }
        for (WorkerProcess w : workers) {
            String done = w.await("done", 120_000);
            if (done == null || !done.startsWith("done")) {
                throw new IllegalStateException("a worker did not report: " + done);
            }
            for (String line : w.report()) {
                meters.add(line);
            }
        }
        if (component != null) {
            row.put("component_live_heap_end_bytes", component.liveHeap());
        }
        figures(row, meters, m1[0] - m0[0] + m1[1] - m0[1]);
    }

    /** The bots' measures into the row. */
    private void figures(Map<String, Object> row, LightMeters meters, double serverAndComponentCpu) {
        int size = plan.bots();
        long sent = meters.get("messages-sent-in-run") / workers.size();   // every worker counts every message sent
        row.put("messages_sent", sent);
        row.put("deliveries", meters.get("deliveries"));
        row.put("deliveries_expected", sent * size);
        row.put("lost", meters.get("lost"));
        row.put("lost_live", meters.get("lost-live"));
        row.put("lost_relaxed", meters.get("lost-relaxed"));
        row.put("duplicated", meters.get("duplicates"));
        row.put("out_of_order", meters.get("out-of-order"));
        row.put("late", meters.get("late"));
        row.put("errors_received", meters.get("errors-received"));
        row.put("send_failures", meters.get("send-failures"));
        row.put("replies_sent", meters.get("replies-sent"));
        row.put("replies_unlinked", meters.get("replies-unlinked"));
        row.put("batches", meters.get("batches"));
        row.put("batch_errors", meters.get("batch-errors"));
        row.put("immediate_p50_ms", meters.immediate.quantile(0.5));
        row.put("immediate_p99_ms", meters.immediate.quantile(0.99));
        row.put("immediate_max_ms", meters.immediate.quantile(1.0));
        row.put("immediate_max_by_message_ms", java.util.Arrays.stream(meters.immediateMaxByMessage()).boxed().toList());
        row.put("retained_p50_ms", meters.retained.quantile(0.5));
        row.put("retained_p99_ms", meters.retained.quantile(0.99));
        row.put("retained_past_bound_p99_ms", Double.isNaN(meters.retained.quantile(0.99)) ? Double.NaN
                : Math.max(0, meters.retained.quantile(0.99) - plan.timeSeconds() * 1000.0));
        row.put("direct_replies_p50_ms", meters.directReplies.quantile(0.5));
        row.put("join_p50_ms", meters.join.quantile(0.5));
        row.put("join_p99_ms", meters.join.quantile(0.99));
        row.put("login_p99_ms", meters.login.quantile(0.99));
        row.put("fill_stanzas_per_join", (double) meters.get("fill-stanzas") / size);
        row.put("fill_bytes_per_join", (double) meters.get("fill-bytes-received") / size);
        row.put("bytes_received", meters.get("bytes-received"));
        row.put("stanzas_received", meters.get("stanzas"));
        row.put("deliveries_per_server_component_cpu_second",
                serverAndComponentCpu > 0 ? meters.get("deliveries") / serverAndComponentCpu : Double.NaN);
        row.put("failed_in_measurement", meters.get("failed-joined"));
    }

    /** Sends {@code phase} to every worker and waits for them all. */
    private void all(String phase, long timeoutMillis, Map<String, Object> row, String failedKey) throws InterruptedException {
        for (WorkerProcess w : workers) {
            w.send(phase);
        }
        awaitAll(phase, timeoutMillis, row, failedKey);
    }

    /** Waits for every worker's {@code done PHASE ok=K failed=F}; the failures add up under {@code failedKey}. */
    private void awaitAll(String phase, long timeoutMillis, Map<String, Object> row, String failedKey) throws InterruptedException {
        long failed = 0;
        for (WorkerProcess w : workers) {
            String done = w.await("done", timeoutMillis);
            if (done == null) {
                throw new IllegalStateException(phase + " did not finish within " + timeoutMillis / 1000 + " s");
            }
            if (!done.startsWith("done " + phase)) {
                throw new IllegalStateException(phase + ": a worker answered " + done);
            }
            failed += Long.parseLong(done.substring(done.indexOf("failed=") + 7).trim());
        }
        row.put(failedKey, failed);
        if (failed > 0) {
            throw new IllegalStateException(phase + ": " + failed + " bots failed (the workers' notes say why)");
        }
        log.println("[scale] " + label + ": " + phase + " done");
    }

    /** Deliveries the bots still miss, of what was sent so far. */
    private long missing() throws InterruptedException {
        long missing = 0;
        for (WorkerProcess w : workers) {
            w.send("status");
        }
        for (WorkerProcess w : workers) {
            String s = w.await("status", 30_000);
            if (s == null || !s.startsWith("status")) {
                return Long.MAX_VALUE;
            }
            missing += Long.parseLong(s.substring(s.indexOf("missing=") + 8, s.indexOf(' ', s.indexOf("missing="))));
        }
        return missing;
    }
}
