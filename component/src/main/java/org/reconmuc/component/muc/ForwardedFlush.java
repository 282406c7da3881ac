package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.List;
import org.reconmuc.codec.batch.Batch;

/**
 * Aggregations {@code plain} and {@code deflate} (reconmuc.md §5.9 rules 2 and 3): one batch of
 * XEP-0297 items, each the entry's cached text, deflated on its own for {@code deflate}.
 */
final class ForwardedFlush implements FlushForm {
    private static final int DEFLATE_LEVEL = 6;
    private final boolean deflate;

    ForwardedFlush(boolean deflate) {
        this.deflate = deflate;
    }

    @Override
    public void send(Room room, Occupant occupant, List<History.Entry> entries) {
        String roomJid = room.jid().toString();
        List<String> items = new ArrayList<>(entries.size());
        for (History.Entry e : entries) {
            items.add(e.forwardedXml(roomJid));
        }
        String batch = deflate ? Batch.deflate(items, DEFLATE_LEVEL) : Batch.plain(items);
        room.output().batch(occupant, batch, room.ids().messageId());
        room.context().counters().batchSent(items.size());
    }
}
