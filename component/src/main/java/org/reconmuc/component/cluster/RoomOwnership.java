package org.reconmuc.component.cluster;

import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.store.LeaseStore;

/**
 * Which rooms this instance may serve when several instances of the service share a domain
 * (a lease per room in the shared store, {@link LeaseStore}). The service asks before it
 * serves a room it does not hold, and gives rooms back when their stanzas no longer reach it.
 */
public interface RoomOwnership {
    /**
     * Asks for {@code room}; {@code decided} gets the lease's epoch once this instance holds it,
     * or 0 if another instance kept it past a bounded wait. Never calls back on the caller's
     * thread: a claim that waits holds up no room.
     */
    void claim(RoomJid room, java.util.function.LongConsumer decided);

    /** Gives {@code room} back (if it is still ours at {@code epoch}). */
    void release(RoomJid room, long epoch);

    /** {@code room} is no longer in memory here (whatever became of its lease). */
    void forgotten(RoomJid room);

    /**
     * Whether what the rooms send leaves now; false while it waits for a renewal to say which
     * rooms are still ours (it may yet be dropped): a delivery position counts only what left.
     */
    default boolean sending() {
        return true;
    }
}
