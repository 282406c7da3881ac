package org.reconmuc.replay.meter;

import java.util.zip.Deflater;
import org.reconmuc.replay.meter.Series.Metric;

/**
 * What one bot receives, measured below Smack: socket bytes, and in the XML stream (after
 * XEP-0138 decompression, if any) the stanza boundaries, payload bytes, and the modelled stream
 * compression — a zlib stream of this bot's own, sync-flushed after each stanza, as a server
 * compressing the stream would do (DESIGN.md, "Where the bandwidth saving really comes from").
 * Wire bytes model TCP segments on a 1500-byte MTU link: 1448 bytes of payload and 52 bytes of
 * TCP/IP header (with timestamps) each, at least one segment per stanza.
 *
 * <p>Only the bot's reader thread writes the stream counters.
 */
public final class BotMeter {
    public static final int MSS = 1448;
    public static final int HEADER = 52;

    private final Series series;
    /** The series of this bot's group (its world), counted besides the run's. */
    private final Series groupSeries;
    private final Deflater deflater;
    private final byte[] out = new byte[8192];
    private byte[] stanza = new byte[4096];
    private int stanzaLength;
    private volatile boolean compressedStream;

    // Totals of this bot (during the measurement); read by others only after the run or approximately.
    public volatile long socketBytes;
    public volatile long xmlBytes;
    public volatile long zlibModelBytes;
    public volatile long wireXmlBytes;
    public volatile long wireZlibBytes;
    public volatile long wireSocketBytes;
    public volatile long stanzas;
    /** Bytes per second of this bot (socket bytes), when per-bot series are kept. */
    private final long[] perSecond;
    /** This bot's radio, were it a phone (XEP-0286): on for a tail after every arrival. */
    private final RadioTail radio = new RadioTail(RadioTail.LTE_TAIL_NANOS);

    public BotMeter(Series series, Series groupSeries, int level, boolean keepPerSecond) {
        this.series = series;
        this.groupSeries = groupSeries;
        this.deflater = new Deflater(level, false);
        this.perSecond = keepPerSecond ? new long[series.capacity()] : null;
    }

    public void setCompressedStream(boolean compressed) {
        this.compressedStream = compressed;
    }

    public boolean compressedStream() {
        return compressedStream;
    }

    /** Bytes read from the socket. */
    void socketRead(int n) {
        if (!series.started()) {
            return;
        }
        socketBytes += n;
        long now = System.nanoTime();
        radio.activity(now);
        int s = series.second(now);
        add(Metric.SOCKET_BYTES, s, n);
        add(Metric.WIRE_SOCKET_BYTES, s, n);
        wireSocketBytes += n;
        if (perSecond != null && s >= 0) {
            perSecond[s] += n;
        }
    }

    /** Bytes of the XML stream, in order; called with whatever the reader read. */
    void xmlRead(byte[] b, int off, int len) {
        if (stanzaLength + len > stanza.length) {
            stanza = java.util.Arrays.copyOf(stanza, Math.max(stanza.length * 2, stanzaLength + len));
        }
        System.arraycopy(b, off, stanza, stanzaLength, len);
        stanzaLength += len;
    }

    /**
     * The end of a top-level element (a stanza or a stream-level element) after {@code upTo}
     * bytes of the last buffer passed to {@link #xmlRead}; the rest stays for the next stanza.
     */
    synchronized void stanzaEnd(int keepFromEnd) {
        if (closed) {
            return;
        }
        int len = stanzaLength - keepFromEnd;
        // The model compresses everything, in every phase, so its stream state is the real one.
        deflater.setInput(stanza, 0, len);
        long compressed = 0;
        int n;
        do {
            n = deflater.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
            compressed += n;
        } while (n == out.length);
        if (series.started()) {
            int s = series.second(System.nanoTime());
            long wireXml = wire(len);
            long wireZlib = wire(compressed);
            // The socket's own bytes are added as they are read; here only the TCP/IP headers.
            long wireSocket = HEADER * segments(compressedStream ? compressed : len);
            xmlBytes += len;
            zlibModelBytes += compressed;
            wireXmlBytes += wireXml;
            wireZlibBytes += wireZlib;
            wireSocketBytes += wireSocket;
            stanzas++;
            add(Metric.STANZAS, s, 1);
            add(Metric.XML_BYTES, s, len);
            add(Metric.ZLIB_MODEL_BYTES, s, compressed);
            add(Metric.WIRE_XML_BYTES, s, wireXml);
            add(Metric.WIRE_ZLIB_MODEL_BYTES, s, wireZlib);
            add(Metric.WIRE_SOCKET_BYTES, s, wireSocket);
        }
        System.arraycopy(stanza, len, stanza, 0, keepFromEnd);
        stanzaLength = keepFromEnd;
    }

    private void add(Metric m, int second, long delta) {
        series.add(m, second, delta);
        groupSeries.add(m, second, delta);
    }

    static long segments(long payload) {
        return Math.max(1, (payload + MSS - 1) / MSS);
    }

    static long wire(long payload) {
        return payload + HEADER * segments(payload);
    }

    public long[] perSecond() {
        return perSecond;
    }

    /** How long this bot's radio was on during the measurement, which ended at {@code endNanos}. */
    public long radioOnNanos(long endNanos) {
        return radio.onNanos(endNanos);
    }

    public long radioWakeups() {
        return radio.wakeups();
    }

    private boolean closed;

    public synchronized void close() {
        closed = true;
        deflater.end();
    }
}
