package org.reconmuc.replay;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.reconmuc.replay.meter.Histogram;
import org.reconmuc.replay.meter.Series;

/** What the bots of one scenario share: the schedule, what was sent, and the measurements. */
final class RunState {
    final List<Workload.Msg> msgs;
    final int[] parent;
    final int[] author;
    /** The room-assigned stanza-id of each message, learned from the first copy any bot receives. */
    final AtomicReferenceArray<String> stanzaIds;
    /** Whether each message has been sent (so a bot can tell a reply whose parent was never sent). */
    final java.util.concurrent.atomic.AtomicIntegerArray sent;
    /** Whether each message was sent as a reply the room knows (with its XEP-0461 {@code <reply/>}). */
    final java.util.concurrent.atomic.AtomicIntegerArray linked;
    /** Deliveries after this (the last message sent plus the drain) are late; none before the drain starts. */
    volatile long cutoffNanos = Long.MAX_VALUE;
    /**
     * When some bot first received each message (System.nanoTime, 0: not yet): the room has
     * processed it by then, so a retained copy is due at the latest one time bound later.
     */
    final AtomicLongArray firstSeenNanos;
    final Series series;
    final Histogram immediate = new Histogram();
    final Histogram retained = new Histogram();
    final Histogram directReplies = new Histogram();
    final Histogram all = new Histogram();
    /** The same measurements for the bots of each world of the run, counted apart. */
    final Map<World, WorldMeasures> byWorld = new EnumMap<>(World.class);
    final AtomicLong errorsReceived = new AtomicLong();
    final AtomicLong presencesReceived = new AtomicLong();
    volatile boolean measuring;

    /** What the bots of one world received, and when. */
    static final class WorldMeasures {
        final Series series;
        final Histogram immediate = new Histogram();
        final Histogram retained = new Histogram();
        final Histogram directReplies = new Histogram();
        final Histogram all = new Histogram();

        WorldMeasures(int capacitySeconds) {
            this.series = new Series(capacitySeconds);
        }
    }

    boolean seen(int seq) {
        return firstSeenNanos.get(seq) != 0;
    }

    RunState(List<Workload.Msg> msgs, Series series, List<World> worlds) {
        for (World w : worlds) {
            byWorld.put(w, new WorldMeasures(series.capacity()));
        }
        this.msgs = msgs;
        this.parent = new int[msgs.size()];
        this.author = new int[msgs.size()];
        for (Workload.Msg m : msgs) {
            parent[m.seq()] = m.parent();
            author[m.seq()] = m.bot();
        }
        this.stanzaIds = new AtomicReferenceArray<>(msgs.size());
        this.sent = new java.util.concurrent.atomic.AtomicIntegerArray(msgs.size());
        this.firstSeenNanos = new AtomicLongArray(msgs.size());
        this.linked = new java.util.concurrent.atomic.AtomicIntegerArray(msgs.size());
        this.series = series;
    }
}
