package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.List;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.CompactItem;

/** Aggregation {@code compact} (reconmuc.md §5.9 rule 7): one batch of compact items, each the entry's cached item. */
final class CompactFlush implements FlushForm {

    @Override
    public void send(Room room, Occupant occupant, List<History.Entry> entries) {
        room.output().batch(occupant, Batch.compact(items(room, entries)), null);
        room.context().counters().batchSent(entries.size());
    }

    static List<CompactItem> items(Room room, List<History.Entry> entries) {
        List<CompactItem> items = new ArrayList<>(entries.size());
        for (History.Entry e : entries) {
            items.add(room.history().compactItem(e));
        }
        return items;
    }
}
