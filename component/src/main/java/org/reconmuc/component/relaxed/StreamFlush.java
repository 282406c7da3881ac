package org.reconmuc.component.relaxed;

import java.util.List;
import java.util.function.Supplier;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.BatchEncoding;
import org.reconmuc.codec.batch.CompactItem;
import org.reconmuc.component.jid.RealJid;

/**
 * Aggregations {@code compact-deflate} and {@code compact-deflate-live} (reconmuc.md §5.9 rules 8
 * and 8.7): the compact items in each session's own deflate stream, so each session gets a batch
 * of its own, in the stream's encoding.
 */
final class StreamFlush<O extends Recipient<O>> implements FlushForm<O> {
    private final Supplier<DeflateStreams> streams;
    private final BatchEncoding encoding;

    /** Flushes in {@code encoding}: {@link BatchEncoding#DEFLATE_STREAM} or {@link BatchEncoding#DEFLATE_LIVE}, in the room's {@code streams}. */
    StreamFlush(Supplier<DeflateStreams> streams, BatchEncoding encoding) {
        this.streams = streams;
        this.encoding = encoding;
    }

    @Override
    public void send(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries) {
        send(room, occupant, entries, false);
    }

    @Override
    public void sendLive(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries) {
        send(room, occupant, entries, true);
    }

    private void send(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries, boolean live) {
        List<CompactItem> items = CompactFlush.items(room.log(), entries);
        byte[] payload = Batch.streamPayload(items, encoding, live);
        for (RealJid session : occupant.sessions()) {
            String batch = streams.get().batch(session, entries, items, payload, encoding, live, room.log());
            room.send(session, FlushForm.batchMessage(room.roomJid(), batch, null));
        }
        FlushForm.countBatch(room, entries, live);
    }
}
