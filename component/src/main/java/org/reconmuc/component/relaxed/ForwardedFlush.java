package org.reconmuc.component.relaxed;

import java.util.ArrayList;
import java.util.List;
import org.reconmuc.codec.batch.Batch;

/**
 * Aggregations {@code plain} and {@code deflate} (reconmuc.md §5.9 rules 2 and 3): one batch of
 * XEP-0297 items, each the entry's cached text, deflated on its own for {@code deflate}.
 */
final class ForwardedFlush<O extends Recipient<O>> implements ShareableFlush<O> {
    private static final int DEFLATE_LEVEL = 6;
    private final boolean deflate;

    ForwardedFlush(boolean deflate) {
        this.deflate = deflate;
    }

    @Override
    public void sendToAll(FanoutHost<O> room, List<O> occupants, List<MessageLog.Entry<O>> entries) {
        String roomJid = room.roomJid();
        List<String> items = new ArrayList<>(entries.size());
        for (MessageLog.Entry<O> e : entries) {
            items.add(e.forwardedXml(roomJid));
        }
        String batch = deflate ? Batch.deflate(items, DEFLATE_LEVEL) : Batch.plain(items);
        room.send(occupants, FlushForm.batchMessage(roomJid, batch, room.ids().messageId()));
        for (int i = 0; i < occupants.size(); i++) {
            room.counters().batchSent(items.size());
        }
    }
}
