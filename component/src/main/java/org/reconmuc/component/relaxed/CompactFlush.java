package org.reconmuc.component.relaxed;

import java.util.ArrayList;
import java.util.List;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.CompactItem;

/**
 * Aggregations {@code compact} and {@code compact-live} (reconmuc.md §5.9 rules 7 and 8.6): one
 * batch of compact items, each the entry's cached item.
 */
final class CompactFlush<O extends Recipient<O>> implements FlushForm<O> {

    @Override
    public void send(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries) {
        send(room, occupant, entries, false);
    }

    /**
     * Sends these entries as one compact batch; when {@code live}, the last is a message sent at
     * once (§5.9 rule 8.6) and the others are what was retained, carried along.
     */
    void send(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries, boolean live) {
        room.send(occupant, FlushForm.batchMessage(room.roomJid(), Batch.compact(items(room.log(), entries), live), null));
        int retained = live ? entries.size() - 1 : entries.size();
        if (retained > 0) {
            room.counters().batchSent(retained);
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
