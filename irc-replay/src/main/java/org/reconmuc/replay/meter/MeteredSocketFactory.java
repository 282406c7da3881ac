package org.reconmuc.replay.meter;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;

/**
 * A socket factory for one bot (Smack's {@code setSocketFactory}): every byte read from the
 * socket is counted, and, while the stream is not compressed, fed to the bot's XML stanza
 * tracker. Once XEP-0138 compression starts, {@link MeteringCompressionHandler} moves the tracker
 * above the inflater.
 */
public final class MeteredSocketFactory extends SocketFactory {
    private final BotMeter meter;

    public MeteredSocketFactory(BotMeter meter) {
        this.meter = meter;
    }

    @Override
    public Socket createSocket() throws SocketException {
        return new MeteredSocket(meter);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(host, port), new InetSocketAddress(localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return connected(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
    }

    /** A metered socket bound to {@code local} (if given) and connected to {@code remote}. */
    private Socket connected(InetSocketAddress remote, InetSocketAddress local) throws IOException {
        Socket s = createSocket();
        if (local != null) {
            s.bind(local);
        }
        s.connect(remote);
        return s;
    }

    static final class MeteredSocket extends Socket {
        private final BotMeter meter;
        private MeteredInputStream in;

        MeteredSocket(BotMeter meter) throws SocketException {
            this.meter = meter;
            setTcpNoDelay(true);
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new MeteredInputStream(super.getInputStream(), meter);
            }
            return in;
        }
    }

    /** Counts socket bytes; tracks stanzas in them while the stream is not compressed. */
    static final class MeteredInputStream extends FilterInputStream {
        final BotMeter meter;
        private volatile XmlStanzaTracker tracker;

        MeteredInputStream(InputStream in, BotMeter meter) {
            super(in);
            this.meter = meter;
            this.tracker = new XmlStanzaTracker(meter);
        }

        /** Compression starts: the bytes read from now on are compressed. */
        void compressed() {
            tracker = null;
            meter.setCompressedStream(true);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n <= 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                meter.socketRead(n);
                XmlStanzaTracker t = tracker;
                if (t != null) {
                    t.feed(b, off, n);
                }
            }
            return n;
        }
    }

    /** The XML stream above the inflater. */
    static final class XmlInputStream extends FilterInputStream {
        private final XmlStanzaTracker tracker;

        XmlInputStream(InputStream in, BotMeter meter) {
            super(in);
            this.tracker = new XmlStanzaTracker(meter);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n <= 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                tracker.feed(b, off, n);
            }
            return n;
        }
    }
}
