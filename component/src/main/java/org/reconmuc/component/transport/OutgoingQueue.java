package org.reconmuc.component.transport;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The queue between the threads that send and the one writer thread of a connection: serialized
 * stanzas, bounded by their total length in chars (so memory stays bounded whatever the stanza
 * sizes). Offering never blocks. Thread-safe.
 */
final class OutgoingQueue {

    enum Offer { QUEUED, FULL, FINISHED }

    private final long maxChars;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final ArrayDeque<String> items = new ArrayDeque<>();
    private long chars;
    private boolean finished;

    OutgoingQueue(long maxChars) {
        if (maxChars <= 0) {
            throw new IllegalArgumentException("maxChars must be > 0");
        }
        this.maxChars = maxChars;
    }

    /** Adds {@code s} unless that would make the queue hold more than its limit, or it is finished. */
    Offer offer(String s) {
        lock.lock();
        try {
            if (finished) {
                return Offer.FINISHED;
            }
            if (chars + s.length() > maxChars) {
                return Offer.FULL;
            }
            items.addLast(s);
            chars += s.length();
            notEmpty.signal();
            return Offer.QUEUED;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds {@code last} (if not null) regardless of the limit and refuses everything offered after
     * it. Returns false if the queue was already finished (then {@code last} is not added).
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
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves everything queued into {@code out}, waiting up to {@code timeoutNanos} for at least one
     * item. Returns the number of items moved; 0 on timeout or, when {@link #isDone()}, at the end.
     */
    int drainTo(List<String> out, long timeoutNanos) throws InterruptedException {
        lock.lock();
        try {
            long left = timeoutNanos;
            while (items.isEmpty() && !finished && left > 0) {
                left = notEmpty.awaitNanos(left);
            }
            int n = items.size();
            out.addAll(items);
            items.clear();
            chars = 0;
            return n;
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
            return finished && items.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Finishes the queue and throws away what it holds; returns the number of items thrown away. */
    int discard() {
        lock.lock();
        try {
            finished = true;
            int n = items.size();
            items.clear();
            chars = 0;
            notEmpty.signalAll();
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
}
