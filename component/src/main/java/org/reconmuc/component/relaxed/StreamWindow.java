package org.reconmuc.component.relaxed;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.BatchEncoding;
import org.reconmuc.codec.batch.CompactItem;
import org.reconmuc.codec.batch.DeflateStream;

/**
 * What one session's deflate stream (reconmuc.md §5.9 rule 8) has sent, as pointers into the
 * room's history rather than a copy of the bytes: the sequence numbers of each batch's items and
 * the length of its payload, for the newest batches that cover the DEFLATE window. The
 * dictionary for the next batch is rendered again from the history's cached compact items
 * ({@link #dictionary}); a batch whose items have left the history no longer counts, so the
 * dictionary is only ever a suffix of what the receiver holds — shorter, never different.
 *
 * <p>A batch's sequence numbers are kept as runs of consecutive numbers (a flush sends
 * everything retained since the last, so runs are long), as varints: a few dozen bytes per
 * session where a copy of the window took 32 KiB.
 */
final class StreamWindow {
    private static final byte[] EMPTY = new byte[0];

    /** How many bytes of what the stream sent the dictionary holds (the DEFLATE window, or less). */
    private final int windowBytes;

    /** The number of the last batch since the stream (re)started; 0: the next one starts it. */
    private int batches;
    /** The sequence number the first gap of the oldest batch kept counts from. */
    private long base;
    /**
     * The batches kept, oldest first, each as varints: its payload's length (shifted left by two,
     * bit 1 set in a live stream, {@link BatchEncoding#DEFLATE_LIVE}, bit 0 when its last item was
     * live), its number of runs, then per run the gap since the previous run's last number and the
     * run's length.
     */
    private byte[] code = EMPTY;
    /** Payload bytes of the batches kept. */
    private int bytes;

    /** One batch as decoded: its sequence numbers, its payload's length, its encoding, whether its last item was live. */
    private record Sent(long[] seqs, int payloadBytes, BatchEncoding encoding, boolean live) {
    }

    StreamWindow(int windowBytes) {
        if (windowBytes < 0 || windowBytes > DeflateStream.WINDOW) {
            throw new IllegalArgumentException("a window of 0 to " + DeflateStream.WINDOW + " bytes");
        }
        this.windowBytes = windowBytes;
    }

    /** The next batch starts a new stream (number 1, referring to nothing before it). */
    void reset() {
        batches = 0;
        code = EMPTY;
        bytes = 0;
    }

    /** Batches sent since the stream (re)started. */
    int batches() {
        return batches;
    }

    /**
     * The oldest message the kept batches hold — the oldest the stream may still refer to (its
     * last 32 KiB lie in those batches) — or {@link Long#MAX_VALUE} when it keeps none.
     */
    long oldestSeq() {
        return code.length == 0 ? Long.MAX_VALUE : base + 1;   // the base sits just before it (canonical)
    }

    /** Bytes this window holds for its pointers (for the footprint report and tests). */
    int codeBytes() {
        return code.length;
    }

    /**
     * The dictionary for the next batch: the end of what this stream sent, rendered again from
     * {@code log}, at most its window's bytes; empty for a new stream.
     */
    byte[] dictionary(MessageLog<?> log) {
        List<Sent> sent = decode();
        int first = sent.size();
        int needed = 0;
        while (first > 0 && needed < windowBytes) {
            needed += sent.get(--first).payloadBytes();
        }
        List<byte[]> payloads = new ArrayList<>();
        for (int i = sent.size() - 1; i >= first; i--) {
            byte[] payload = payloadOf(sent.get(i), log);
            if (payload == null) {
                break;   // this batch and every older one are no longer available
            }
            payloads.add(payload);
        }
        int length = 0;
        for (byte[] p : payloads) {
            length += p.length;
        }
        byte[] dictionary = new byte[Math.min(length, windowBytes)];
        int end = dictionary.length;
        for (byte[] p : payloads) {   // newest first, filling the dictionary from its end
            int n = Math.min(p.length, end);
            System.arraycopy(p, p.length - n, dictionary, end - n, n);
            end -= n;
            if (end == 0) {
                break;
            }
        }
        return dictionary;
    }

    /** The batch's payload rendered again, or null if an item left the history (or it would differ). */
    private static byte[] payloadOf(Sent batch, MessageLog<?> log) {
        List<CompactItem> items = new ArrayList<>(batch.seqs().length);
        for (long seq : batch.seqs()) {
            CompactItem item = log.compactItem(seq);
            if (item == null) {
                return null;
            }
            items.add(item);
        }
        byte[] payload = Batch.streamPayload(items, batch.encoding(), batch.live());
        return payload.length == batch.payloadBytes() ? payload : null;
    }

