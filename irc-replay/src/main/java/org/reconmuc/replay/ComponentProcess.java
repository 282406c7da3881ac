package org.reconmuc.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.reconmuc.servers.ServerPlacement;
import org.reconmuc.servers.XmppServer;

/**
 * ReConMUC in a child JVM ({@link ComponentMain}) attached to the server's component port: a
 * separate PID, so its CPU and RSS come from /proc apart from the bots', and its heap from the
 * lines it prints.
 */
final class ComponentProcess implements AutoCloseable {
    private final Process process;
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile boolean failed;
    volatile long heapUsed;
    volatile long heapCommitted;
    volatile long heapAfterGc;
    /** What crossed the link to the server so far (the last {@code LINK} line): bytes, multicast stanzas and copies. */
    volatile long linkBytes;
    volatile long multicastStanzas;
    volatile long multicastCopies;
    /** Per connection it holds now (the last {@code MULTICAST} line): the stanzas it sent through the server's multicast. */
    volatile List<Long> multicastStanzasByConnection = List.of();
    /** Answers to {@link #liveHeap} requests. */
    private final java.util.concurrent.BlockingQueue<Long> liveHeaps = new java.util.concurrent.LinkedBlockingQueue<>();
    private final List<String> tail = new ArrayList<>();

    private ComponentProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::read, "component-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the component where the server runs ({@link XmppServer#host()}, in its namespace if it has one). */
    static ComponentProcess start(XmppServer server, ServerPlacement placement, int historySize, String heap,
            List<String> storeArgs, Path log) throws IOException, InterruptedException {
        return start(server, placement, historySize, heap, List.of(), storeArgs, log);
    }

    /** As above, with {@code jvmFlags} after the heap's. */
    static ComponentProcess start(XmppServer server, ServerPlacement placement, int historySize, String heap,
            List<String> jvmFlags, List<String> storeArgs, Path log) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx" + heap, "-Xms" + heap, "-XX:+UseParallelGC"));
        cmd.addAll(jvmFlags);
        // REPLAY_COMPONENT_JVM_OPTS: e.g. a flight recording, to profile the component.
        String extra = System.getenv("REPLAY_COMPONENT_JVM_OPTS");
        if (extra != null && !extra.isBlank()) {
            cmd.addAll(List.of(extra.trim().split("\\s+")));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ComponentMain.class.getName()));
        cmd.addAll(args(server, historySize));
        cmd.addAll(storeArgs);
        ProcessBuilder b = new ProcessBuilder(placement.wrap(cmd));
        // WARN keeps the logs small; REPLAY_COMPONENT_LOG_LEVEL=INFO shows e.g. when each room was claimed.
        b.environment().putAll(environment(server));
        b.environment().put("RECONMUC_LOG_LEVEL", System.getenv().getOrDefault("REPLAY_COMPONENT_LOG_LEVEL", "WARN"));
        b.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        b.redirectInput(ProcessBuilder.Redirect.PIPE);
        ComponentProcess cp = new ComponentProcess(b.start());
        // The component gives up after its own 30 s (ComponentMain); its JVM's start comes before them.
        boolean answered = cp.ready.await(60, TimeUnit.SECONDS);
        if (!answered || cp.failed) {
            boolean exited = cp.process.waitFor(5, TimeUnit.SECONDS);
            cp.close();
            throw new IOException("the component did not attach to the server: "
                    + (exited ? "it exited with " + cp.process.exitValue() : "no answer within 60 s") + "; printed "
                    + cp.tail + "; its log ends: " + lastLines(log, 15) + " (" + log + ")");
        }
        return cp;
    }

    /** What the component wrote to its log last (its exceptions go there), for the failure's message. */
    private static List<String> lastLines(Path log, int n) {
        try {
            List<String> lines = java.nio.file.Files.readAllLines(log, StandardCharsets.UTF_8);
            return lines.subList(Math.max(0, lines.size() - n), lines.size());
        } catch (IOException | RuntimeException e) {
            return List.of("(unreadable: " + e + ")");
        }
    }

    /** The component's secret, in its environment: on the command line every user's ps would show it. */
    static java.util.Map<String, String> environment(XmppServer server) {
        return java.util.Map.of("RECONMUC_SECRET", server.componentSecret());
    }

    /** The component's other settings, as its command-line flags (the component's stable interface). */
    static List<String> args(XmppServer server, int historySize) {
        return List.of("--server-host", server.host(), "--server-port", Integer.toString(server.componentPort()),
                "--domain", server.componentDomain(),
                "--history-size", Integer.toString(historySize),
                // The replay's speakers are not the flooders this limit is for.
                "--rate-messages-per-second", "1000", "--rate-burst", "1000");
    }

    /**
     * The store flags for {@code --component-store}: none, or a fresh database of that kind in
     * {@code runDir} with the replay's room persistent (so every message is stored before it is sent).
     */
    static List<String> storeArgs(String store, Path runDir) throws IOException {
        if (store.equals("none")) {
            return List.of("--store", "none");
        }
        Path dir = runDir.resolve("store");
        if (java.nio.file.Files.exists(dir)) {
            try (java.util.stream.Stream<Path> old = java.nio.file.Files.walk(dir)) {
                old.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return List.of("--store", store + ":" + dir.resolve(store.equals("sqlite") ? "rooms.db" : "rooms"),
                "--room-default-persistent", "true");
    }

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("HEAP ")) {
                    String[] f = line.split(" ");
                    heapUsed = Long.parseLong(f[1]);
                    heapCommitted = Long.parseLong(f[2]);
                    heapAfterGc = Long.parseLong(f[3]);
                } else if (line.startsWith("LINK ")) {
                    String[] f = line.split(" ");
                    linkBytes = Long.parseLong(f[1]);
                    multicastStanzas = Long.parseLong(f[2]);
                    multicastCopies = Long.parseLong(f[3]);
                } else if (line.startsWith("MULTICAST ")) {
                    List<Long> counts = new ArrayList<>();
                    for (String n : line.substring(10).split(",")) {
                        if (!n.isEmpty()) {
                            counts.add(Long.parseLong(n));
                        }
                    }
                    multicastStanzasByConnection = List.copyOf(counts);
                } else if (line.startsWith("LIVE ")) {
                    liveHeaps.add(Long.parseLong(line.substring(5)));
                } else if (line.equals("READY")) {
                    ready.countDown();
                } else {
                    synchronized (tail) {
                        tail.add(line);
                    }
                    if (line.startsWith("FAILED")) {
                        failed = true;
                        ready.countDown();
                    }
                }
            }
        } catch (IOException ignored) {
            // process gone
        }
        failed = true;
        ready.countDown();
    }

    /**
     * The component's heap in use after full collections now, in bytes (what it holds, garbage
     * aside), or -1 if it did not answer within 30 s.
     */
    long liveHeap() {
        try {
            liveHeaps.clear();
            process.getOutputStream().write("LIVE\n".getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();
            Long live = liveHeaps.poll(30, TimeUnit.SECONDS);
            return live == null ? -1 : live;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // already gone
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
