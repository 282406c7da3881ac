package org.reconmuc.codec.batch;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * The sending end of one session's {@link BatchEncoding#DEFLATE_STREAM}: a raw DEFLATE stream that
 * runs from batch to batch, so each batch compresses against the ones before it.
 *
 * <p>No compressor is kept between batches — a zlib compressor holds ~256 KiB, too much for every
 * occupant of a big room: {@link #compress} resets a borrowed {@link Deflater}, primes it with the
 * end of what the stream sent as its dictionary, and ends the batch with a sync flush. The
 * receiver's one persistent inflater holds the same bytes as its history, so the concatenated
 * batches inflate as one stream (the sync flush leaves every batch byte-aligned and no block is
 * final). Whoever sends decides how to keep that end: an instance of this class keeps a copy of
 * the last 32 KiB; the service keeps pointers into its room's history instead and renders the
 * dictionary again for each batch.
 */
public final class DeflateStream {
    /** The DEFLATE window: the farthest a back-reference reaches. */
    public static final int WINDOW = 32 * 1024;
    /** The empty stored block a sync flush ends with; not sent (as in RFC 7692 §7.2.1). */
    static final byte[] SYNC_TRAILER = {0, 0, (byte) 0xFF, (byte) 0xFF};

    private byte[] window = new byte[0];
    private int batches;

    /** One batch's compressed bytes, and its number in the stream (1 for the first after a reset). */
    public record Chunk(int n, byte[] bytes) {
    }

    /** Starts a new stream: the next batch is number 1 and refers to nothing before it. */
    public void reset() {
        window = new byte[0];
        batches = 0;
    }

    /** Batches sent since the last reset. */
    public int batches() {
        return batches;
    }

    /**
     * Compresses the next batch's payload with {@code deflater} (raw, i.e. {@code nowrap}; it is
     * reset here, and may be shared by every stream of a thread).
     */
    public Chunk next(byte[] payload, Deflater deflater) {
        byte[] compressed = compress(payload, window, deflater);
        slide(payload);
        return new Chunk(++batches, compressed);
    }

    /**
     * One batch of a stream: {@code payload} compressed as the continuation of a stream whose
     * receiver has {@code dictionary} as the end of its history, ending with a sync flush whose
     * trailer is dropped. The dictionary may be shorter than what the stream really sent (then
     * back-references reach less far; the receiver inflates it all the same), never other bytes.
     */
    public static byte[] compress(byte[] payload, byte[] dictionary, Deflater deflater) {
        deflater.reset();
        if (dictionary.length > 0) {
            deflater.setDictionary(dictionary, Math.max(0, dictionary.length - WINDOW), Math.min(WINDOW, dictionary.length));
        }
        deflater.setInput(payload);
        ByteArrayOutputStream out = new ByteArrayOutputStream(payload.length / 3 + 64);
        byte[] buffer = new byte[8192];
        int n;
        do {
            n = deflater.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH);
            out.write(buffer, 0, n);
        } while (n == buffer.length);
        byte[] all = out.toByteArray();
        if (all.length < SYNC_TRAILER.length
                || !Arrays.equals(all, all.length - SYNC_TRAILER.length, all.length, SYNC_TRAILER, 0, SYNC_TRAILER.length)) {
            throw new IllegalStateException("a sync flush did not end with 00 00 FF FF");
        }
        return Arrays.copyOf(all, all.length - SYNC_TRAILER.length);
    }

    /** The window after {@code payload}: the last {@link #WINDOW} bytes of everything sent. */
    private void slide(byte[] payload) {
        int keep = Math.min(WINDOW, window.length + payload.length);
        byte[] next = new byte[keep];
        int fromOld = keep - Math.min(keep, payload.length);
        System.arraycopy(window, window.length - fromOld, next, 0, fromOld);
        System.arraycopy(payload, payload.length - (keep - fromOld), next, fromOld, keep - fromOld);
        window = next;
    }
}
