package org.reconmuc.component.relaxed;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.BatchEncoding;
import org.reconmuc.codec.batch.CompactItem;
import org.reconmuc.codec.batch.DeflateStream;
import org.reconmuc.component.jid.RealJid;

/**
 * The deflate streams of a room's sessions (aggregation {@code compact-deflate}, reconmuc.md §5.9
 * rule 8): one per session, made on its first batch, started anew when the occupant changes its
 * requirements or anyone enters the room, dropped when it leaves. A stream is a
 * {@link StreamWindow} — pointers to what it sent — and one compressor serves them all (the room
 * runs on one thread at a time), primed for each batch with the dictionary its window renders.
 */
public final class DeflateStreams {
    private static final int LEVEL = 6;

    private final Map<RealJid, StreamWindow> bySession = new HashMap<>();
    private final int windowBytes;
    private Deflater deflater;

    /** Streams whose dictionaries are the whole DEFLATE window (32 KiB), as the service runs them. */
    public DeflateStreams() {
        this(DeflateStream.WINDOW);
    }

    /**
     * Streams whose dictionaries hold at most {@code windowBytes} of what they sent (0 to 32 KiB):
     * fewer bytes to render per batch and fewer pointers kept, for larger batches (the benchmarks
     * weigh the two).
     */
    public DeflateStreams(int windowBytes) {
        this.windowBytes = windowBytes;
    }

    /**
     * The next batch of {@code session}'s stream, in {@code encoding}: {@code entries} as their
     * compact {@code items}, whose stream payload ({@link Batch#streamPayload}, the last item live
     * when {@code live}) is {@code payload}.
     */
    String batch(RealJid session, List<? extends MessageLog.Entry<?>> entries, List<CompactItem> items, byte[] payload,
            BatchEncoding encoding, boolean live, MessageLog<?> log) {
        if (deflater == null) {
            deflater = new Deflater(LEVEL, true);
        }
        StreamWindow window = bySession.computeIfAbsent(session, s -> new StreamWindow(windowBytes));
        byte[] compressed = DeflateStream.compress(payload, window.dictionary(log), deflater);
        long[] seqs = new long[entries.size()];
        for (int i = 0; i < seqs.length; i++) {
            seqs[i] = entries.get(i).seq();
        }
        int n = window.sent(seqs, payload.length, encoding, live);
        return Batch.streamBatch(encoding, items, payload, new DeflateStream.Chunk(n, compressed));
    }

    /** These sessions' next batches start new streams. */
    void reset(Collection<RealJid> sessions) {
        for (RealJid s : sessions) {
            StreamWindow window = bySession.get(s);
            if (window != null) {
                window.reset();
            }
        }
    }

    void resetAll() {
        bySession.values().forEach(StreamWindow::reset);
    }

    /** Drops the streams of sessions that left. */
    void forget(Collection<RealJid> sessions) {
        for (RealJid s : sessions) {
            bySession.remove(s);
        }
    }

    /** Streams held (for tests). */
    int size() {
        return bySession.size();
    }

    /** Bytes of pointers the sessions' windows hold, all together (for the benchmarks). */
    public long pointerBytes() {
        long n = 0;
        for (StreamWindow w : bySession.values()) {
            n += w.codeBytes();
        }
        return n;
    }

    /** The window of a session's stream, or null (for tests). */
    StreamWindow windowOf(RealJid session) {
        return bySession.get(session);
    }
}
