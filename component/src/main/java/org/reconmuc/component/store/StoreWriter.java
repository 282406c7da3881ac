package org.reconmuc.component.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit: rooms submit writes and go on; one writer thread commits whatever has queued up
 * in one transaction, then lets each room whose writes it carried release the stanzas it held
 * for them — on a thread of its own ({@code store-release}), in commit order: sending waits while
 * the XMPP server reads slowly, and that must hold up no commit of any room. Writes are committed in submission order (tickets) and never dropped: a failed
 * commit is retried, with a growing pause, until it succeeds or the store closes. The queue is
 * bounded: a room that would overfill it waits (back-pressure, as for a slow server).
 */
final class StoreWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoreWriter.class);
    /** A commit running longer than this makes the store count as unavailable. */
    static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(5);

    /**
     * Commits one batch of writes in one transaction; returns the rooms whose writes it left out
     * because their fence no longer holds (another instance took the room over).
     */
    interface Sink {
        Set<String> commit(List<Write> batch) throws Exception;
    }

    private record Pending(long ticket, Write write, RoomJournal journal) {
    }

    private final Sink sink;
    private final int maxQueued;
    private final int maxBatch;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    /** Journals with delivery positions released since the last commit (several instances): the next commit writes them. */
    private final Set<RoomJournal> positionsReleased = new LinkedHashSet<>();
    /** When the positions released so far are committed even if no other write comes. */
    private long positionsDueNanos;
    /**
     * How long positions wait for a commit to ride with. The longer, the more an idle room's
     * occupants may be sent again after a move (never less): a quiet room's last messages.
     */
    static final long POSITIONS_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private long lastTicket;
    private volatile long committed;
    private boolean closed;
    private Thread thread;
    /** Runs the releases after each commit, in order: inline until {@link #start()} (tests), then its own thread. */
    private volatile java.util.concurrent.Executor releasing = Runnable::run;
    private java.util.concurrent.ExecutorService releaseThread;

    private volatile boolean failing;
    private volatile long commitStartedNanos;
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong commitNanos = new AtomicLong();
    private final AtomicLong writesCommitted = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile long lastCommitNanos;
    private volatile int lastBatch;

    StoreWriter(Sink sink, int maxQueued, int maxBatch) {
        this.sink = sink;
        this.maxQueued = maxQueued;
        this.maxBatch = maxBatch;
    }

    /** Starts the writer thread. Tests drive {@link #commitQueued()} by hand instead. */
    synchronized void start() {
        releaseThread = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "store-release");
            t.setDaemon(true);
            return t;
        });
        releasing = releaseThread;
        thread = new Thread(this::run, "store-writer");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Queues a write and returns its ticket: it is committed once {@link #committed()} reaches it.
     * Waits while the queue is full; after {@link #close()} the write is refused (ticket 0).
     */
    long submit(Write write, RoomJournal journal) {
        boolean interrupted = false;
        try {
            synchronized (this) {
                while (queue.size() >= maxQueued && !closed) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (closed) {
                    LOG.warn("store closed: a write for {} was not queued", write.room());
                    return 0;
                }
                long ticket = ++lastTicket;
                queue.addLast(new Pending(ticket, write, journal));
                notifyAll();
                return ticket;
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * {@code journal} has delivery positions to write ({@link RoomJournal#takePositions}): the next
     * commit takes them, whatever else it carries; with nothing else to write, the writer commits
     * them alone {@link #POSITIONS_DELAY_NANOS} later (a busy store never commits for them alone).
     */
    synchronized void positionsReleased(RoomJournal journal) {
        if (positionsReleased.isEmpty()) {
            positionsDueNanos = System.nanoTime() + POSITIONS_DELAY_NANOS;
            notifyAll();
        }
        positionsReleased.add(journal);
    }

    /**
     * Runs {@code r} on the thread that releases held stanzas (inline before {@link #start()}), never
     * on the caller's: a connection's writer hands over what it learnt was written, and must not wait.
     */
    void onReleaseThread(Runnable r) {
        try {
            releasing.execute(r);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // the store is closed: nothing more is written
        }
    }

    /** Every write with a ticket up to this one is committed. */
    long committed() {
        return committed;
    }

    /**
     * Commits what is queued (up to one batch) in one transaction and releases the rooms' held
     * stanzas. Returns false if the commit failed (the writes stay queued, first in line).
     */
    boolean commitQueued() {
        List<Pending> batch;
        List<RoomJournal> withPositions;
        synchronized (this) {
            if (queue.isEmpty() && positionsReleased.isEmpty()) {
                return true;
            }
            batch = new ArrayList<>(Math.min(queue.size(), maxBatch));
            for (Pending p : queue) {
                if (batch.size() == maxBatch) {
                    break;
                }
                batch.add(p);
            }
            withPositions = new ArrayList<>(positionsReleased);
            positionsReleased.clear();
        }
        List<Write> writes = new ArrayList<>(batch.size() + withPositions.size());
        for (Pending p : batch) {
            writes.add(p.write());
        }
        // Positions go last: what they say was handed over went out before this commit started.
        Map<RoomJournal, Write.Positions> positions = new LinkedHashMap<>();
        for (RoomJournal j : withPositions) {
            Write.Positions w = j.takePositions();
            if (w != null) {
                positions.put(j, w);
                writes.add(w);
            }
        }
        if (writes.isEmpty()) {
            return true;
        }
        long t0 = System.nanoTime();
        commitStartedNanos = t0;
        Set<String> fencedOut;
        try {
            fencedOut = sink.commit(writes);
        } catch (Exception e) {
            positions.forEach((j, w) -> {
                j.positionsNotWritten(w);
                positionsReleased(j);
            });
            failures.incrementAndGet();
            if (!failing) {
                LOG.error("store: committing {} writes failed; they are kept and retried, and rooms hold what"
                        + " depends on them: {}", writes.size(), e.toString());
            } else {
                LOG.debug("store: commit failed again", e);
            }
            failing = true;
            return false;
        } finally {
            commitStartedNanos = 0;
        }
        long took = System.nanoTime() - t0;
        if (failing) {
            LOG.warn("store: commits succeed again");
        }
        failing = false;
        commits.incrementAndGet();
        commitNanos.addAndGet(took);
        writesCommitted.addAndGet(writes.size());
        lastCommitNanos = took;
        lastBatch = writes.size();
        for (RoomJournal j : positions.keySet()) {
            if (fencedOut.contains(j.room())) {
                j.fencedOut();
            }
        }
        if (batch.isEmpty()) {
            return true;
        }
        long upTo = batch.get(batch.size() - 1).ticket();
        synchronized (this) {
            for (int i = 0; i < batch.size(); i++) {
                queue.pollFirst();
            }
            committed = upTo;
            notifyAll();
        }
        Set<RoomJournal> journals = new LinkedHashSet<>();
        for (Pending p : batch) {
            if (p.journal() != null) {
                journals.add(p.journal());
            }
        }
        releasing.execute(() -> {
            for (RoomJournal j : journals) {
                if (fencedOut.contains(j.room())) {
                    j.fencedOut();
                } else {
                    j.committed(upTo);
                }
            }
        });
        return true;
    }

    private void run() {
        long pauseMillis = 100;
        while (true) {
            synchronized (this) {
                while (queue.isEmpty() && !closed) {
                    long wait = positionsReleased.isEmpty() ? 0 : positionsDueNanos - System.nanoTime();
                    if (!positionsReleased.isEmpty() && wait <= 0) {
                        break;
                    }
                    try {
                        if (wait == 0) {
                            wait();
                        } else {
                            TimeUnit.NANOSECONDS.timedWait(this, wait);
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (queue.isEmpty() && positionsReleased.isEmpty()) {
                    return;   // closed and drained
                }
            }
            if (commitQueued()) {
                pauseMillis = 100;
                continue;
            }
            synchronized (this) {
                if (closed) {
                    LOG.error("store: closing with {} writes that could not be committed (their stanzas were never sent)",
                            queue.size());
                    queue.clear();
                    return;
                }
                try {
                    wait(pauseMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
            pauseMillis = Math.min(5_000, pauseMillis * 2);
        }
    }

    /** False while commits fail, or while one has been running for more than {@link #STALL_NANOS}. */
    boolean available() {
        long started = commitStartedNanos;
        return !failing && (started == 0 || System.nanoTime() - started < STALL_NANOS);
    }

    synchronized int queued() {
        return queue.size();
    }

    long commits() {
        return commits.get();
    }

    long commitNanos() {
        return commitNanos.get();
    }

    long writesCommitted() {
        return writesCommitted.get();
    }

    long failures() {
        return failures.get();
    }

    long lastCommitNanos() {
        return lastCommitNanos;
    }

    int lastBatch() {
        return lastBatch;
    }

    /** Commits what is queued (waiting up to {@code timeoutMillis}), then stops the thread. */
    @Override
    public void close() {
        close(10_000);
    }

    void close(long timeoutMillis) {
        Thread t;
        java.util.concurrent.ExecutorService release;
        synchronized (this) {
            closed = true;
            notifyAll();
            t = thread;
            release = releaseThread;
        }
        if (t == null) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try {
            t.join(timeoutMillis);
            if (t.isAlive()) {
                LOG.error("store: the writer did not finish within {} ms; {} writes are not committed", timeoutMillis, queued());
                t.interrupt();
            }
            release.shutdown();   // what the last commits released still goes out
            if (!release.awaitTermination(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                LOG.error("store: stanzas held for committed writes were not all sent within {} ms (is the XMPP server"
                        + " reading?)", timeoutMillis);
                release.shutdownNow();
            }
        } catch (InterruptedException e) {
            t.interrupt();
            release.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
