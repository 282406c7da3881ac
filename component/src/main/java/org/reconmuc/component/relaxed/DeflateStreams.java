package org.reconmuc.component.relaxed;

import java.util.Arrays;
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
 * requirements, when the room's configuration changes, and when someone enters who could not
 * read in the room's archive a message it may still refer to; dropped when it leaves. A stream is a
 * {@link StreamWindow} — pointers to what it sent — and one compressor serves them all (the room
 * runs on one thread at a time), primed for each batch with the dictionary its window renders —
 * once per turn for every stream whose window keeps the same batches ({@link #turnEnded}).
 */
public final class DeflateStreams {
    private static final int LEVEL = 6;
    /**
     * The most compressions a turn keeps for sharing: streams alike come in few groups, and a room
     * whose streams all differ should not hold every session's payload until the turn ends.
     */
    static final int SHARED_PER_TURN = 256;

    private final Map<RealJid, StreamWindow> bySession = new HashMap<>();
    private final int windowBytes;
    private Deflater deflater;
    /**
     * The payloads compressed in this turn of the room, by the dictionary their windows render:
     * sessions whose windows keep the same batches — occupants with the same requirements that
     * nothing singled out, a room's lurkers — get the same bytes for the same next batch, so it is
     * compressed once for all of them (the dictionary rendered and the compressor primed once: most
     * of a live stream's cost). Only the batch's number is each stream's own.
     */
    private final Map<Compression, byte[]> compressedThisTurn = new HashMap<>();
    private long compressions;

    /** A window's {@link StreamWindow#contents} and a payload, compared by content (hashed once: looked up, then put). */
    private record Compression(byte[] window, byte[] payload, int hash) {
        Compression(byte[] window, byte[] payload) {
            this(window, payload, 31 * Arrays.hashCode(window) + Arrays.hashCode(payload));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Compression c && hash == c.hash && Arrays.equals(window, c.window)
                    && Arrays.equals(payload, c.payload);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

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
        StreamWindow window = bySession.computeIfAbsent(session, s -> new StreamWindow(windowBytes));
        long[] seqs = new long[entries.size()];
        for (int i = 0; i < seqs.length; i++) {
            seqs[i] = entries.get(i).seq();
        }
        Compression key = new Compression(window.contents(), payload);
        byte[] compressed = compressedThisTurn.get(key);
        if (compressed == null) {
            if (deflater == null) {
                deflater = new Deflater(LEVEL, true);
            }
            compressed = DeflateStream.compress(payload, window.dictionary(log), deflater);
            if (compressedThisTurn.size() < SHARED_PER_TURN) {
                compressedThisTurn.put(key, compressed);
            }
            compressions++;
        }
        int n = window.sent(seqs, payload.length, encoding, live);
        return Batch.streamBatch(encoding, items, payload, new DeflateStream.Chunk(n, compressed));
    }

    /**
     * The room's turn (one message, or one round of flushes) is over: the batches it compressed
     * are let go, so that what a room holds between turns stays the windows' pointers.
     */
    public void turnEnded() {
        compressedThisTurn.clear();
    }

    /** Payloads compressed so far: the session batches beyond them shared another's bytes (for tests and benchmarks). */
    public long compressions() {
        return compressions;
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

    /** Every stream starts anew. */
    public void resetAll() {
        bySession.values().forEach(StreamWindow::reset);
    }

    /** The streams that may still refer to a message numbered below {@code seq} start anew. */
    void resetReferringBefore(long seq) {
        for (StreamWindow window : bySession.values()) {
            if (window.oldestSeq() < seq) {
                window.reset();
            }
        }
    }

    /** Drops the streams of sessions that left. */
    void forget(Collection<RealJid> sessions) {
        for (RealJid s : sessions) {
            bySession.remove(s);
        }
    }

    /** Compressions this turn keeps for sharing (for tests). */
    int sharedThisTurn() {
        return compressedThisTurn.size();
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
