package org.reconmuc.component.activity;

import java.sql.SQLException;
import java.time.Clock;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.reconmuc.component.store.LeaseStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * XEP-0437 subscriptions of a service that several instances serve (DESIGN.md, "Several
 * instances"). A subscription's presence, its unavailable presence and a bounced notice all reach
 * the one instance holding the bucket of the service's bare domain; that instance decides (its
 * subscribers are the whole service's, so {@code rai-max-subscribers} holds for the service) and
 * writes the change to the store ({@code reconmuc_rai_subscriber}). Every instance reads the table
 * every {@value #REFRESH_MILLIS} ms and adopts what the others wrote ({@link ActivitySubscriptions#adopt}),
 * so its rooms notify every subscriber; which rooms watch for a session stays each instance's own.
 *
 * <p>What changed is judged against the table as this instance last read it, with its own writes
 * since, never against what presences here have changed and not yet written: a refresh cannot undo
 * a subscription taken a moment ago. A write that fails is tried again before the next read.
 * One thread and one store connection of its own.
 */
public final class SharedSubscriptions implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SharedSubscriptions.class);
    /** How often the store's subscribers are read: a subscription reaches the other instances' rooms within about this. */
    static final long REFRESH_MILLIS = 500;

    private final ActivitySubscriptions local;
    private final LeaseStore store;
    private final Clock clock;
    /** Changes made here not yet written, the latest per session (true: subscribed), in order. */
    private final Map<String, Boolean> unwritten = new LinkedHashMap<>();
    /** The table as this instance last read it, with its own writes since (the sync's thread only). */
    private Set<String> known = new HashSet<>();
    /** Null without a thread of its own (tests call {@link #sync}). */
    private final ScheduledExecutorService thread;

    SharedSubscriptions(ActivitySubscriptions local, LeaseStore store, Clock clock, ScheduledExecutorService thread) {
        this.local = local;
        this.store = store;
        this.clock = clock;
        this.thread = thread;
        local.shareThrough(this::changedHere);
    }

    /** Shares {@code local} through {@code store} (a connection of its own, closed with this) on a thread of its own. */
    public static SharedSubscriptions start(ActivitySubscriptions local, LeaseStore store, Clock clock) {
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rai-subscribers");
            t.setDaemon(true);
            return t;
        });
        SharedSubscriptions shared = new SharedSubscriptions(local, store, clock, thread);
        thread.scheduleWithFixedDelay(shared::sync, 0, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
        return shared;
    }

    /** A presence here changed the subscribers: written at once (the others read it at their next refresh). */
    private void changedHere(ActivitySubscriptions.Change change) {
        synchronized (unwritten) {
            if (change instanceof ActivitySubscriptions.Subscribed s) {
                unwritten.remove(s.session());
                unwritten.put(s.session(), true);
            } else if (change instanceof ActivitySubscriptions.Unsubscribed u) {
                unwritten.remove(u.session());
                unwritten.put(u.session(), false);
            }
        }
        if (thread != null) {
            try {
                thread.execute(this::sync);
            } catch (RejectedExecutionException closed) {
                // stopping: the change is this instance's alone
            }
        }
    }

    /** Writes what changed here, then reads the table and adopts what the other instances changed. */
    void sync() {
        try {
            write();
            Set<String> now = store.activitySubscribers();
            Set<String> began = new HashSet<>(now);
            began.removeAll(known);
            Set<String> ended = new HashSet<>(known);
            ended.removeAll(now);
            known = now;
            if (!began.isEmpty() || !ended.isEmpty()) {
                LOG.debug("XEP-0437 subscribers from the other instances: {} began, {} ended", began.size(), ended.size());
                local.adopt(began, ended);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("XEP-0437 subscribers cannot be shared through the store now (tried again in {} ms): {}",
                    REFRESH_MILLIS, e.toString());
        }
    }

    private void write() throws SQLException {
        while (true) {
            Map.Entry<String, Boolean> next;
            synchronized (unwritten) {
                if (unwritten.isEmpty()) {
                    return;
                }
                next = Map.entry(unwritten.keySet().iterator().next(), unwritten.values().iterator().next());
            }
            String session = next.getKey();
            if (next.getValue()) {
                store.activitySubscribed(session, clock.millis());
                known.add(session);
            } else {
                store.activityUnsubscribed(session);
                known.remove(session);
            }
            synchronized (unwritten) {
                unwritten.remove(session, next.getValue());   // unless it changed again meanwhile
            }
        }
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.shutdownNow();
            try {
                thread.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        store.close();
    }
}
