package org.reconmuc.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** CPU time and resident memory of a process, from /proc/PID/stat and /proc/PID/status. */
final class ProcSampler {
    /** Linux clock ticks per second (USER_HZ), 100 on every common kernel. */
    static final double HZ = 100.0;

    private ProcSampler() {
    }

    /** Total CPU seconds (user + system) of the process, or NaN if it is gone. */
    static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // Fields after the command (which may contain spaces) in parentheses.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long utime = Long.parseLong(f[11]);
            long stime = Long.parseLong(f[12]);
            return (utime + stime) / HZ;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Resident set size in bytes (VmRSS), or -1. */
    static long rssBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] f = line.trim().split("\\s+");
                    return Long.parseLong(f[1]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone
        }
        return -1;
    }

    /** Number of threads, or -1. */
    static int threads(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("Threads:")) {
                    return Integer.parseInt(line.substring(8).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone
        }
        return -1;
    }

    /** One sample of everything, once a second. */
    record Sample(int second, double serverCpu, long serverRss, double componentCpu, long componentRss,
            long componentHeap, long componentHeapAfterGc, double harnessCpu, long harnessRss, long harnessHeap,
            long harnessHeapAfterGc) {
    }

    /** The JVM's heap memory pools (their names do not change while it runs). */
    private static final java.util.Set<String> HEAP_POOLS = java.lang.management.ManagementFactory.getMemoryPoolMXBeans()
            .stream().filter(pool -> pool.getType() == java.lang.management.MemoryType.HEAP)
            .map(java.lang.management.MemoryPoolMXBean::getName).collect(java.util.stream.Collectors.toUnmodifiableSet());

    /**
     * Heap in use right after the most recent collection (young or full), all heap pools: roughly
     * the live data. (Per-pool "collection usage" is no good for this: the old generation's is only
     * updated by full collections, which may never happen.) A collection's report also lists the
     * non-heap pools — Metaspace and the JIT's code cache, which grow with the code a run exercises
     * — so only the heap's are summed.
     */
    static long heapAfterLastGc() {
        long latestEnd = -1;
        long used = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof com.sun.management.GarbageCollectorMXBean sun) {
                com.sun.management.GcInfo info = sun.getLastGcInfo();
                if (info != null && info.getEndTime() > latestEnd) {
                    latestEnd = info.getEndTime();
                    used = 0;
                    for (java.util.Map.Entry<String, java.lang.management.MemoryUsage> pool : info.getMemoryUsageAfterGc().entrySet()) {
                        if (HEAP_POOLS.contains(pool.getKey())) {
                            used += pool.getValue().getUsed();
                        }
                    }
                }
            }
        }
        return used;
    }

    /** Keeps the samples and turns cumulative CPU seconds into per-second percentages. */
    static final class Recorder {
        final List<Sample> samples = new ArrayList<>();
    }
}
