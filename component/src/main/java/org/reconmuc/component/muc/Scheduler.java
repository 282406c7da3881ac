package org.reconmuc.component.muc;

/** Runs a task later (time bounds of relaxed occupants). The service's timer, or a test's hand. */
@FunctionalInterface
public interface Scheduler {
    void schedule(long delayMillis, Runnable task);
}
