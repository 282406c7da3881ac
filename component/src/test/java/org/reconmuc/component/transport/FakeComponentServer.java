package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scriptable stand-in for the component port of an XMPP server, on a loopback ServerSocket.
 * Each accepted connection records everything it receives; the test decides what to send, except
 * at the end: when the component ends its stream, the connection ends its own (unless it already
 * did) and closes, as ejabberd and Prosody do, so the component's close does not wait for an end
 * that never comes.
 */
public final class FakeComponentServer implements AutoCloseable {

    public static final String DOMAIN = "reconmuc.localhost";
    public static final String SECRET = "s3cret";

    private final ServerSocket serverSocket;
    private final BlockingQueue<Conn> accepted = new LinkedBlockingQueue<>();
    private final List<Conn> all = new CopyOnWriteArrayList<>();

    public FakeComponentServer() throws IOException {
        this(0);
    }

    FakeComponentServer(int port) throws IOException {
        serverSocket = new ServerSocket();
        serverSocket.setReuseAddress(true);
        serverSocket.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        Thread t = new Thread(this::acceptLoop, "fake-server-accept");
        t.setDaemon(true);
        t.start();
    }

    public int port() {
        return serverSocket.getLocalPort();
    }

    private void acceptLoop() {
        while (!serverSocket.isClosed()) {
            try {
                Conn c = new Conn(serverSocket.accept());
                all.add(c);
                accepted.add(c);
            } catch (IOException e) {
                return;
            }
        }
    }

    /** The next connection accepted, waiting up to {@code timeout}. */
    public Conn nextConnection(Duration timeout) throws InterruptedException {
        Conn c = accepted.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (c == null) {
            fail("no connection within " + timeout);
        }
        return c;
    }

    /** True if no new connection arrives within {@code d}. */
    boolean noConnectionWithin(Duration d) throws InterruptedException {
        return accepted.poll(d.toMillis(), TimeUnit.MILLISECONDS) == null;
    }

    @Override
    public void close() throws IOException {
        serverSocket.close();
        for (Conn c : all) {
            c.close();
        }
    }

    static String serverHeader(String id) {
        return "<?xml version='1.0'?><stream:stream xmlns:stream='http://etherx.jabber.org/streams'"
                + " xmlns='jabber:component:accept' from='" + DOMAIN + "' id='" + id + "'>";
    }

    static String sha1Hex(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    /** One accepted connection. */
    public static final class Conn implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private static final String STREAM_END = "</stream:stream>";
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private boolean eof;
        private boolean paused;
        /** True once the test sent the server's end of the stream. */
        private volatile boolean endSent;

        Conn(Socket socket) throws IOException {
            this.socket = socket;
            this.out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            Thread t = new Thread(() -> {
                byte[] buf = new byte[8192];
                try {
                    int n;
                    while (true) {
                        synchronized (this) {
                            while (paused) {
                                wait();
                            }
                        }
                        if ((n = in.read(buf)) < 0) {
                            break;
                        }
                        boolean componentEnded;
                        synchronized (this) {
                            int from = Math.max(0, received.size() - STREAM_END.length());
                            received.write(buf, 0, n);
                            componentEnded = receivedSince(from).contains(STREAM_END);
                            notifyAll();
                        }
                        if (componentEnded) {
                            if (!endSent) {
                                send(STREAM_END);
                            }
                            socket.close();
                        }
                    }
                } catch (IOException | InterruptedException ignored) {
                    // closed
                }
                synchronized (this) {
                    eof = true;
                    notifyAll();
                }
            }, "fake-server-read");
            t.setDaemon(true);
            t.start();
        }

        /** Stops reading from the socket (after the read in progress), so the peer's writes back up. */
        public synchronized void pauseReading() {
            paused = true;
        }

        public synchronized void resumeReading() {
            paused = false;
            notifyAll();
        }

        public synchronized String received() {
            return received.toString(StandardCharsets.UTF_8);
        }

        synchronized byte[] receivedBytes() {
            return received.toByteArray();
        }

        /** Number of bytes received so far, to look at what comes after with {@link #receivedSince}. */
        synchronized int mark() {
            return received.size();
        }

        synchronized String receivedSince(int mark) {
            byte[] all = received.toByteArray();
            return new String(all, mark, all.length - mark, StandardCharsets.UTF_8);
        }

        /** Waits until what was received satisfies {@code p}; fails with what was received otherwise. */
        synchronized String await(Predicate<String> p, Duration timeout, String what) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                String s = received();
                if (p.test(s)) {
                    return s;
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    fail("timed out waiting for " + what + "; received so far: " + s);
                }
                wait(left);
            }
        }

        public String awaitContains(String text, Duration timeout) throws InterruptedException {
            return await(s -> s.contains(text), timeout, "'" + text + "'");
        }

        String awaitContainsSince(int mark, String text, Duration timeout) throws InterruptedException {
            await(s -> receivedSince(mark).contains(text), timeout, "'" + text + "' after byte " + mark);
            return receivedSince(mark);
        }

        /** True once the peer closed its side (EOF), waiting up to {@code timeout}. */
        synchronized boolean awaitEof(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!eof) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                wait(left);
            }
            return true;
        }

        void send(String s) throws IOException {
            sendBytes(s.getBytes(StandardCharsets.UTF_8));
        }

        void sendBytes(byte[] b) throws IOException {
            synchronized (out) {
                if (new String(b, StandardCharsets.UTF_8).contains(STREAM_END)) {
                    endSent = true;
                }
                out.write(b);
                out.flush();
            }
        }

        /** Waits for the component's stream header, answers with ours; returns the component's header. */
        String openStream(String id) throws Exception {
            String header = await(s -> s.contains("<stream:stream") && s.indexOf('>', s.indexOf("<stream:stream")) > 0,
                    Duration.ofSeconds(3), "the component's stream header");
            send(serverHeader(id));
            return header;
        }

        /** Waits for the {@code <handshake>} element and returns its content. */
        String awaitHandshake() throws Exception {
            String s = awaitContains("</handshake>", Duration.ofSeconds(3));
            Matcher m = Pattern.compile("<handshake>([^<]*)</handshake>").matcher(s);
            assertThat(m.find()).as("handshake element in %s", s).isTrue();
            return m.group(1);
        }

        /** Plays a successful handshake: opens the stream, checks the digest, answers {@code <handshake/>}. */
        public void acceptHandshake() throws Exception {
            String id = "id-" + System.nanoTime();
            openStream(id);
            assertThat(awaitHandshake()).isEqualTo(sha1Hex(id + SECRET));
            send("<handshake/>");
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }
}
