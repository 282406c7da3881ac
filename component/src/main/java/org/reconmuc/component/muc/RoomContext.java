package org.reconmuc.component.muc;

import java.time.Clock;
import org.reconmuc.component.config.ServiceConfig;

/** What a room needs from its service: settings, time, a way out, and a way to be forgotten. */
interface RoomContext {
    ServiceConfig config();

    Clock clock();

    Outbox outbox();

    /** Runs {@code task} on the room's own thread after {@code delayMillis}. */
    void schedule(long delayMillis, Runnable task);

    /** The room has no occupants and is temporary, or was destroyed: drop it (idempotent). */
    void discard(Room room);

    /** The service's counters, for an operator. */
    MucCounters counters();
}
