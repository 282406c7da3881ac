package org.reconmuc.component.transport;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The serialized stanzas waiting for the server, kept across connections and bounded by their
 * total length in chars (so memory stays bounded whatever the stanza sizes). Thread-safe.
 *
 * <p><b>While connected</b> nothing is ever dropped: a sender that would overfill the queue waits
 * until the writer has taken enough out ({@link #put} with {@code mayWait}). That is the
 * back-pressure: a server that reads slowly slows the rooms down, their mailboxes fill, and the
 * reader stops reading. The one thread that must not wait for the server (the reader, which
 * answers what keeps the stream alive) may go past the bound up to twice its size.
 *
 * <p><b>While disconnected</b> senders never wait (the outage may be long): stanzas are kept for
 * the next connection, and when they exceed the bound the oldest ones are refused, counted in
 * {@link #evicted()}.
 *
 * <p><b>Marks</b> ({@link #mark}) ride in the queue too: the writer takes each with the stanzas
 * queued before it, and runs it once it has written and flushed them — how a room learns that
 * what it sent has left the process (a {@code kill -9} loses what is still queued).
 */
final class OutgoingQueue {

    enum Offer { QUEUED, FINISHED }

    private final long maxChars;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final ArrayDeque<String> items = new ArrayDeque<>();
    /** Marks, in the order given; each is taken with every stanza queued before it (and maybe some after). */
    private final ArrayDeque<Runnable> marks = new ArrayDeque<>();
    private long chars;
    private boolean connected;
    private boolean finished;
    private long evicted;
    private long waits;
    /** Bumped by {@link #wakeUp()}: a waiting {@link #drainTo} returns. */
    private long wakeups;

    OutgoingQueue(long maxChars) {
        if (maxChars <= 0) {
            throw new IllegalArgumentException("maxChars must be > 0");
        }
        this.maxChars = maxChars;
    }

    /**
     * Adds {@code s} at the end. While connected, waits first while the queue is over its bound
     * ({@code mayWait}) or over twice its bound (otherwise); a stanza larger than the bound still
     * goes into an empty queue. An interrupted wait queues the stanza anyway (it is never lost).
     * While disconnected, queues at once and refuses the oldest stanzas past the bound.
     */
    Offer put(String s, boolean mayWait) {
        long limit = mayWait ? maxChars : 2 * maxChars;
        boolean interrupted = false;
        lock.lock();
        try {
            boolean counted = false;
            while (!finished && connected && chars > 0 && chars + s.length() > limit) {
                if (!counted) {
                    waits++;
                    counted = true;
                }
                try {
                    notFull.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
            if (finished) {
                return Offer.FINISHED;
            }
            items.addLast(s);
            chars += s.length();
            if (!connected) {
                while (chars > maxChars && items.size() > 1) {
                    chars -= items.pollFirst().length();
                    evicted++;
                }
            }
            notEmpty.signal();
            return Offer.QUEUED;
        } finally {
            lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Queues {@code written}, to be run by the writer once everything queued before it is written
     * to the socket (see the class comment). False if the queue is finished: it never runs.
     */
    boolean mark(Runnable written) {
        lock.lock();
        try {
            if (finished) {
                return false;
            }
            marks.addLast(written);
            notEmpty.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Puts back, at the front and in their order, stanzas a writer took but could not send, and
     * the marks it took with them: they run once those stanzas are written, on the next connection.
     */
    void requeueFront(List<String> unsent, List<Runnable> unrun) {
        lock.lock();
        try {
            for (int i = unsent.size() - 1; i >= 0; i--) {
                items.addFirst(unsent.get(i));
                chars += unsent.get(i).length();
            }
            for (int i = unrun.size() - 1; i >= 0; i--) {
                marks.addFirst(unrun.get(i));
            }
            if (!unsent.isEmpty() || !unrun.isEmpty()) {
                notEmpty.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Switches between waiting senders (connected) and refusing the oldest (disconnected). */
    void setConnected(boolean value) {
        lock.lock();
        try {
            connected = value;
            notFull.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds {@code last} (if not null) regardless of the bound and refuses everything offered
     * after it. Returns false if the queue was already finished (then {@code last} is not added).
     */
    boolean finish(String last) {
        lock.lock();
        try {
            if (finished) {
                return false;
            }
            if (last != null) {
                items.addLast(last);
                chars += last.length();
            }
            finished = true;
            notEmpty.signalAll();
            notFull.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves every queued stanza into {@code out} and every mark into {@code written} (to run once
     * those stanzas are written), waiting up to {@code timeoutNanos} for at least one of either.
     * Returns the number of stanzas and marks moved; 0 on timeout, after {@link #wakeUp()} or,
     * when {@link #isDone()}, at the end.
     */
    int drainTo(List<String> out, List<Runnable> written, long timeoutNanos) throws InterruptedException {
        lock.lock();
        try {
            long left = timeoutNanos;
            long generation = wakeups;
            while (items.isEmpty() && marks.isEmpty() && !finished && left > 0 && generation == wakeups) {
                left = notEmpty.awaitNanos(left);
            }
            int n = items.size();
            out.addAll(items);
            items.clear();
            chars = 0;
            if (n > 0) {
                notFull.signalAll();
            }
            int m = marks.size();
            written.addAll(marks);
            marks.clear();
            return n + m;
        } finally {
            lock.unlock();
        }
    }

    /** Makes a waiting {@link #drainTo} return, so its writer can look at why it was woken. */
    void wakeUp() {
        lock.lock();
        try {
            wakeups++;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** True if nothing is queued. */
    boolean isEmpty() {
        lock.lock();
        try {
            return items.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** True once finished and drained: the writer has everything it will ever get. */
    boolean isDone() {
        lock.lock();
        try {
            return finished && items.isEmpty() && marks.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Finishes the queue and throws away what it holds (its marks never run); returns the number of stanzas thrown away. */
    int discard() {
        lock.lock();
        try {
            finished = true;
            int n = items.size();
            items.clear();
            marks.clear();
            chars = 0;
            notEmpty.signalAll();
            notFull.signalAll();
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** Chars currently queued. */
    long queuedChars() {
        lock.lock();
        try {
            return chars;
        } finally {
            lock.unlock();
        }
    }

    /** Stanzas currently queued. */
    int size() {
        lock.lock();
        try {
            return items.size();
        } finally {
            lock.unlock();
        }
    }

    /** Stanzas refused so far because the queue was full while disconnected (oldest first). */
    long evicted() {
        lock.lock();
        try {
            return evicted;
        } finally {
            lock.unlock();
        }
    }

    /** Times a sender had to wait for room in the queue (back-pressure applied). */
    long waits() {
        lock.lock();
        try {
            return waits;
        } finally {
            lock.unlock();
        }
    }
}
