package org.reconmuc.replay.meter;

import org.reconmuc.smack.socket.MeteredSocketFactory;

/**
 * What one bot's socket reads: every byte counted, and, while the stream is not compressed, fed
 * to the bot's XML stanza tracker. Once XEP-0138 compression starts,
 * {@link MeteringCompressionHandler} moves the tracker above the inflater.
 */
public final class BotSocketMeter implements MeteredSocketFactory.Meter {
    private final BotMeter meter;
    private volatile XmlStanzaTracker tracker;

    private BotSocketMeter(BotMeter meter) {
        this.meter = meter;
        this.tracker = new XmlStanzaTracker(meter);
    }

    /** The socket factory of one bot (Smack's {@code setSocketFactory}): each socket it makes is metered anew. */
    public static MeteredSocketFactory socketFactory(BotMeter meter) {
        return new MeteredSocketFactory(() -> new BotSocketMeter(meter));
    }

    BotMeter botMeter() {
        return meter;
    }

    /** Compression starts: the bytes read from now on are compressed. */
    void compressed() {
        tracker = null;
        meter.setCompressedStream(true);
    }

    @Override
    public void read(byte[] buffer, int offset, int length) {
        meter.socketRead(length);
        XmlStanzaTracker t = tracker;
        if (t != null) {
            t.feed(buffer, offset, length);
        }
    }
}
