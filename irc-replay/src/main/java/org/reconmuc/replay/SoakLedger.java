package org.reconmuc.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.reconmuc.replay.meter.Histogram;

/**
 * What {@code irc-replay soak} has sent and seen so far, shared by its bots and its minute lines:
 * when each message was sent, the answers (echoes and errors), the deliveries, and the at-once
 * latencies (a standard occupant's live copy after the send), over the whole run, over its last
 * minute, and outside the faults' windows (a fault from its start until {@value #AFTER_FAULT_SECONDS}
 * s after its end: neither sent nor delivered in one).
 */
final class SoakLedger {
    static final int AFTER_FAULT_SECONDS = 30;

    /** Key ({@link RoomAcks#key}) to when it was sent (System.nanoTime). */
    final Map<String, Long> sentAt = new ConcurrentHashMap<>();
    final RoomAcks acks = new RoomAcks();
    final AtomicLong deliveries = new AtomicLong();
    final AtomicLong botFailures = new AtomicLong();
    /** The first few failed bot operations, for the summary. */
    final List<String> botFailureExamples = java.util.Collections.synchronizedList(new ArrayList<>());
    private final Histogram atOnce = new Histogram();
    private final Histogram atOnceOutsideFaults = new Histogram();
    private Histogram atOnceThisMinute = new Histogram();
    /** [start, end] System.nanoTime of each fault; end 0 while it lasts. */
    private final List<long[]> faults = new ArrayList<>();

    static String roomName(int room) {
        return "soak" + room;
    }

    void sent(int room, int seq) {
        sentAt.put(RoomAcks.key(room, seq), System.nanoTime());
    }

    /** A copy reached a bot, live or retained; {@code standardLive}: a standard occupant's live copy. */
    void delivered(int room, int seq, boolean standardLive) {
        deliveries.incrementAndGet();
        Long sent = sentAt.get(RoomAcks.key(room, seq));
        if (!standardLive || sent == null) {
            return;
        }
        long now = System.nanoTime();
        double ms = (now - sent) / 1e6;
        synchronized (this) {
            atOnce.record(ms);
            atOnceThisMinute.record(ms);
            if (!inFault(sent) && !inFault(now)) {
                atOnceOutsideFaults.record(ms);
            }
        }
    }

    void botFailed(String what, Exception e) {
        botFailures.incrementAndGet();
        if (botFailureExamples.size() < 10) {
            botFailureExamples.add(what + ": " + e);
        }
    }

    synchronized long[] faultStarted() {
        long[] window = {System.nanoTime(), 0};
        faults.add(window);
        return window;
    }

    synchronized void faultEnded(long[] window) {
        window[1] = System.nanoTime();
    }

    private boolean inFault(long nanos) {
        for (long[] w : faults) {
            if (nanos >= w[0] && (w[1] == 0 || nanos <= w[1] + AFTER_FAULT_SECONDS * 1_000_000_000L)) {
                return true;
            }
        }
        return false;
    }

    /** The last minute's at-once p99 and count, and a new minute begun. */
    synchronized double[] takeMinute() {
        double[] m = {atOnceThisMinute.count() == 0 ? Double.NaN : atOnceThisMinute.quantile(0.99), atOnceThisMinute.count()};
        atOnceThisMinute = new Histogram();
        return m;
    }

    synchronized double atOnceP99() {
        return atOnce.count() == 0 ? Double.NaN : atOnce.quantile(0.99);
    }

    synchronized double atOnceP99OutsideFaults() {
        return atOnceOutsideFaults.count() == 0 ? Double.NaN : atOnceOutsideFaults.quantile(0.99);
    }
}
