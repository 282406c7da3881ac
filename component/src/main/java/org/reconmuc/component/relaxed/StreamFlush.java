package org.reconmuc.component.relaxed;

import java.util.List;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.CompactItem;
import org.reconmuc.component.jid.RealJid;

/**
 * Aggregation {@code compact-deflate} (reconmuc.md §5.9 rule 8): the compact items in each
 * session's own deflate stream, so each session gets a batch of its own.
 */
final class StreamFlush<O extends Recipient<O>> implements FlushForm<O> {
    private final DeflateStreams streams;

    StreamFlush(DeflateStreams streams) {
        this.streams = streams;
    }

    @Override
    public void send(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries) {
        List<CompactItem> items = CompactFlush.items(room.log(), entries);
        byte[] payload = Batch.compactStreamPayload(items);
        for (RealJid session : occupant.sessions()) {
            String batch = streams.batch(session, entries, items, payload, room.log());
            room.send(session, FlushForm.batchMessage(room.roomJid(), batch, null));
        }
        room.counters().batchSent(entries.size());
    }
}
