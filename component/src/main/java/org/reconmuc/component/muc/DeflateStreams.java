package org.reconmuc.component.muc;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.CompactItem;
import org.reconmuc.codec.batch.DeflateStream;
import org.reconmuc.component.jid.RealJid;

/**
 * The deflate streams of a room's sessions (aggregation {@code compact-deflate}, reconmuc.md §5.9
 * rule 8): one per session, made on its first batch, started anew when the occupant changes its
 * requirements or anyone enters the room, dropped when it leaves. One compressor serves them all
 * (the room runs on one thread at a time); each stream keeps only its last 32 KiB.
 */
final class DeflateStreams {
    private static final int LEVEL = 6;

    private final Map<RealJid, DeflateStream> bySession = new HashMap<>();
    private Deflater deflater;

    /** The next batch of {@code session}'s stream, holding these items. */
    String batch(RealJid session, List<CompactItem> items) {
        if (deflater == null) {
            deflater = new Deflater(LEVEL, true);
        }
        return Batch.compactDeflateStream(items, bySession.computeIfAbsent(session, s -> new DeflateStream()), deflater);
    }

    /** These sessions' next batches start new streams. */
    void reset(List<RealJid> sessions) {
        for (RealJid s : sessions) {
            DeflateStream stream = bySession.get(s);
            if (stream != null) {
                stream.reset();
            }
        }
    }

    void resetAll() {
        bySession.values().forEach(DeflateStream::reset);
    }

    /** Drops the streams of sessions that are gone. */
    void forgetAllBut(java.util.function.Predicate<RealJid> present) {
        bySession.keySet().removeIf(present.negate());
    }

    /** Streams held (for tests). */
    int size() {
        return bySession.size();
    }
}
