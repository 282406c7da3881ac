package org.reconmuc.replay.light;

/**
 * Cuts an XMPP client stream (RFC 6120 §4) into its stream header and its top-level elements,
 * straight from the bytes, without parsing them: what a light session needs to hold thousands of
 * streams in a few kilobytes each. It tracks only nesting (start, end and empty tags, quoted
 * attribute values, which may hold {@code >}), and skips the XML declaration, comments and CDATA;
 * what an element says is read from its text by {@link StanzaText}. A scan always starts at a
 * boundary (before the stream header, or between two top-level elements), so nothing but the
 * bytes of an unfinished element is kept between two reads.
 */
final class StreamFrames {
    /** What a scan finds, in stream order. */
    interface Handler {
        /** The stream header ({@code <stream:stream …>}), bytes [from, to). */
        void streamOpened(byte[] buf, int from, int to);

        /**
         * A complete top-level element (a stanza, {@code <stream:features/>}, a SASL element…), bytes
         * [from, to). Return true when the stream restarts after it (SASL success, RFC 6120 §6.4.6):
         * what follows is a new stream header.
         */
        boolean element(byte[] buf, int from, int to);

        /** {@code </stream:stream>}. */
        void streamClosed();
    }

    private StreamFrames() {
    }

    /**
     * Scans bytes [from, to) of {@code buf}, which start at a boundary: inside the stream
     * ({@code open}) or before its header. Returns where the unfinished rest starts (to when
     * nothing is left over), and whether the stream is then open, as {@code rest | open << 31}:
     * see {@link #rest} and {@link #open}.
     */
    static long scan(byte[] buf, int from, int to, boolean open, Handler handler) {
        int depth = open ? 1 : 0;
        int elementStart = -1;
        int i = from;
        while (i < to) {
            if (buf[i] != '<') {
                i++;
                continue;
            }
            int tagStart = i;
            if (tagStart + 1 >= to) {
                return result(elementStart >= 0 ? elementStart : tagStart, depth);
            }
            byte c = buf[tagStart + 1];
            int end;
            if (c == '?') {
                end = indexOf(buf, tagStart + 2, to, (byte) '?', (byte) '>');
                if (end < 0) {
                    return result(elementStart >= 0 ? elementStart : tagStart, depth);
                }
                i = end + 2;
                continue;
            }
            if (c == '!') {
                boolean cdata = startsWith(buf, tagStart, to, "<![CDATA[");
                end = cdata ? indexOf(buf, tagStart + 9, to, (byte) ']', (byte) ']', (byte) '>')
                        : indexOf(buf, tagStart + 4, to, (byte) '-', (byte) '-', (byte) '>');
                if (end < 0) {
                    return result(elementStart >= 0 ? elementStart : tagStart, depth);
                }
                i = end + 3;
                continue;
            }
            end = tagEnd(buf, tagStart + 1, to);
            if (end < 0) {
                return result(elementStart >= 0 ? elementStart : tagStart, depth);
            }
            i = end + 1;
            if (c == '/') {
                depth--;
                if (depth == 0) {
                    handler.streamClosed();
                    return result(i, 0);
                }
                if (depth == 1 && elementStart >= 0) {
                    int start = elementStart;
                    elementStart = -1;
                    if (handler.element(buf, start, i)) {
                        depth = 0;
                    }
                }
            } else if (buf[end - 1] == '/') {
                if (depth == 1 && handler.element(buf, tagStart, i)) {
                    depth = 0;
                }
            } else if (depth == 0) {
                handler.streamOpened(buf, tagStart, i);
                depth = 1;
            } else {
                if (depth == 1) {
                    elementStart = tagStart;
                }
                depth++;
            }
        }
        return result(elementStart >= 0 ? elementStart : to, depth);
    }

    /** Where the unfinished rest of a scan starts. */
    static int rest(long scanResult) {
        return (int) (scanResult & 0x7fffffffL);
    }

    /** Whether the stream is open after a scan. */
    static boolean open(long scanResult) {
        return (scanResult >>> 31) != 0;
    }

    private static long result(int rest, int depth) {
        return rest | (depth > 0 ? 1L << 31 : 0);
    }

    /** The index of the {@code >} that ends the tag whose name starts at {@code from}, outside quotes; -1 if not yet read. */
    private static int tagEnd(byte[] buf, int from, int to) {
        byte quote = 0;
        for (int i = from; i < to; i++) {
            byte b = buf[i];
            if (quote != 0) {
                if (b == quote) {
                    quote = 0;
                }
            } else if (b == '\'' || b == '"') {
                quote = b;
            } else if (b == '>') {
                return i;
            }
        }
        return -1;
    }

    private static boolean startsWith(byte[] buf, int at, int to, String prefix) {
        if (at + prefix.length() > to) {
            return false;
        }
        for (int k = 0; k < prefix.length(); k++) {
            if (buf[at + k] != prefix.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** The index where {@code seq} starts in [from, to), or -1. */
    private static int indexOf(byte[] buf, int from, int to, byte... seq) {
        outer:
        for (int i = from; i + seq.length <= to; i++) {
            for (int k = 0; k < seq.length; k++) {
                if (buf[i + k] != seq[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
