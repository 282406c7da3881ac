package org.reconmuc.joom.session;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.SocketFactory;

/** Plain sockets that count the bytes they receive: what crossed the wire, TLS included, for the status bar. */
final class CountingSocketFactory extends SocketFactory {
    private final AtomicLong received;

    CountingSocketFactory(AtomicLong received) {
        this.received = received;
    }

    @Override
    public Socket createSocket() {
        return new CountingSocket(received);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(null, new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(localHost, localPort), new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(null, new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return connected(new InetSocketAddress(localAddress, localPort), new InetSocketAddress(address, port));
    }

    private Socket connected(InetSocketAddress local, InetSocketAddress remote) throws IOException {
        Socket s = createSocket();
        if (local != null) {
            s.bind(local);
        }
        s.connect(remote);
        return s;
    }

    private static final class CountingSocket extends Socket {
        private final AtomicLong received;
        private InputStream in;

        CountingSocket(AtomicLong received) {
            this.received = received;
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new FilterInputStream(super.getInputStream()) {
                    @Override
                    public int read() throws IOException {
                        int b = super.read();
                        if (b >= 0) {
                            received.incrementAndGet();
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buf, int off, int len) throws IOException {
                        int n = super.read(buf, off, len);
                        if (n > 0) {
                            received.addAndGet(n);
                        }
                        return n;
                    }
                };
            }
            return in;
        }
    }
}
