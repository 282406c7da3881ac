package org.reconmuc.replay;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.Locale;
import org.reconmuc.component.ReconMuc;
import org.reconmuc.component.config.ConfigLoader;
import org.reconmuc.component.config.ServiceConfig;

/**
 * The component in its own JVM, so its CPU and memory can be sampled by PID: the same
 * {@link ReconMuc} assembly as the component's {@code Main}, plus a line
 * {@code HEAP <used> <committed> <used-after-last-gc>} (bytes) on stdout every second.
 * It stops when its standard input closes (the harness went away) or on SIGTERM.
 */
public final class ComponentMain {
    private ComponentMain() {
    }

    public static void main(String[] args) throws Exception {
        ServiceConfig config = ConfigLoader.load(args, System.getenv());
        ReconMuc muc = ReconMuc.start(config);
        Runtime.getRuntime().addShutdownHook(new Thread(muc::close));
        if (!muc.awaitConnected(Duration.ofSeconds(30))) {
            System.out.println("FAILED not connected");
            System.exit(3);
        }
        System.out.println("READY");
        System.out.flush();
        Thread stdin = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // wait for EOF
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
            System.out.flush();
            Thread.sleep(1000);
        }
    }
}
