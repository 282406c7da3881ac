package org.reconmuc.servers;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Last resort: every server process still running when the JVM exits (a test that forgot
 * close(), a fork killed by a timeout with SIGTERM) is stopped by a shutdown hook.
 * {@link Processes#stop} is the normal path.
 */
final class Reaper {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Reaper::stopAll, "xmpp-server-reaper"));
    }

    private Reaper() {
    }

    static void track(Process process) {
        LIVE.add(process);
    }

    static void forget(Process process) {
        LIVE.remove(process);
    }

    private static void stopAll() {
        List<Process> live = List.copyOf(LIVE);
        if (live.isEmpty()) {
            return;
        }
        List<ProcessHandle> descendants = live.stream().flatMap(Process::descendants).collect(Collectors.toList());
        live.forEach(Process::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        for (Process p : live) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        System.err.println("[xmpp-server] shutdown hook stopped " + live.size() + " server process(es) left running");
    }
}
