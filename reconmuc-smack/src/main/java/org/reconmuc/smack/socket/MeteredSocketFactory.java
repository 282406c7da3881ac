package org.reconmuc.smack.socket;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.net.SocketFactory;

/**
 * Plain sockets (Smack's {@code setSocketFactory}; Smack puts TLS above them) that show every byte
 * they read to a {@link Meter} of their own, and send without Nagle's delay: a chat client's
 * writes are small stanzas that someone waits for.
 */
public final class MeteredSocketFactory extends SocketFactory {
    /** Sees what one socket reads, as it reads it, on the thread that reads. */
    @FunctionalInterface
    public interface Meter {
        void read(byte[] buffer, int offset, int length);
    }

    private final Supplier<? extends Meter> meterPerSocket;

    /** Each socket made gets the meter {@code meterPerSocket} gives then. */
    public MeteredSocketFactory(Supplier<? extends Meter> meterPerSocket) {
        this.meterPerSocket = meterPerSocket;
    }

    /** Sockets that add the bytes they read to {@code received}. */
    public static MeteredSocketFactory counting(AtomicLong received) {
        Meter count = (buffer, offset, length) -> received.addAndGet(length);
        return new MeteredSocketFactory(() -> count);
    }

    @Override
    public Socket createSocket() throws SocketException {
        return new MeteredSocket(meterPerSocket.get());
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

    private static final class MeteredSocket extends Socket {
        private final Meter meter;
        private MeteredInputStream in;

        MeteredSocket(Meter meter) throws SocketException {
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

    /**
     * An input whose bytes a {@link Meter} sees as they are read: a metered socket's (what a stream
     * handler above it, e.g. XEP-0138's inflater, is given), or a stream a handler meters in turn.
     */
    public static final class MeteredInputStream extends FilterInputStream {
        private final Meter meter;

        public MeteredInputStream(InputStream in, Meter meter) {
            super(in);
            this.meter = meter;
        }

        /** The meter that sees this socket's bytes. */
        public Meter meter() {
            return meter;
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
                meter.read(b, off, n);
            }
            return n;
        }
    }
}
