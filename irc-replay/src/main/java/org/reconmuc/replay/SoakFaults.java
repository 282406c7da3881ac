package org.reconmuc.replay;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.reconmuc.servers.InstancesBehindEjabberd;

/**
 * The faults of {@code irc-replay soak}, on a schedule over the run, one at a time on a thread of
 * their own (one due while another lasts waits for it): the instance holding the most rooms killed
 * with SIGKILL ({@link RoomsFault}) and started again once a survivor adopted it (at least
 * {@value #KILLED_FOR_SECONDS} s later), every
 * {@code killEvery} seconds; once each, at a fixed share of the run, a rolling restart of every
 * instance ({@link RoomsFault}), a restart of the XMPP server, and a restart of the PostgreSQL the
 * instances share.
 */
final class SoakFaults {
    static final int KILLED_FOR_SECONDS = 5;

    enum Kind { KILL, ROLLING_RESTART, XMPP_SERVER_RESTART, POSTGRES_RESTART }

    record Due(double atSeconds, Kind kind) {
    }

    private final List<Due> schedule;
    private final InstancesBehindEjabberd<ComponentProcess> cluster;
    private final SoakLedger ledger;
    private final PrintStream console;
    /** What happened: one map per fault, in order. */
    final List<Map<String, Object>> done = Collections.synchronizedList(new ArrayList<>());
    private Thread thread;

    SoakFaults(List<Due> schedule, InstancesBehindEjabberd<ComponentProcess> cluster, SoakLedger ledger, PrintStream console) {
        this.schedule = schedule;
        this.cluster = cluster;
        this.ledger = ledger;
        this.console = console;
    }

    /**
     * The schedule for a run of {@code seconds}: kills every {@code killEvery} s, the rolling restart at
     * 20 %, the XMPP server's restart at 45 %, PostgreSQL's at 70 %; nothing in the last
     * {@code quietSeconds} (the run ends on a calm room).
     */
    static List<Due> schedule(double seconds, double killEvery, double quietSeconds) {
        List<Due> due = new ArrayList<>();
        for (double at = killEvery; at < seconds - quietSeconds; at += killEvery) {
            due.add(new Due(at, Kind.KILL));
        }
        due.add(new Due(seconds * 0.20, Kind.ROLLING_RESTART));
        due.add(new Due(seconds * 0.45, Kind.XMPP_SERVER_RESTART));
        due.add(new Due(seconds * 0.70, Kind.POSTGRES_RESTART));
        due.sort(Comparator.comparingDouble(Due::atSeconds));
        return List.copyOf(due);
    }

    void start(long startNanos) {
        thread = new Thread(() -> run(startNanos), "soak-faults");
        thread.setDaemon(true);
        thread.start();
    }

    /** Waits for the fault in progress, if any, and stops the schedule. */
    void stop() throws InterruptedException {
        if (thread != null) {
            thread.interrupt();
            thread.join(TimeUnit.MINUTES.toMillis(5));
        }
    }

    private void run(long startNanos) {
        for (Due d : schedule) {
            long wait = startNanos + (long) (d.atSeconds() * 1e9) - System.nanoTime();
            try {
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
            } catch (InterruptedException e) {
                return;
            }
            long[] window = ledger.faultStarted();
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("fault", d.kind().name().toLowerCase(java.util.Locale.ROOT));
            one.put("at_seconds", (window[0] - startNanos) / 1e9);
            try {
                fire(d.kind(), one, startNanos);
            } catch (Exception e) {
                one.put("failed", e.toString());
            } finally {
                ledger.faultEnded(window);
                one.put("took_seconds", (window[1] - window[0]) / 1e9);
                done.add(one);
                console.printf("soak: %s at %.0f s, %.1f s%s%n", one.get("fault"), one.get("at_seconds"),
                        one.get("took_seconds"), one.containsKey("failed") ? " FAILED " + one.get("failed") : "");
            }
        }
    }

    private void fire(Kind kind, Map<String, Object> one, long startNanos) throws Exception {
        switch (kind) {
            case KILL -> {
                RoomsFault kill = new RoomsFault(RoomsFault.Kind.KILL, 0, cluster, console);
                kill.fire(startNanos);
                one.put("instance", kill.victim);
                one.put("rooms", kill.victimRooms.size());
                Double adopted;
                try {
                    adopted = kill.adoptedAfter.get(60, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    adopted = null;
                }
                one.put("adopted_after_seconds", adopted);
                long down = System.nanoTime() - kill.atNanos;
                Thread.sleep(Math.max(0, KILLED_FOR_SECONDS * 1000L - down / 1_000_000));
                cluster.start(kill.victim);
            }
            case ROLLING_RESTART -> {
                RoomsFault rolling = new RoomsFault(RoomsFault.Kind.ROLLING_RESTART, 0, cluster, console);
                rolling.fire(startNanos);
                rolling.awaitEnd(TimeUnit.MINUTES.toMillis(5));
                one.put("restarts", List.copyOf(rolling.restarts));
            }
            case XMPP_SERVER_RESTART -> cluster.server().restart();
            case POSTGRES_RESTART -> cluster.postgres().restart();
        }
    }
}
