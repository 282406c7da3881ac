package org.reconmuc.component.store;

import java.util.List;
import java.util.function.Consumer;
import org.reconmuc.component.transport.OutgoingStanza;

/**
 * Where persistent rooms and their archives are kept ({@link JdbcStore}), or nothing at all
 * ({@link #NONE}: rooms live in memory only).
 */
public interface Store extends AutoCloseable {

    /** Rooms kept in memory only: nothing survives a restart. */
    Store NONE = new Store() {
        @Override
        public List<StoredRoom> loadRooms(int newestPerRoom) {
            return List.of();
        }

        @Override
        public RoomJournal journal(String roomJid, Consumer<OutgoingStanza> outbox) {
            return RoomJournal.memoryOnly(outbox);
        }

        @Override
        public void query(String roomJid, ArchiveQuery query, Consumer<ArchiveQuery.Page> result,
                          Consumer<Exception> failure) {
            failure.accept(new UnsupportedOperationException("no store"));
        }

        @Override
        public StoreStats stats() {
            return StoreStats.NONE;
        }

        @Override
        public String describe() {
            return StoreLocation.NONE.display();
        }

        @Override
        public void commitQueued() {
        }

        @Override
        public void close() {
        }
    };

    /**
     * Opens (creating if needed) the store at {@code location}; rooms may hold up to
     * {@code maxHeldChars} of stanzas for commits before they wait.
     */
    static Store open(StoreLocation location, long maxHeldChars) throws StoreException {
        return location.kind() == StoreLocation.Kind.NONE ? NONE : JdbcStore.open(location, maxHeldChars, true);
    }

    /**
     * The same store without threads: writes are committed by {@link #commitQueued()} and queries
     * answered on the caller's thread. For deterministic tests and the benchmark.
     */
    static Store openWithoutThreads(StoreLocation location) throws StoreException {
        return location.kind() == StoreLocation.Kind.NONE ? NONE : JdbcStore.open(location, Long.MAX_VALUE, false);
    }

    /** Commits what is queued now, on this thread (a store opened {@link #openWithoutThreads without threads}). */
    void commitQueued();

    /** Every persistent room, with its newest {@code newestPerRoom} messages. */
    List<StoredRoom> loadRooms(int newestPerRoom) throws StoreException;

    /** The journal of one room; {@code outbox} is where its stanzas go once they may. */
    RoomJournal journal(String roomJid, Consumer<OutgoingStanza> outbox);

    /**
     * Runs an archive query away from the caller's thread; exactly one callback runs, on the
     * store's reader thread (an {@link ArchiveQuery.UnknownIdException} for an unknown id).
     */
    void query(String roomJid, ArchiveQuery query, Consumer<ArchiveQuery.Page> result, Consumer<Exception> failure);

    StoreStats stats();

    /** What and where, for the log (no passwords). */
    String describe();

    /** Commits what is queued (bounded wait) and closes the database. */
    @Override
    void close();
}
