package org.reconmuc.component.transport;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where an {@link ExternalComponentConnection} is in its life — closed or not, connected now or
 * not, ended and why — and the waits on it: whoever waits for a connection, for the end, or
 * sleeps a backoff is woken by any change, a {@link #close()} included.
 */
final class ConnectionState {
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private boolean connectedNow;          // guarded by lock
    private Termination termination;       // guarded by lock

    boolean closed() {
        return closed.get();
    }

    /** True the first time only: the caller closes. Wakes every wait. */
    boolean close() {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        signal();
        return true;
    }

    /** See {@link ExternalComponentConnection#awaitConnected}. */
    boolean awaitConnected(Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (!connectedNow && termination == null && !closed.get() && left > 0) {
                left = changed.awaitNanos(left);
            }
            return connectedNow;
        } finally {
            lock.unlock();
        }
    }

    boolean connected() {
        lock.lock();
        try {
            return connectedNow;
        } finally {
            lock.unlock();
        }
    }

    void connected(boolean value) {
        lock.lock();
        try {
            connectedNow = value;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Why it ended, or null while it has not. */
    Termination termination() {
        lock.lock();
        try {
            return termination;
        } finally {
            lock.unlock();
        }
    }

    /** Blocks until {@link #terminate} was called. */
    Termination awaitTermination() throws InterruptedException {
        lock.lock();
        try {
            while (termination == null) {
                changed.await();
            }
            return termination;
        } finally {
            lock.unlock();
        }
    }

    /** Blocks until {@link #terminate} was called, up to {@code timeout}; true if it was. */
    boolean awaitTermination(Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (termination == null && left > 0) {
                left = changed.awaitNanos(left);
            }
            return termination != null;
        } finally {
            lock.unlock();
        }
    }

    /** The end, for good: the first reason given stays. */
    void terminate(Termination t) {
        lock.lock();
        try {
            if (termination == null) {
                termination = t;
            }
            connectedNow = false;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Sleeps {@code delay}, or less if closed meanwhile. */
    void sleepUnlessClosed(Duration delay) {
        long left = delay.toNanos();
        lock.lock();
        try {
            while (!closed.get() && left > 0) {
                left = changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    private void signal() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
