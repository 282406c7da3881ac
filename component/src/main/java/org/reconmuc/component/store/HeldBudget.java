package org.reconmuc.component.store;

/**
 * Bounds what all rooms hold for commits (chars of stanzas): a room that would exceed it waits,
 * as rooms wait for a slow server, so a store that falls behind slows the rooms down instead of
 * filling the memory. One stanza is always admitted, however large.
 */
final class HeldBudget {
    private final long maxChars;
    private long chars;
    private long stanzas;
    private boolean closed;

    HeldBudget(long maxChars) {
        this.maxChars = maxChars;
    }

    /** Waits until {@code n} more chars fit (or the store closes). */
    synchronized void acquire(int n) throws InterruptedException {
        while (!closed && chars > 0 && chars + n > maxChars) {
            wait();
        }
        chars += n;
        stanzas++;
    }

    synchronized void release(int n) {
        chars -= n;
        stanzas--;
        notifyAll();
    }

    synchronized void close() {
        closed = true;
        notifyAll();
    }

    synchronized long stanzas() {
        return stanzas;
    }

    synchronized long chars() {
        return chars;
    }
}
