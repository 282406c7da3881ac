package org.reconmuc.replay;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.reconmuc.servers.InstancesBehindEjabberd;
import org.reconmuc.servers.SharedStore;

/**
 * The fault {@code irc-replay rooms} makes part-way: the instance serving the most rooms killed
 * (SIGKILL) or paused (SIGSTOP, then SIGCONT), or every instance stopped cleanly and started again
 * in turn (a rolling restart); and what it measured of it.
 */
final class RoomsFault {
    enum Kind {
        KILL, PAUSE, ROLLING_RESTART
    }

    /** Between two instances' restarts. */
    static final int SETTLE_SECONDS = 5;

    private final Kind kind;
    private final double pauseSeconds;
    private final InstancesBehindEjabberd<ComponentProcess> cluster;
    private final PrintStream console;
    /** When it happened (System.nanoTime), or -1 before. */
    volatile long atNanos = -1;
    /** The killed or paused instance, and the rooms it held then. */
    String victim;
    Set<String> victimRooms = Set.of();
    /** Seconds from the kill until a survivor adopted the killed instance (null if none within 60 s). */
    CompletableFuture<Double> adoptedAfter;
    final List<Map<String, Object>> restarts = Collections.synchronizedList(new ArrayList<>());
    private Thread thread;

    RoomsFault(Kind kind, double pauseSeconds, InstancesBehindEjabberd<ComponentProcess> cluster, PrintStream console) {
        this.kind = kind;
        this.pauseSeconds = pauseSeconds;
        this.cluster = cluster;
        this.console = console;
    }

    Kind kind() {
        return kind;
    }

    boolean happened() {
        return atNanos > 0;
    }

    /** Makes the fault now; {@code replayStart} is when the replay began (for the console). */
    void fire(long replayStart) throws Exception {
        if (kind == Kind.ROLLING_RESTART) {
            atNanos = System.nanoTime();
            thread = daemon("rolling-restart", () -> restartInTurn(replayStart));
            return;
        }
        Map<String, String> owners = cluster.store().roomOwners();
        victim = busiest(owners);
        Set<String> held = new HashSet<>();
        owners.forEach((room, owner) -> {
            if (owner.equals(victim)) {
                held.add(room);
            }
        });
        victimRooms = held;
        ComponentProcess p = cluster.instance(victim);
        atNanos = System.nanoTime();
        if (kind == Kind.KILL) {
            cluster.remove(victim);
            ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly);
            adoptedAfter = watchAdoption(cluster.store(), victim, atNanos);
        } else {
            signal("STOP", p.pid());
            thread = daemon("pause-" + victim, () -> {
                if (pause((long) (pauseSeconds * 1000))) {
                    signal("CONT", p.pid());
                }
            });
        }
        console.printf("rooms: %s instance %s (%d rooms) at %.1f s%n", kind == Kind.KILL ? "killed" : "paused",
                victim, victimRooms.size(), (atNanos - replayStart) / 1e9);
    }

    /** Waits for a pause or a rolling restart to be over (at most {@code millis}). */
    void awaitEnd(long millis) throws InterruptedException {
        if (thread != null) {
            thread.join(millis);
        }
    }

    /**
     * A rolling restart: each instance in turn stopped cleanly (its standard input closed, as an
     * operator's stop), started again, and given {@value #SETTLE_SECONDS} s before the next.
     */
    private void restartInTurn(long replayStart) {
        for (String name : List.copyOf(cluster.instances().keySet())) {
            try {
                long stopAt = System.nanoTime();
                cluster.stop(name);
                long stopped = System.nanoTime();
                cluster.start(name);
                long started = System.nanoTime();
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("instance", name);
                one.put("stop_at_seconds", (stopAt - replayStart) / 1e9);
                one.put("stop_took_seconds", (stopped - stopAt) / 1e9);
                one.put("start_took_seconds", (started - stopped) / 1e9);
                restarts.add(one);
                console.printf("rooms: restarted instance %s at %.1f s (stop %.1f s, start %.1f s)%n", name,
                        (stopAt - replayStart) / 1e9, (stopped - stopAt) / 1e9, (started - stopped) / 1e9);
            } catch (Exception e) {
                console.printf("rooms: restarting instance %s failed: %s%n", name, e);
                return;
            }
            if (!pause(SETTLE_SECONDS * 1000L)) {
                return;
            }
        }
    }

    /**
     * Seconds from the kill until a survivor adopted the killed instance (its heartbeat row gone:
     * the survivor opens as many connections, and the empty buckets are claimed).
     */
    private static CompletableFuture<Double> watchAdoption(SharedStore store, String instance, long killNanos) {
        return CompletableFuture.supplyAsync(() -> {
            long deadline = killNanos + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                try {
                    if (!store.registeredInstances().containsKey(instance)) {
                        return (System.nanoTime() - killNanos) / 1e9;
                    }
                    Thread.sleep(100);
                } catch (Exception e) {
                    return null;
                }
            }
            return null;
        });
    }

    private static String busiest(Map<String, String> owners) {
        Map<String, Integer> counts = new java.util.TreeMap<>();   // of equals, the first by name
        owners.values().forEach(o -> counts.merge(o, 1, Integer::sum));
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void signal(String signal, long pid) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed", e);
        }
    }

    /** Sleeps; false if interrupted (the flag is kept). */
    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
