package org.reconmuc.component.muc;

import java.util.List;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.CompactItem;
import org.reconmuc.component.jid.RealJid;

/**
 * Aggregation {@code compact-deflate} (reconmuc.md §5.9 rule 8): the compact items in each
 * session's own deflate stream, so each session gets a batch of its own.
 */
final class StreamFlush implements FlushForm {
    private final DeflateStreams streams;

    StreamFlush(DeflateStreams streams) {
        this.streams = streams;
    }

    @Override
    public void send(Room room, Occupant occupant, List<History.Entry> entries) {
        List<CompactItem> items = CompactFlush.items(room, entries);
        byte[] payload = Batch.compactStreamPayload(items);
        for (RealJid session : occupant.sessions()) {
            room.output().batch(session, streams.batch(session, entries, items, payload, room.history()));
        }
        room.context().counters().batchSent(entries.size());
    }
}
