package org.reconmuc.component.muc;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.reconmuc.component.consistency.Aggregation;

/**
 * How a flush or release reaches an occupant (reconmuc.md §5.9): one implementation per
 * aggregation, each rendering the logged entries in its form and sending them to every session.
 */
interface FlushForm {

    /** Sends these entries (room order, still in the log) to every session of {@code occupant}. */
    void send(Room room, Occupant occupant, List<History.Entry> entries);

    /** The forms of a room: the deflate streams are the room's own (one per session). */
    static Map<Aggregation, FlushForm> forRoom(DeflateStreams streams) {
        Map<Aggregation, FlushForm> forms = new EnumMap<>(Aggregation.class);
        forms.put(Aggregation.NONE, new OneByOneFlush());
        forms.put(Aggregation.PLAIN, new ForwardedFlush(false));
        forms.put(Aggregation.DEFLATE, new ForwardedFlush(true));
        forms.put(Aggregation.COMPACT, new CompactFlush());
        forms.put(Aggregation.COMPACT_DEFLATE, new StreamFlush(streams));
        return forms;
    }
}
