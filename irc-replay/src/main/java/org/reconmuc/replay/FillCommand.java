package org.reconmuc.replay;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.reconmuc.replay.irc.IrcLogs;
import org.reconmuc.replay.light.LightPlan;
import org.reconmuc.replay.light.WorkerProcess;

/**
 * {@code replay fill}: fills a room of a running server with light bots and keeps them there — a
 * crowd for a person's client to join (the web page's and Joom's tests of a big room). The bots log
 * in, join at a presence level (none by default), state requirements if some are relaxed, and then
 * speak the logs if asked; the command prints {@code filled N} once they are in and holds them until
 * its standard input closes or {@code --hold-seconds} pass.
 */
final class FillCommand {
    private FillCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        String endpoint = null;
        String room = null;
        String loginDomain = "insecure.localhost";
        int bots = 1000;
        int messages = 0;
        double rate = 1;
        double relaxedShare = 0;
        int time = 60;
        String level = "none";
        boolean ownMuc = false;
        double joinRate = 500;
        int perWorker = 16_000;
        long holdSeconds = 3600;
        Path logs = IrcLogs.defaultDir();
        Path errors = Path.of(System.getProperty("java.io.tmpdir"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            String v = args[i + 1];
            switch (args[i]) {
                case "--endpoint" -> endpoint = v;
                case "--room" -> room = v;
                case "--login-domain" -> loginDomain = v;
                case "--bots" -> bots = Integer.parseInt(v);
                case "--messages" -> messages = Integer.parseInt(v);
                case "--rate" -> rate = Double.parseDouble(v);
                case "--relaxed-share" -> relaxedShare = Double.parseDouble(v);
                case "--time" -> time = Integer.parseInt(v);
                case "--presence-level" -> level = v.equals("all") ? null : v;
                case "--own-muc" -> ownMuc = Boolean.parseBoolean(v);
                case "--join-rate" -> joinRate = Double.parseDouble(v);
                case "--bots-per-worker" -> perWorker = Integer.parseInt(v);
                case "--hold-seconds" -> holdSeconds = Long.parseLong(v);
                case "--logs" -> logs = Path.of(v);
                case "--worker-errors" -> errors = Path.of(v);
                default -> {
                    err.println("fill: unknown option " + args[i]);
                    return 2;
                }
            }
        }
        if (endpoint == null || room == null) {
            err.println("fill: --endpoint HOST:PORT and --room ROOM@SERVICE are needed");
            return 2;
        }
        LightPlan plan = new LightPlan(room, loginDomain, List.of(endpoint), List.of("127.0.0.1"), bots,
                Math.max(messages, 1), rate, relaxedShare, time, 100, "compact", level, ownMuc, logs, 1);
        int count = (bots + perWorker - 1) / perWorker;
        List<WorkerProcess> workers = new ArrayList<>();
        String tag = Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        try {
            for (int w = 0; w < count; w++) {
                int first = w * bots / count;
                int last = (w + 1) * bots / count;
                workers.add(WorkerProcess.start(w, plan, first, last - first, tag, errors.resolve("fill-worker-" + w + ".err"),
                        line -> workers.forEach(x -> x.send(line)), out));
            }
            phase(workers, "login", bots * 20L + 120_000);
            workers.get(0).send("create");
            String created = workers.get(0).await("done", 60_000);
            if (created == null || !created.startsWith("done")) {
                err.println("fill: the room was not made: " + created);
                return 1;
            }
            for (WorkerProcess w : workers) {
                w.send("join " + joinRate / workers.size());
            }
            await(workers, "join", (long) (bots / joinRate * 3000) + 120_000);
            if (relaxedShare > 0) {
                phase(workers, "require", bots * 10L + 120_000);
            }
            out.println("filled " + bots);
            if (messages > 0) {
                long start = System.nanoTime() + 1_000_000_000L;
                workers.forEach(w -> w.send("start " + start));
            }
            Thread stdin = new Thread(() -> {
                try {
                    while (System.in.read() >= 0) {
                        // held until the input closes
                    }
                } catch (java.io.IOException ignored) {
                    // closing
                }
            });
            stdin.setDaemon(true);
            stdin.start();
            stdin.join(holdSeconds * 1000);
            return 0;
        } finally {
            workers.forEach(WorkerProcess::close);
        }
    }

    private static void phase(List<WorkerProcess> workers, String phase, long timeoutMillis) throws InterruptedException {
        workers.forEach(w -> w.send(phase));
        await(workers, phase, timeoutMillis);
    }

    private static void await(List<WorkerProcess> workers, String phase, long timeoutMillis) throws InterruptedException {
        for (WorkerProcess w : workers) {
            String done = w.await("done", timeoutMillis);
            if (done == null || !done.startsWith("done " + phase) || !done.endsWith("failed=0")) {
                throw new IllegalStateException("fill: " + phase + ": a worker answered " + done);
            }
        }
    }
}
