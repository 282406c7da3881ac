package org.reconmuc.joom.model;

/** How a message reached this client. */
public enum Arrival {
    /** At once, as the room received it. */
    LIVE,
    /** Retained by the room and delivered later in a batch: shown with a "delayed" mark. */
    BATCHED,
    /** Discussion history sent on joining the room. */
    HISTORY
}
