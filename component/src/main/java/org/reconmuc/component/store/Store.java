package org.reconmuc.component.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.reconmuc.component.config.StoreLocation;
import org.reconmuc.component.transport.Outbox;

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
        public Optional<StoredRoom> loadRoom(String jid, int newest) {
            return Optional.empty();
        }

        @Override
        public StoredOccupants occupants(String room) {
            return StoredOccupants.NONE;
        }

        @Override
        public Map<String, String> listedRooms() {
            return Map.of();
        }

        @Override
        public LeaseStore leases(String instance) {
            throw new UnsupportedOperationException("several instances need a shared database (--store jdbc:postgresql:…)");
        }

        @Override
        public RoomJournal journal(String roomJid, Outbox outbox) {
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
     * The store as one of several instances of the service: its writes are fenced by
     * {@code instance}'s leases ({@link #leases}).
     */
    static Store openFenced(StoreLocation location, long maxHeldChars, String instance) throws StoreException {
        if (location.kind() == StoreLocation.Kind.NONE) {
            throw new StoreException("several instances need a shared database (--store jdbc:postgresql:…), not 'none'", null);
        }
        return JdbcStore.open(location, maxHeldChars, true, instance);
    }

    /** The same store fenced by {@code instance}, without threads (deterministic tests). */
    static Store openFencedWithoutThreads(StoreLocation location, String instance) throws StoreException {
        return JdbcStore.open(location, Long.MAX_VALUE, false, instance);
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

    /** One persistent room with its newest {@code newest} messages, if the store has it. */
    Optional<StoredRoom> loadRoom(String jid, int newest) throws StoreException;

    /** Who was last known in {@code room}, and with what state, as written by fenced journals. */
    StoredOccupants occupants(String room) throws StoreException;

    /** The rooms listed by any instance (fenced journals' {@link RoomJournal#listing}): room JID to name, by JID. */
    Map<String, String> listedRooms() throws StoreException;

    /** Room ownership for {@code instance} in this store's database ({@link RoomLeases}). */
    LeaseStore leases(String instance);

    /** The journal of one room; {@code outbox} is where its stanzas go once they may. */
    RoomJournal journal(String roomJid, Outbox outbox);

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
