package org.reconmuc.component.transport;

import java.io.BufferedWriter;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One TCP connection to the server: its socket and, once the handshake has succeeded, its writer
 * thread ({@code reconmuc-component-writer}), which drains the connection's {@link OutgoingQueue}
 * into the socket, flushing after every drain, and writes a whitespace keepalive after a silence.
 *
 * <p>The writer never waits for the reader: it only waits for the queue and for the socket. What
 * it took from the queue but could not write (the connection broke) goes back to the front of
 * the queue for the next connection. The queue's marks it takes with a batch it runs once the
 * batch is flushed: what they cover has left the process (a {@code kill -9} loses only what is
 * still queued, and what the kernel had not yet handed to the server; XEP-0114 acknowledges nothing).
 */
final class ComponentSession {
    private static final Logger log = LoggerFactory.getLogger(ComponentSession.class);

    final Socket socket = new Socket();
    private final OutgoingQueue queue;
    private final String where;
    private final long keepaliveNanos;
    private final AtomicLong bytesWritten;
    private final CountDownLatch writerDone = new CountDownLatch(1);
    private Writer out;
    private volatile Thread writer;
    private volatile boolean stopping;
    /** Written instead of anything further from the queue, then the writer stops. */
    private volatile String lastWords;
    private final AtomicBoolean ended = new AtomicBoolean();

    ComponentSession(OutgoingQueue queue, String where, Duration keepalive, AtomicLong bytesWritten) {
        this.queue = queue;
        this.where = where;
        this.keepaliveNanos = keepalive.toNanos();
        this.bytesWritten = bytesWritten;
    }

    void connect(InetSocketAddress address, Duration timeout) throws IOException {
        socket.connect(address, (int) timeout.toMillis());
        socket.setTcpNoDelay(true);
        socket.setKeepAlive(true);
        OutputStream socketOut = socket.getOutputStream();
        OutputStream counted = new FilterOutputStream(socketOut) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                socketOut.write(b, off, len);
                bytesWritten.addAndGet(len);
            }
        };
        out = new BufferedWriter(new OutputStreamWriter(counted, StandardCharsets.UTF_8), 32 * 1024);
    }

    /** Writes and flushes on the calling thread: the stream header and handshake, before the writer runs. */
    synchronized void writeNow(String s) throws IOException {
        if (writer != null) {
            throw new IllegalStateException("the writer thread owns the socket");
        }
        out.write(s);
        out.flush();
    }

    /** After the handshake: from now on the writer thread alone writes, from the queue. */
    void startWriter() {
        Thread t = new Thread(this::writeLoop, "reconmuc-component-writer");
        t.setDaemon(true);
        writer = t;
        t.start();
    }

    private void writeLoop() {
        List<String> batch = new ArrayList<>();
        List<Runnable> written = new ArrayList<>();
        try {
            long lastWrite = System.nanoTime();
            while (true) {
                String last = lastWords;
                if (last != null) {
                    out.write(last);
                    out.flush();
                    break;
                }
                if (stopping) {
                    break;
                }
                long wait = keepaliveNanos - (System.nanoTime() - lastWrite);
                if (wait <= 0) {
                    out.write(' ');
                    out.flush();
                    lastWrite = System.nanoTime();
                    continue;
                }
                if (queue.drainTo(batch, written, wait) == 0) {
                    if (queue.isDone()) {
                        break;
                    }
                    continue;
                }
                if (stopping || lastWords != null) {
                    queue.requeueFront(batch, written);   // for the next connection, not into a stream being closed
                    batch.clear();
                    written.clear();
                    continue;
                }
                if (!batch.isEmpty()) {
                    for (String s : batch) {
                        out.write(s);
                    }
                    out.flush();
                    batch.clear();
                    lastWrite = System.nanoTime();
                }
                runAll(written);
            }
        } catch (IOException e) {
            queue.requeueFront(batch, written);
            if (!queue.isDone() && !stopping) {
                log.debug("writing to {} failed: {}", where, e.toString());
            }
            closeSocket();   // the reader thread notices and reconnects
        } catch (InterruptedException e) {
            queue.requeueFront(batch, written);
            closeSocket();
        } finally {
            writerDone.countDown();
        }
    }

    /** Runs the marks of what was just written, in order; a failing one stops neither the others nor the writer. */
    private static void runAll(List<Runnable> written) {
        for (Runnable r : written) {
            try {
                r.run();
            } catch (RuntimeException e) {
                log.error("a mark of written stanzas failed", e);
            }
        }
        written.clear();
    }

    /**
     * Writes {@code last} (a stream error, the stream's end) instead of anything further from the
     * queue, waits up to {@code timeout} for it, and closes the socket. What is still queued stays
     * for the next connection.
     */
    void closeGracefully(String last, Duration timeout) {
        if (!claimEnd()) {
            awaitWriter(timeout);   // someone else is ending the stream: let them finish
        } else if (writer == null) {
            try {
                if (out != null && !socket.isClosed()) {
                    writeNow(last);
                }
            } catch (IOException ignored) {
                // closing anyway
            }
        } else {
            lastWords = last;
            queue.wakeUp();
            awaitWriter(timeout);
        }
        closeSocket();
    }

    /**
     * True for the first caller only: it alone may write the stream's end (the reader answering
     * the server's end and a local close can race).
     */
    boolean claimEnd() {
        return ended.compareAndSet(false, true);
    }

    /** Waits up to {@code timeout} for the writer to have written everything the queue will ever hold. */
    boolean awaitWriter(Duration timeout) {
        if (writer == null) {
            return true;
        }
        try {
            boolean done = writerDone.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!done) {
                log.debug("could not finish writing to {} within {} ms", where, timeout.toMillis());
            }
            return done;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Stops the writer (its unsent stanzas go back to the queue) and closes the socket at once. */
    void abort(Duration timeout) {
        stopping = true;
        queue.wakeUp();
        closeSocket();
        awaitWriter(timeout);
    }

    /** Ends our direction of the connection (TCP FIN) and keeps reading. */
    void shutdownOutput() {
        try {
            socket.shutdownOutput();
        } catch (IOException ignored) {
            // the connection is going anyway
        }
    }

    boolean writerStarted() {
        return writer != null;
    }

    private void closeSocket() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
