package org.reconmuc.component.relaxed;

import java.util.ArrayList;
import java.util.List;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.CompactItem;

/**
 * Aggregations {@code compact} and {@code compact-live} (reconmuc.md §5.9 rules 7 and 8.6): one
 * batch of compact items, each the entry's cached item.
 */
final class CompactFlush<O extends Recipient<O>> implements ShareableFlush<O> {

    @Override
    public void sendToAll(FanoutHost<O> room, List<O> occupants, List<MessageLog.Entry<O>> entries) {
        send(room, occupants, entries, false);
    }

    @Override
    public void sendLive(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries) {
        send(room, List.of(occupant), entries, true);
    }

    private void send(FanoutHost<O> room, List<O> occupants, List<MessageLog.Entry<O>> entries, boolean live) {
        room.send(occupants, FlushForm.batchMessage(room.roomJid(), Batch.compact(items(room.log(), entries), live), null));
        for (int i = 0; i < occupants.size(); i++) {
            FlushForm.countBatch(room, entries, live);
        }
    }

    static <O> List<CompactItem> items(MessageLog<O> log, List<MessageLog.Entry<O>> entries) {
        List<CompactItem> items = new ArrayList<>(entries.size());
        for (MessageLog.Entry<O> e : entries) {
            items.add(log.compactItem(e));
        }
        return items;
    }
}
