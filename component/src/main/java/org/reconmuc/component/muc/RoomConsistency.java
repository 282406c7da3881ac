package org.reconmuc.component.muc;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.ConsistencyEngine;
import org.reconmuc.component.consistency.Delivery;
import org.reconmuc.component.consistency.Requirements;

/**
 * Relaxed consistency in a room (xep-spec/reconmuc.md): who is in standard mode, the
 * {@link ConsistencyEngine} that holds every relaxed occupant's retained pointers, and the
 * sessions' deflate streams. It only holds and changes that state: messages go out through the
 * room's {@link RoomFanout}, requirements are handled by its {@link RoomRequirements}, both of which
 * use it. Standard occupants never touch the engine.
 */
final class RoomConsistency {
    private final Room room;
    private final ConsistencyEngine<Occupant> engine;
    /** Occupants that stated no requirements: they get every message at once. */
    private final Set<Occupant> standard = new LinkedHashSet<>();
    /** The sessions' deflate streams (aggregation compact-deflate). */
    private final DeflateStreams streams = new DeflateStreams();
    /** The aggregation of occupants returning to standard mode, for their final flush. */
    private final Map<Occupant, Aggregation> leavingRelaxedMode = new HashMap<>();

    RoomConsistency(Room room, int historyCapacity) {
        this.room = room;
        this.engine = new ConsistencyEngine<>(historyCapacity);
    }

    ConsistencyEngine<Occupant> engine() {
        return engine;
    }

    DeflateStreams streams() {
        return streams;
    }

    Set<Occupant> standardOccupants() {
        return standard;
    }

    /** The form an occupant's flushes take (its last one, while it returns to standard). */
    Aggregation aggregationOf(Occupant o) {
        return o.reader() != null ? o.reader().requirements().aggregation()
                : leavingRelaxedMode.getOrDefault(o, Aggregation.PLAIN);
    }

    void joined(Occupant occupant) {
        standard.add(occupant);
    }

    /**
     * Someone entered the room (a new occupant, or another session of one): every deflate stream
     * starts anew, so no stream holds text from before the newcomer came that it could probe by
     * compression (reconmuc.md §8.1).
     */
    void entered() {
        streams.resetAll();
    }

    /** The occupant left (or was removed): its retained state is dropped. */
    void left(Occupant occupant) {
        standard.remove(occupant);
        streams.forgetAllBut(session -> room.occupantBySession(session) != null);
        if (occupant.reader() != null) {
            engine.remove(occupant.reader());
            occupant.setReader(null);
            room.context().counters().relaxed(-1);
        }
    }

    /** Opts the occupant in with these requirements, or changes them; what that releases goes to {@code out}. */
    void relax(Occupant occupant, Requirements next, List<Delivery<Occupant>> out) {
        if (occupant.reader() == null) {
            occupant.setReader(engine.relax(occupant, next));
            standard.remove(occupant);
            room.context().counters().relaxed(1);
        } else {
            engine.update(occupant.reader(), next, room.now().toEpochMilli(), out);
        }
    }

    /** Back to standard MUC: what was retained is flushed (in its last form) into {@code out}. */
    void returnToStandard(Occupant occupant, List<Delivery<Occupant>> out) {
        if (occupant.reader() != null) {
            leavingRelaxedMode.put(occupant, occupant.reader().requirements().aggregation());
            engine.standard(occupant.reader(), out);
            occupant.setReader(null);
            standard.add(occupant);
            room.context().counters().relaxed(-1);
        }
    }

    /** The final flushes of occupants that returned to standard have gone out. */
    void leftRelaxedMode() {
        leavingRelaxedMode.clear();
    }

    /** A restored room: its log holds messages up to {@code head}; new readers start after it. */
    void restoredUpTo(long head) {
        engine.startAfter(head);
    }

    int historyCapacity() {
        return engine.capacity();
    }
}
