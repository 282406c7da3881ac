package org.reconmuc.component.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits (bounded) for a condition another thread makes true, instead of sleeping a fixed time. */
public final class Await {
    private Await() {
    }

    /** Polls {@code condition} every few milliseconds; fails with {@code what} after {@code timeout}. */
    public static void until(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
            }
            Thread.sleep(2);
        }
    }
}
