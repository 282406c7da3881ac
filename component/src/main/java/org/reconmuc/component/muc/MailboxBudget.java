package org.reconmuc.component.muc;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the stanzas waiting in all room mailboxes. The thread that hands stanzas to rooms (the
 * connection's reader) waits when the bound is reached, so when rooms are held back by a server
 * that reads slowly, the reader stops reading and TCP pushes back on the server, instead of the
 * mailboxes growing without limit. Timer tasks are not counted: they must never wait.
 */
final class MailboxBudget {
    private final int max;
    private final Semaphore permits;
    private volatile boolean closed;

    MailboxBudget(int max) {
        this.max = max;
        this.permits = new Semaphore(max);
    }

    /** Takes one place, waiting while all are taken; false only once {@link #close()}d. */
    boolean acquire() {
        boolean interrupted = false;
        try {
            while (!closed) {
                try {
                    if (permits.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                        return true;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return false;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Gives a place back: its stanza was handled, or went nowhere. */
    void release() {
        permits.release();
    }

    /** Stanzas waiting in mailboxes now. */
    int pending() {
        return max - permits.availablePermits();
    }

    /** Stops waiting: the service shuts down. */
    void close() {
        closed = true;
    }
}
