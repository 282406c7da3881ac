package org.reconmuc.codec.batch;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/** Raw DEFLATE (RFC 1951: no zlib header or checksum, no preset dictionary), one complete stream. */
public final class RawDeflate {

    private RawDeflate() {
    }

    /** {@code data} compressed at {@code level} (0–9) as one complete raw DEFLATE stream. */
    public static byte[] deflate(byte[] data, int level) {
        Deflater deflater = new Deflater(level, true);
        try {
            deflater.setInput(data);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 3 + 64);
            byte[] buffer = new byte[8192];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    /**
     * Inflates one complete raw DEFLATE stream that must produce exactly {@code size} bytes and end
     * there; never produces more than {@code size} + 1 bytes, and refuses a {@code size} above
     * {@code limit} before it inflates anything (the bomb guard of reconmuc.md §5.13 rule 4).
     *
     * @throws MalformedBatchException if the size is refused, or the stream is corrupt, truncated,
     *     followed by bytes, or inflates to more or fewer than {@code size} bytes
     */
    public static byte[] inflate(byte[] deflated, int size, int limit) throws MalformedBatchException {
        if (size < 0 || size > limit) {
            throw new MalformedBatchException("refusing to inflate a declared size of " + size
                    + " bytes (the limit is " + limit + ")");
        }
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(deflated);
            byte[] out = new byte[size + 1];
            int n = 0;
            while (!inflater.finished() && n < out.length) {
                int k = inflater.inflate(out, n, out.length - n);
                if (k == 0) {
                    break; // needs input it will not get, or a dictionary, or finished
                }
                n += k;
            }
            if (n > size) {
                throw new MalformedBatchException("the payload inflates to more than its size of " + size + " bytes");
            }
            if (!inflater.finished()) {
                throw new MalformedBatchException("the payload is not one complete raw DEFLATE stream");
            }
            if (n != size) {
                throw new MalformedBatchException("size is " + size + " but the payload inflates to " + n + " bytes");
            }
            if (inflater.getRemaining() != 0) {
                throw new MalformedBatchException("bytes follow the end of the DEFLATE stream");
            }
            return Arrays.copyOf(out, n);
        } catch (DataFormatException e) {
            throw new MalformedBatchException("the payload is not raw DEFLATE: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }
}
