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
        send(room, occupant, entries, false);
    }

    /**
     * Sends these entries in each session's stream; when {@code live}, the last is a message sent
     * at once (§5.9 rule 8.6) and the others are what was retained, carried along.
     */
    void send(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries, boolean live) {
        List<CompactItem> items = CompactFlush.items(room.log(), entries);
        byte[] payload = Batch.compactStreamPayload(items, live);
        for (RealJid session : occupant.sessions()) {
            String batch = streams.batch(session, entries, items, payload, live, room.log());
            room.send(session, FlushForm.batchMessage(room.roomJid(), batch, null));
        }
        int retained = live ? entries.size() - 1 : entries.size();
        if (retained > 0) {
            room.counters().batchSent(retained);
        }
    }
}
