package org.reconmuc.replay.light;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A {@link LightWorker} in a JVM of its own, seen from the coordinator: commands go to its standard
 * input; its {@code done}, {@code failed}, {@code status} and {@code report} lines come back through
 * {@link #await}; {@code sent} lines go to a listener at once (the coordinator relays them to the
 * other workers); {@code progress} and {@code note} lines go to the log.
 */
public final class WorkerProcess implements AutoCloseable {
    private final int number;
    private final Process process;
    private final Writer in;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final List<String> report = new ArrayList<>();

    private WorkerProcess(int number, Process process, Consumer<String> sent, PrintStream log) {
        this.number = number;
        this.process = process;
        this.in = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> read(sent, log), "worker-" + number);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts worker {@code number} for bots [first, first + count) of {@code plan}, with a heap sized
     * for them; its standard error goes to {@code errorLog}.
     */
    public static WorkerProcess start(int number, LightPlan plan, int first, int count, String runTag, Path errorLog,
                               Consumer<String> sent, PrintStream log) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long heapMb = 96 + count / 100;   // ~10 KB a session at most, measured well below
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx" + heapMb + "m", "-Xms32m", "-XX:+UseSerialGC", "-Xss256k"));
        // LIGHT_WORKER_JVM_OPTS: e.g. a flight recording of each worker, to profile the bots.
        String extra = System.getenv("LIGHT_WORKER_JVM_OPTS");
        if (extra != null && !extra.isBlank()) {
            cmd.addAll(List.of(extra.trim().replace("%w", Integer.toString(number)).split("\\s+")));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), LightWorker.class.getName()));
        cmd.addAll(plan.toArgs());
        cmd.addAll(List.of("--first", Integer.toString(first), "--count", Integer.toString(count), "--run-tag", runTag));
        ProcessBuilder b = new ProcessBuilder(cmd);
        b.redirectError(ProcessBuilder.Redirect.appendTo(errorLog.toFile()));
        return new WorkerProcess(number, b.start(), sent, log);
    }

    public long pid() {
        return process.pid();
    }

    private void read(Consumer<String> sent, PrintStream log) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("sent ")) {
                    sent.accept(line);
                } else if (line.startsWith("report ")) {
                    synchronized (report) {
                        report.add(line.substring("report ".length()));
                    }
                } else if (line.startsWith("progress ") || line.startsWith("note ")) {
                    log.println("[worker " + number + "] " + line);
                } else {
                    answers.add(line);
                }
            }
        } catch (IOException e) {
            log.println("[worker " + number + "] output: " + e);
        }
        answers.add("exited");
    }

    public synchronized void send(String command) {
        try {
            in.write(command + "\n");
            in.flush();
        } catch (IOException e) {
            // the worker is gone: its next answer is "exited"
        }
    }

    /**
     * The next answer whose first word is {@code word}, or one of {@code failed} and {@code exited};
     * null after {@code timeoutMillis}.
     */
    public String await(String word, long timeoutMillis) throws InterruptedException {
        long end = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            long left = end - System.nanoTime();
            String line = left <= 0 ? null : answers.poll(left, TimeUnit.NANOSECONDS);
            if (line == null || line.startsWith(word + " ") || line.equals(word) || line.startsWith("failed")
                    || line.equals("exited")) {
                return line;
            }
        }
    }

    /** The {@code report} lines, without their prefix. */
    public List<String> report() {
        synchronized (report) {
            return List.copyOf(report);
        }
    }

    @Override
    public void close() {
        send("quit");
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
