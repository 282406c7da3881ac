package org.reconmuc.component.muc;

import java.util.List;

/** Aggregation {@code none} (reconmuc.md §5.9 rule 4): each message on its own, as broadcast, with its delay. */
final class OneByOneFlush implements FlushForm {

    @Override
    public void send(Room room, Occupant occupant, List<History.Entry> entries) {
        for (History.Entry e : entries) {
            room.output().toOccupant(occupant, room.delayed(e));
            room.context().counters().delayedSent();
        }
    }
}
