package org.reconmuc.component.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.reconmuc.servers.InstancesBehindEjabberd;
import org.reconmuc.servers.XmppServer;

/**
 * The component as an operator runs it — {@code org.reconmuc.component.Main} in a JVM of its own,
 * configured by flags — attached to a test's server, so a test can kill it like a crash does
 * ({@code kill -9}) and start it again. Its output goes to a log file.
 */
final class ComponentJvm implements AutoCloseable {
    private final Process process;
    private final Path log;
    /** Where this process's lines start in its log (a rerun in the same target appends to the last run's). */
    private final long logStart;

    private ComponentJvm(Process process, Path log, long logStart) {
        this.process = process;
        this.log = log;
        this.logStart = logStart;
    }

    /** Starts the component with {@code extraFlags}; returns once it has attached to {@code server}. */
    static ComponentJvm start(XmppServer server, Path log, String... extraFlags) throws IOException, InterruptedException {
        return start(server, log, true, extraFlags);
    }

    /**
     * PostgreSQL, ejabberd and the instances {@code names}, each in a JVM of its own with two
     * connections and {@code settings}, logging under {@code target/<folder>}.
     */
    static InstancesBehindEjabberd<ComponentJvm> behindEjabberd(String folder, List<String> names, String... settings)
            throws Exception {
        return behindEjabberd(folder, names, server -> { }, settings);
    }

    /** As above, {@code before} done on the started ejabberd before the first instance attaches. */
    static InstancesBehindEjabberd<ComponentJvm> behindEjabberd(String folder, List<String> names,
            InstancesBehindEjabberd.BeforeInstances before, String... settings) throws Exception {
        return InstancesBehindEjabberd.start(Path.of("target", folder).toAbsolutePath(), names, 2,
                (name, server, flags, log) -> start(server, log, flags.toArray(String[]::new)), List.of(settings), before);
    }

    /** "a" and "b" behind ejabberd with short leases and persistent, unlocked rooms (four buckets). */
    static InstancesBehindEjabberd<ComponentJvm> twoBehindEjabberd(String folder, int leaseSeconds) throws Exception {
        return behindEjabberd(folder, List.of("a", "b"), "--lease-seconds", Integer.toString(leaseSeconds),
                "--room-default-persistent", "true", "--lock-new-rooms", "false",
                "--rate-messages-per-second", "1000", "--rate-burst", "1000");
    }

    /** Starts the component as a standby: it keeps trying while the server refuses it (Prosody takes one connection). */
    static ComponentJvm startStandby(XmppServer server, Path log, String... extraFlags) throws IOException, InterruptedException {
        return start(server, log, false, extraFlags);
    }

    /** Waits up to {@code seconds} until the component has attached (again) since {@code fromByte} of its log. */
    boolean awaitAttached(long fromByte, int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        // The first success after refused attempts is logged as a reconnection.
        while (!output(fromByte).contains("component connected to") && !output(fromByte).contains("component reconnected to")) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(100);
        }
        return true;
    }

    private static ComponentJvm start(XmppServer server, Path log, boolean waitForAttach, String... extraFlags)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), "org.reconmuc.component.Main",
                "--server-host", server.host(), "--server-port", Integer.toString(server.componentPort()),
                "--domain", server.componentDomain(), "--reconnect-max-seconds", "1"));
        cmd.addAll(List.of(extraFlags));
        Files.createDirectories(log.getParent());
        long logStart = Files.exists(log) ? Files.size(log) : 0;
        ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // The instance's settings are its arguments; only the log levels pass through (on the test class
        // path it reads logback-test.xml: RECONMUC_TEST_LOG_LEVEL=DEBUG shows the carry-on positions).
        b.environment().keySet().removeIf(k -> k.startsWith("RECONMUC_") && !k.endsWith("LOG_LEVEL"));
        b.environment().put("RECONMUC_SECRET", server.componentSecret());   // not on argv, where ps shows it
        ComponentJvm jvm = new ComponentJvm(b.start(), log, logStart);
        if (!waitForAttach) {
            return jvm;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!jvm.output(logStart).contains("component connected to")) {
            if (!jvm.process.isAlive() || System.nanoTime() > deadline) {
                jvm.kill();
                throw new IOException("the component did not attach: " + jvm.output(logStart));
            }
            Thread.sleep(100);
        }
        return jvm;
    }

    private String output(long from) throws IOException {
        byte[] all = Files.readAllBytes(log);
        return new String(all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from), StandardCharsets.UTF_8);
    }

    /** SIGKILL, as a crash or the OOM killer does: no shutdown hook runs, nothing is flushed. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** SIGSTOP, as a GC pause, a VM migration or a stalled disk looks from outside: its sockets and sessions stay open. */
    void freeze() throws IOException, InterruptedException {
        signal("-STOP");
    }

    /** SIGCONT: it goes on from where it stopped. */
    void thaw() throws IOException, InterruptedException {
        signal("-CONT");
    }

    /**
     * Slow, not dead: SIGSTOP for {@code stoppedMillis}, SIGCONT for {@code runningMillis}, over and
     * over for about {@code total} (a starved CPU or a thrashing host looks so from outside). However
     * it ends, interrupted or failed, the process is left running. Returns how many times it was stopped.
     */
    int throttle(java.time.Duration total, long stoppedMillis, long runningMillis) throws IOException, InterruptedException {
        long end = System.nanoTime() + total.toNanos();
        int stops = 0;
        try {
            while (System.nanoTime() < end) {
                freeze();
                stops++;
                Thread.sleep(stoppedMillis);
                thaw();
                Thread.sleep(runningMillis);
            }
        } finally {
            thaw();
        }
        return stops;
    }

    private void signal(String signal) throws IOException, InterruptedException {
        int exit = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        if (exit != 0) {
            throw new IOException("kill " + signal + " " + process.pid() + " exited with " + exit);
        }
    }

    /** What it has logged so far. */
    String log() throws IOException {
        return output(logStart);
    }

    /** SIGTERM and a bounded wait, then SIGKILL; a paused process is continued first, to stop as it would. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            try {
                thaw();
            } catch (IOException e) {
                // it exited meanwhile
            }
            process.destroy();
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}
