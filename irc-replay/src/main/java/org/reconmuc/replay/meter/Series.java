package org.reconmuc.replay.meter;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Per-second counters, indexed by whole seconds since the start of the measurement. Written by
 * many threads (one reader thread per bot), read at the end and by the status line.
 */
public final class Series {
    /** What is counted per second. */
    public enum Metric {
        SENT("messages sent by the bots"),
        STANZAS("stanzas received by all bots (counted in the XML stream)"),
        DELIVERIES("groupchat messages delivered (a batch counts each message it holds)"),
        BATCHES("batch stanzas received"),
        SOCKET_BYTES("bytes read from the bots' sockets (XEP-0138-compressed when negotiated)"),
        XML_BYTES("payload bytes of the XML stream, uncompressed"),
        ZLIB_MODEL_BYTES("payload bytes, modelled stream compression: a per-bot zlib stream, sync flush per stanza"),
        WIRE_XML_BYTES("modelled wire bytes of the uncompressed payload: + 52 B of TCP/IP header per 1448-B segment, a segment per stanza at least"),
        WIRE_ZLIB_MODEL_BYTES("modelled wire bytes of the zlib-modelled payload"),
        WIRE_SOCKET_BYTES("modelled wire bytes of the socket bytes (segments as the zlib model when compressed)"),
        WIRE_REAL_BYTES("real wire bytes, server to bots: IP packets (headers included) the kernel counted on the veth link (--link veth)"),
        WIRE_REAL_PACKETS("real packets, server to bots, on the veth link (--link veth)"),
        WIRE_REAL_UP_BYTES("real wire bytes, bots to server (messages, requirements, ACKs) on the veth link (--link veth)"),
        WIRE_REAL_UP_PACKETS("real packets, bots to server, on the veth link (--link veth)");

        /** Counted by the kernel on a real link, not by the bots (zero without one). */
        public boolean realLink() {
            return name().startsWith("WIRE_REAL");
        }

        public final String help;

        Metric(String help) {
            this.help = help;
        }
    }

    private volatile long startNanos;
    private volatile boolean started;
    private final int capacity;
    private final AtomicLongArray[] values;

    public Series(int capacitySeconds) {
        this.capacity = capacitySeconds;
        this.values = new AtomicLongArray[Metric.values().length];
        for (int i = 0; i < values.length; i++) {
            values[i] = new AtomicLongArray(capacitySeconds);
        }
    }

    public long startNanos() {
        return startNanos;
    }

    /** The measurement starts now: counting begins at second 0. */
    public void start(long nanos) {
        startNanos = nanos;
        started = true;
    }

    /** The measurement ends: nothing more is counted. */
    public void stop() {
        started = false;
    }

    public boolean started() {
        return started;
    }

    /** The second index for a {@link System#nanoTime()}; -1 before the start. */
    public int second(long nanos) {
        if (!started) {
            return -1;
        }
        long d = nanos - startNanos;
        if (d < 0) {
            return -1;
        }
        long s = d / 1_000_000_000L;
        return s >= capacity ? capacity - 1 : (int) s;
    }

    public void add(Metric m, int second, long delta) {
        if (second >= 0) {
            values[m.ordinal()].addAndGet(second, delta);
        }
    }

    public long get(Metric m, int second) {
        return values[m.ordinal()].get(second);
    }

    public long total(Metric m) {
        long t = 0;
        AtomicLongArray a = values[m.ordinal()];
        for (int i = 0; i < capacity; i++) {
            t += a.get(i);
        }
        return t;
    }

    public int capacity() {
        return capacity;
    }
}
