package org.reconmuc.benchmarks;

/**
 * What the engine is parameterised with in these benchmarks: the room's handle for an occupant
 * (the real {@code muc.Occupant} is package-private to the room). Kept tiny, and left out of
 * the footprint report, which counts only what the engine adds per occupant.
 */
public final class Occupant {
    final int index;
    final String nick;
    /** The one session the room sends to (a full JID, as {@code packet.setTo} gets it). */
    final String session;

    Occupant(int index) {
        this.index = index;
        this.nick = "user" + index;
        this.session = "user" + index + "@example.org/laptop";
    }

    @Override
    public String toString() {
        return nick;
    }
}
