package org.reconmuc.component.cluster;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.reconmuc.component.transport.OutgoingStanza;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this instance's rooms send passes here, and leaves only while their leases are known to
 * run: by this instance's own clock, until a lease after the start of its last successful renewal
 * (less a margin). Past that — the instance was paused (SIGSTOP, a GC or VM stall) or the store
 * could not be reached — another instance may have taken a room, so nothing of any room leaves:
 * it waits, in order, until a renewal says which rooms are still ours. Theirs then leave; those of
 * rooms taken over are dropped (the room is given up here, and its new owner carries its occupants
 * on, sending again what it cannot tell was sent), as is whatever they send afterwards until they are forgotten here — but for error
 * replies (a stanza refused because the room moved says nothing the new owner must back). The
 * service's own stanzas (disco, ping on the service) pass at all times: they speak for no room.
 */
final class LeaseGate {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseGate.class);

    /** A room's stanza or broadcast on its way out: whether it is an error reply, and how it leaves. */
    record Departure(boolean error, Runnable leave) {
    }

    private record Waiting(String room, Departure departure) {
    }

    private final Clock clock;
    /** Where stanzas leave, with their sender's bare address. */
    private final BiConsumer<String, OutgoingStanza> out;
    /** At most this many stanzas wait; a room that sends more waits too (as when the store is slow). */
    private final int maxWaiting;
    /** Until when (this instance's clock) the leases last renewed are sure to run. */
    private volatile long confirmedUntil;
    /** True from the first stanza that found the leases unconfirmed until the next renewal. */
    private volatile boolean holding;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    /** Rooms found taken over by the last renewal, until they are forgotten here. */
    private final Set<String> lost = ConcurrentHashMap.newKeySet();
    private long dropped;

    /** Sends what waited once the leases are confirmed: never the renewal's thread. */
    private final Executor releasing;

    LeaseGate(Clock clock, BiConsumer<String, OutgoingStanza> out, int maxWaiting, Executor releasing) {
        this.clock = clock;
        this.out = out;
        this.maxWaiting = maxWaiting;
        this.releasing = releasing;
    }

    /** A stanza from {@code sender}, a bare address: a room's, or the service's own (no '@'). */
    void send(String sender, OutgoingStanza stanza) {
        send(sender, new Departure(isError(stanza), () -> out.accept(sender, stanza)));
    }

    /** A stanza or broadcast from {@code sender}, as {@link #send(String, OutgoingStanza)}. */
    void send(String sender, Departure departure) {
        if (sender.indexOf('@') < 0) {
            departure.leave().run();
            return;
        }
        if (!holding && clock.millis() < confirmedUntil) {
            pass(sender, departure);
            return;
        }
        synchronized (this) {
            long now = clock.millis();
            if (holding || now >= confirmedUntil) {
                if (!holding) {
                    holding = true;
                    LOG.warn("the rooms' leases are unconfirmed since {} ms (was this instance paused?): their stanzas"
                            + " wait until a renewal says which rooms are still ours", now - confirmedUntil);
                }
                while (holding && waiting.size() >= maxWaiting) {
                    try {
                        wait(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                if (holding) {
                    waiting.addLast(new Waiting(sender, departure));
                    return;
                }
            }
        }
        pass(sender, departure);   // outside the lock: sending may wait for a slow server
    }

    /** Out, unless its room was taken over (an error reply still goes). */
    private void pass(String room, Departure departure) {
        if (lost.isEmpty() || !lost.contains(room) || departure.error()) {
            departure.leave().run();
        }
    }

    private static boolean isError(OutgoingStanza stanza) {
        String xml = stanza.xml();
        int end = xml.indexOf('>');
        String start = end < 0 ? xml : xml.substring(0, end);
        return start.contains("type=\"error\"") || start.contains("type='error'");
    }

    /**
     * A renewal succeeded: the leases run until {@code until}; {@code ours} tells the rooms this
     * instance holds now, and {@code taken} are those given up. What waited is dropped for the
     * rooms not held, and the rest leaves on the releasing thread (a slow server may make sending
     * wait: the renewal must not).
     */
    synchronized void confirmed(long until, Predicate<String> ours, Set<String> taken) {
        lost.addAll(taken);
        int droppedNow = 0;
        for (Iterator<Waiting> i = waiting.iterator(); i.hasNext(); ) {
            Waiting w = i.next();
            if (!(ours.test(w.room()) && !lost.contains(w.room()) || w.departure().error())) {
                i.remove();
                droppedNow++;
            }
        }
        dropped += droppedNow;
        confirmedUntil = until;
        if (holding) {
            LOG.warn("leases confirmed again: {} waiting stanzas go out, {} dropped ({} rooms taken over)",
                    waiting.size(), droppedNow, taken.size());
            releasing.execute(this::release);
        }
        notifyAll();
    }

    /**
     * Sends what waited, in order; what rooms send meanwhile queues behind it, and goes straight out
     * once the queue is empty. Stops if the leases run out again (the next renewal resumes).
     */
    private void release() {
        while (true) {
            Waiting next;
            synchronized (this) {
                if (!holding || clock.millis() >= confirmedUntil) {
                    return;
                }
                next = waiting.pollFirst();
                if (next == null) {
                    holding = false;
                    return;
                }
                notifyAll();   // room for a sender that waited
            }
            pass(next.room(), next.departure());
        }
    }

    /** {@code room} left memory here: a new claim of it starts afresh. */
    void forgotten(String room) {
        lost.remove(room);
    }

    /** True while stanzas wait for a renewal. */
    boolean holding() {
        return holding;
    }

    /** Stanzas of rooms taken over that were dropped here. */
    synchronized long dropped() {
        return dropped;
    }
}
