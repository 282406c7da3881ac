package org.reconmuc.component.muc;

import org.reconmuc.component.jid.RoomJid;

/**
 * Which rooms this instance may serve when several instances of the service share a domain
 * (a lease per room in the shared store, {@code store.RoomLeases}). The service asks before it
 * serves a room it does not hold, and gives rooms back when their stanzas no longer reach it.
 */
public interface RoomOwnership {
    /**
     * Waits, bounded, until this instance holds {@code room}; returns the lease's epoch, or 0 if
     * another instance kept it. Called on the room's thread.
     */
    long claim(RoomJid room) throws InterruptedException;

    /** Gives {@code room} back (if it is still ours at {@code epoch}). */
    void release(RoomJid room, long epoch);
}
