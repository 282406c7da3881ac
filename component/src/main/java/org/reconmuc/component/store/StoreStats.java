package org.reconmuc.component.store;

/** What an operator sees of the store (read at scrape time, from any thread). */
public interface StoreStats {
    StoreStats NONE = new StoreStats() {
    };

    /** Transactions committed. */
    default long commits() {
        return 0;
    }

    /** Time spent committing, in seconds (with {@link #commits()}: the mean commit time). */
    default double commitSeconds() {
        return 0;
    }

    /** The last commit's time, in seconds. */
    default double lastCommitSeconds() {
        return 0;
    }

    /** Writes (messages, room records, deletions) committed: divided by {@link #commits()}, the mean batch. */
    default long writesCommitted() {
        return 0;
    }

    /** Writes in the last batch. */
    default int lastBatchSize() {
        return 0;
    }

    /** Writes waiting for the writer. */
    default int queuedWrites() {
        return 0;
    }

    /** Stanzas the rooms hold until their writes are committed. */
    default long heldStanzas() {
        return 0;
    }

    /** Commits that failed (and were retried). */
    default long failures() {
        return 0;
    }

    /** False while commits fail or stall. */
    default boolean available() {
        return true;
    }
}
