package org.reconmuc.component.relaxed;

import java.util.ArrayList;
import java.util.List;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.CompactItem;

/** Aggregation {@code compact} (reconmuc.md §5.9 rule 7): one batch of compact items, each the entry's cached item. */
final class CompactFlush<O extends Recipient<O>> implements FlushForm<O> {

    @Override
    public void send(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries) {
        room.send(occupant, FlushForm.batchMessage(room.roomJid(), Batch.compact(items(room.log(), entries)), null));
        room.counters().batchSent(entries.size());
    }

    static <O> List<CompactItem> items(MessageLog<O> log, List<MessageLog.Entry<O>> entries) {
        List<CompactItem> items = new ArrayList<>(entries.size());
        for (MessageLog.Entry<O> e : entries) {
            items.add(log.compactItem(e));
        }
        return items;
    }
}
