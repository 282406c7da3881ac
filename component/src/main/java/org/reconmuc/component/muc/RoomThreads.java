package org.reconmuc.component.muc;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The shared pool the room mailboxes run on (standalone and in Openfire): one daemon thread per core, at least two. */
public final class RoomThreads {
    private RoomThreads() {
    }

    /** A pool whose threads are named {@code <prefix>-1}, {@code <prefix>-2}, … */
    public static ExecutorService start(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()), r -> {
            Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Lets the rooms finish what they are doing (5 s at most), then stops the pool. */
    public static void stop(ExecutorService pool) {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(5, TimeUnit.SECONDS)) {
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
