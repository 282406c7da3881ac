package org.reconmuc.replay.meter;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.util.List;
import org.jivesoftware.smack.SmackConfiguration;
import org.jivesoftware.smack.compression.Java7ZlibInputOutputStream;
import org.jivesoftware.smack.compression.XMPPInputOutputStream;
import org.reconmuc.smack.socket.MeteredSocketFactory;

/**
 * XEP-0138 zlib for the bots (Smack's own {@link Java7ZlibInputOutputStream}), with the bot's
 * stanza tracker moved above the inflater, so stanzas and payload bytes are still counted in the
 * decompressed stream while the socket counter sees the compressed bytes.
 */
public final class MeteringCompressionHandler extends XMPPInputOutputStream {
    private static volatile boolean installed;
    private final Java7ZlibInputOutputStream zlib = new Java7ZlibInputOutputStream();

    private MeteringCompressionHandler() {
        super("zlib");
    }

    /** Puts this handler before Smack's own zlib handler (idempotent). */
    @SuppressWarnings("unchecked")
    public static synchronized void install() {
        if (installed) {
            return;
        }
        try {
            Field f = SmackConfiguration.class.getDeclaredField("compressionHandlers");
            f.setAccessible(true);
            List<XMPPInputOutputStream> handlers = (List<XMPPInputOutputStream>) f.get(null);
            handlers.add(0, new MeteringCompressionHandler());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot install the metering XEP-0138 handler into Smack", e);
        }
        installed = true;
    }

    @Override
    public boolean isSupported() {
        return zlib.isSupported();
    }

    @Override
    public InputStream getInputStream(InputStream in) throws IOException {
        InputStream inflated = zlib.getInputStream(in);
        if (in instanceof MeteredSocketFactory.MeteredInputStream socket && socket.meter() instanceof BotSocketMeter bot) {
            bot.compressed();
            // The XML stream above the inflater.
            return new MeteredSocketFactory.MeteredInputStream(inflated, new XmlStanzaTracker(bot.botMeter())::feed);
        }
        return inflated;
    }

    @Override
    public OutputStream getOutputStream(OutputStream out) throws IOException {
        return zlib.getOutputStream(out);
    }
}