    /**
     * A batch of these items (increasing sequence numbers), whose payload in {@code encoding} was
     * {@code payloadBytes} long and whose last item was {@code live} or not, was sent in this
     * stream: returns its number in the stream.
     */
    int sent(long[] seqs, int payloadBytes, BatchEncoding encoding, boolean live) {
        if (code.length == 0) {
            base = seqs[0] - 1;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(code.length + 16);
        out.write(code, 0, code.length);
        writeVarint(out, (long) payloadBytes << 2 | (encoding == BatchEncoding.DEFLATE_LIVE ? 2 : 0) | (live ? 1 : 0));
        int runs = 1;
        for (int i = 1; i < seqs.length; i++) {
            if (seqs[i] != seqs[i - 1] + 1) {
                runs++;
            }
        }
        writeVarint(out, runs);
        long previous = lastSeq();
        for (int i = 0; i < seqs.length; ) {
            int j = i;
            while (j + 1 < seqs.length && seqs[j + 1] == seqs[j] + 1) {
                j++;
            }
            writeVarint(out, seqs[i] - previous - 1);
            writeVarint(out, j - i + 1);
            previous = seqs[j];
            i = j + 1;
        }
        code = out.toByteArray();
        bytes += payloadBytes;
        dropBatchesOutsideTheWindow();
        return ++batches;
    }

    /**
     * The batches this window keeps, in a few bytes: equal for two windows exactly when they render
     * the same {@link #dictionary} from the same history — so a batch compressed against one's
     * inflates in the other's stream too, whatever either sent before what they keep.
     */
    byte[] contents() {
        if (code.length == 0) {
            return EMPTY;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(code.length + 10);
        writeVarint(out, base);
        out.write(code, 0, code.length);
        return out.toByteArray();
    }

    /** Drops the oldest batches that the window no longer reaches. */
    private void dropBatchesOutsideTheWindow() {
        int[] at = {0};
        while (at[0] < code.length) {
            int start = at[0];
            int payloadBytes = (int) (readVarint(code, at) >>> 2);
            if (bytes - payloadBytes < windowBytes) {
                at[0] = start;
                break;
            }
            long runs = readVarint(code, at);
            for (long r = 0; r < runs; r++) {
                base += readVarint(code, at) + readVarint(code, at);
            }
            bytes -= payloadBytes;
        }
        if (at[0] > 0) {
            code = canonical(Arrays.copyOfRange(code, at[0], code.length));
        }
    }

    /**
     * The kept batches with the base moved up to just before their first number (that first gap
     * 0): two windows that have come to keep the same batches then hold the same bytes, however
     * their older batches differed, so their {@link #contents} are alike.
     */
    private byte[] canonical(byte[] kept) {
        if (kept.length == 0) {
            return kept;
        }
        int[] at = {0};
        readVarint(kept, at);   // the first batch's payload length and flags
        readVarint(kept, at);   // its runs
        int gapAt = at[0];
        long gap = readVarint(kept, at);
        if (gap == 0) {
            return kept;
        }
        base += gap;
        byte[] moved = new byte[kept.length - (at[0] - gapAt) + 1];
        System.arraycopy(kept, 0, moved, 0, gapAt);
        moved[gapAt] = 0;
        System.arraycopy(kept, at[0], moved, gapAt + 1, kept.length - at[0]);
        return moved;
    }

    /** The last sequence number sent in this stream (the base if nothing is kept). */
    private long lastSeq() {
        long last = base;
        for (Sent s : decode()) {
            last = s.seqs()[s.seqs().length - 1];
        }
        return last;
    }

    private List<Sent> decode() {
        List<Sent> sent = new ArrayList<>();
        int[] at = {0};
        long previous = base;
        while (at[0] < code.length) {
            long head = readVarint(code, at);
            int payloadBytes = (int) (head >>> 2);
            long runs = readVarint(code, at);
            long[][] runSeqs = new long[(int) runs][];
            int count = 0;
            for (int r = 0; r < runs; r++) {
                long start = previous + readVarint(code, at) + 1;
                int length = (int) readVarint(code, at);
                runSeqs[r] = new long[] {start, length};
                count += length;
                previous = start + length - 1;
            }
            long[] seqs = new long[count];
            int k = 0;
            for (long[] run : runSeqs) {
                for (int i = 0; i < run[1]; i++) {
                    seqs[k++] = run[0] + i;
                }
            }
            sent.add(new Sent(seqs, payloadBytes, (head & 2) != 0 ? BatchEncoding.DEFLATE_LIVE : BatchEncoding.DEFLATE_STREAM,
                    (head & 1) != 0));
        }
        return sent;
    }

    private static void writeVarint(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    private static long readVarint(byte[] in, int[] at) {
        long value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = in[at[0]++];
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
    }
}
