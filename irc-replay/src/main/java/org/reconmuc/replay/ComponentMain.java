package org.reconmuc.replay;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import org.reconmuc.component.ReconMuc;
import org.reconmuc.component.config.ConfigLoader;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.transport.ExternalComponentConnection;

/**
 * The component in its own JVM, so its CPU and memory can be sampled by PID: the same
 * {@link ReconMuc} assembly as the component's {@code Main}, plus a line
 * {@code HEAP <used> <committed> <used-after-last-gc>} (bytes) on stdout every second, and
 * {@code LINK <bytes> <multicast stanzas> <multicast copies>} (what crossed the XEP-0114 link to
 * the server, over all its connections), {@code MULTICAST <stanzas>,<stanzas>,...} (what each
 * connection sent through the server's XEP-0033 multicast), and
 * {@code LIVE <bytes>} — the heap in use after full collections, what the service really holds —
 * when the harness writes a line {@code LIVE}. It stops when its standard input closes (the
 * harness went away) or on SIGTERM.
 */
public final class ComponentMain {
    private ComponentMain() {
    }

    public static void main(String[] args) throws Exception {
        ServiceConfig config = ConfigLoader.load(args, System.getenv());
        ReconMuc muc = ReconMuc.start(config, ConfigLoader.loadCluster(args, System.getenv()));
        Runtime.getRuntime().addShutdownHook(new Thread(muc::close));
        if (!muc.awaitConnected(Duration.ofSeconds(30))) {
            System.out.println("FAILED not connected");
            System.exit(3);
        }
        System.out.println("READY");
        System.out.flush();
        Thread stdin = new Thread(() -> {
            try (java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.equals("LIVE")) {
                        System.out.printf(Locale.ROOT, "LIVE %d%n", liveHeap());
                        System.out.flush();
                    }
                }
            } catch (Exception ignored) {
                // closing
            }
            System.exit(0);
        }, "stdin-watch");
        stdin.setDaemon(true);
        stdin.start();
        while (true) {
            MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            long afterGc = ProcSampler.heapAfterLastGc();
            System.out.printf(Locale.ROOT, "HEAP %d %d %d%n", heap.getUsed(), heap.getCommitted(), afterGc);
            long bytes = 0;
            long multicastStanzas = 0;
            long multicastCopies = 0;
            StringJoiner byConnection = new StringJoiner(",");
            for (ExternalComponentConnection c : muc.cluster() != null ? muc.cluster().connections() : List.of(muc.connection())) {
                bytes += c.bytesWritten();
                multicastStanzas += c.multicastStanzas();
                multicastCopies += c.multicastCopies();
                byConnection.add(Long.toString(c.multicastStanzas()));
            }
            System.out.printf(Locale.ROOT, "LINK %d %d %d%n", bytes, multicastStanzas, multicastCopies);
            System.out.printf(Locale.ROOT, "MULTICAST %s%n", byConnection);
            System.out.flush();
            Thread.sleep(1000);
        }
    }

    /** Heap in use after full collections (until it stops shrinking, at most five). */
    private static long liveHeap() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            if (now >= used) {
                return now;
            }
            used = now;
        }
        return used;
    }
}
