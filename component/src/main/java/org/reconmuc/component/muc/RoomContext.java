package org.reconmuc.component.muc;

import java.time.Clock;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.relaxed.RelaxedCounters;
import org.reconmuc.component.store.RoomJournal;
import org.reconmuc.component.store.Store;

/** What a room needs from its service: settings, time, a way out, and a way to be forgotten. */
interface RoomContext {
    ServiceConfig config();

    Clock clock();

    /** The room's writes to the store, and the gate its stanzas pass: the room's outbox. */
    RoomJournal journal();

    /** The store (archive queries of persistent rooms). */
    Store store();

    /** Runs {@code task} on the room's own thread after {@code delayMillis}. */
    void schedule(long delayMillis, Runnable task);

    /** The room has no occupants and is temporary, or was destroyed: drop it (idempotent). */
    void discard(Room room);

    /** The service's pipeline: the handlers of every room's features, and its options ({@link RoomEvents}). */
    RoomEvents events();

    /** The service's counters, for an operator. */
    RelaxedCounters counters();

    /**
     * {@code creator}'s join is creating this room (it did not exist, and was not restored from
     * the store): null if they may create it, and from now on it counts as one of theirs; else
     * the text of the {@code not-allowed} error they get (XEP-0045 §10.1.1).
     */
    String admitCreation(Room room, RealJid creator);

}
