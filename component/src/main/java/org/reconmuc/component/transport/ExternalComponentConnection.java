package org.reconmuc.component.transport;

import static org.reconmuc.component.transport.StreamXml.CLOSE_STREAM;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.transport.ServerStream.Attempt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.component.Component;
import org.xmpp.component.ComponentException;
import org.xmpp.component.ComponentManager;
import org.xmpp.component.IQResultListener;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Packet;

/**
 * Connects one {@link Component} to an XMPP server as an external component (XEP-0114) and keeps
 * it connected.
 *
 * <p><b>Threads.</b> One reader thread ({@code reconmuc-component-reader-}<i>n</i>, the n-th connection of the process) connects, performs the
 * handshake, reads the stream and calls {@link Component#processPacket} for every stanza in the
 * order the stanzas arrived, one at a time; it also sleeps the reconnect backoff. Per connection
 * one writer thread ({@link ComponentSession}) drains the outgoing queue into the socket. Both are
 * daemon threads: the program's main thread is expected to wait in {@link #awaitTermination()}.
 *
 * <p><b>Sending and back-pressure.</b> {@link #sendPacket} serializes the packet on the caller's
 * thread and queues the text in one {@link OutgoingQueue} that outlives connections. While
 * connected nothing is dropped: when the server reads slower than the component writes, senders
 * wait for room in the queue (the reader thread only past twice the bound, so it keeps reading
 * and answering), which slows the rooms, whose mailboxes then hold back the reader (see
 * {@code MucService}), so TCP pushes back on the server. While disconnected, stanzas are kept for
 * the next connection; past the bound the oldest are refused, counted and logged. A packet the
 * server would close the stream over (no {@code from}, a {@code from} outside our domain, a
 * character not allowed in XML) is refused, logged (rate-limited) and counted.
 *
 * <p><b>Receiving.</b> See {@link XmlFramer} and {@link StanzaParser}. Stanzas larger than
 * {@link ServiceConfig#maxStanzaBytes()} (real bytes on the wire) or nested deeper than
 * {@value XmlLimits#MAX_DEPTH} levels are not handed to the component; unless they are errors they
 * are answered with a {@code policy-violation} error, and those the parser refuses with
 * {@code bad-request}: the stream goes on ({@link XmlLimits} has the limits and why). Received stanza elements and their children
 * in the stream's content namespace carry no namespace in dom4j, like the packets Tinder builds,
 * so that {@code packet.createCopy().setError(..)} renders correctly.
 *
 * <p><b>Lifecycle.</b> {@link #start()} calls {@code component.initialize(domain, this)} and
 * starts connecting; {@code component.start()} is called after the first successful handshake
 * only; a component that also implements {@link ConnectionListener} is told about every
 * handshake and every loss. {@link #close()} ends it all and calls {@code component.shutdown()}.
 * A wrong secret ends the connection for good: {@link #awaitTermination()} then returns
 * {@link Termination#AUTHENTICATION_FAILED} (the caller should still call {@link #close()}).
 *
 * <p><b>Parts.</b> This class is the facade and the lifecycle (start, the reconnect loop, close);
 * {@link ConnectionState} is where the connection is and the waits on it, {@link ServerStream}
 * one attempt's handshake and read loop, {@link InboundStanzas} what is done with what arrives,
 * {@link OutboundStanzas} the checks and the queue on the way out, {@link OutageLog} what an
 * outage logs.
 */
public final class ExternalComponentConnection implements ComponentManager, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExternalComponentConnection.class);
    /** How long discovery waits for each answer, and for a probe's copy (the server may be busy). */
    private static final Duration MULTICAST_DISCOVERY_TIMEOUT = Duration.ofSeconds(10);

    /** Internal settings that are not part of {@link ServiceConfig}; tests shorten them. */
    record Tuning(Duration initialBackoff, Duration connectTimeout, Duration handshakeTimeout,
                  Duration closeFlushTimeout, Duration closeJoinTimeout, long maxQueuedChars,
                  Duration queryTimeout) {

        static Tuning defaults() {
            return new Tuning(Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofSeconds(30),
                    Duration.ofSeconds(2), Duration.ofSeconds(5), 16L * 1024 * 1024, Duration.ofSeconds(60));
        }

        Tuning withInitialBackoff(Duration d) {
            return new Tuning(d, connectTimeout, handshakeTimeout, closeFlushTimeout, closeJoinTimeout, maxQueuedChars, queryTimeout);
        }

        Tuning withMaxQueuedChars(long chars) {
            return new Tuning(initialBackoff, connectTimeout, handshakeTimeout, closeFlushTimeout, closeJoinTimeout, chars, queryTimeout);
        }
    }

    private final ServiceConfig config;
    private final Component component;
    private final ConnectionListener listener;
    private final Tuning tuning;
    private final String where;
    private final Map<String, String> properties = new ConcurrentHashMap<>();
    /** Outlives connections: what could not be sent yet goes out on the next one. */
    private final OutgoingQueue queue;
    private final PendingQueries queries = new PendingQueries();
    private final ConnectionState state = new ConnectionState();
    private final OutboundStanzas outbound;
    private final InboundStanzas inbound;
    private final ServerStream stream;

    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean initialized;
    private volatile Thread readerThread;
    /** The connection being set up or in use; null between attempts. */
    private volatile ComponentSession session;

    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();
    /** Connections made in this process so far: each one's threads carry its number, so its log lines tell it apart. */
    private static final AtomicInteger MADE = new AtomicInteger();
    private final int serial = MADE.getAndIncrement();

    // Used by the reader thread only.
    private boolean componentStarted;
    private final OutageLog outages;

    public ExternalComponentConnection(ServiceConfig config, Component component) {
        this(config, component, Tuning.defaults().withMaxQueuedChars(config.maxQueuedChars()));
    }

    ExternalComponentConnection(ServiceConfig config, Component component, Tuning tuning) {
        this.config = java.util.Objects.requireNonNull(config, "config");
        requireSecret(config);
        this.component = java.util.Objects.requireNonNull(component, "component");
        this.listener = component instanceof ConnectionListener l ? l : null;
        this.tuning = tuning;
        this.where = config.serverHost() + ":" + config.serverPort();
        this.queue = new OutgoingQueue(tuning.maxQueuedChars());
        this.outbound = new OutboundStanzas(config.domain(), where, queue, state, () -> readerThread);
        this.inbound = new InboundStanzas(config.domain(), config.maxStanzaBytes(), component, queries, outbound, state);
        this.stream = new ServerStream(config, tuning, where, queue, state, inbound, new ServerStream.Hooks() {
            @Override
            public void established(ComponentSession s) {
                queue.setConnected(true);
                s.startWriter();
                onEstablished(s);
            }

            @Override
            public void lost() {
                onLost();
            }
        });
        this.outages = new OutageLog(where, config.domain(), config.reconnectMaxBackoff());
    }

    /**
     * Refuses settings without a component secret: {@link ServiceConfig#defaults()} has none on
     * purpose, so that no service attaches to a server with a secret anyone can read in the source.
     */
    public static void requireSecret(ServiceConfig config) {
        if (!config.hasSecret()) {
            throw new IllegalArgumentException("no component secret: the XMPP server expects one for " + config.domain()
                    + " (RECONMUC_SECRET, --secret-file FILE, or ServiceConfig.builder().secret(...))");
        }
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Calls {@code component.initialize(new JID(domain), this)} once, then starts the connection
     * thread and returns without waiting for the connection.
     *
     * @throws ComponentException if the component refuses to initialize (then nothing is started)
     * @throws IllegalStateException if called twice or after {@link #close()}
     */
    public void start() throws ComponentException {
        if (state.closed()) {
            throw new IllegalStateException("closed");
        }
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("already started");
        }
        JID jid;
        try {
            jid = new JID(config.domain());
        } catch (IllegalArgumentException e) {
            throw new ComponentException("invalid component domain '" + config.domain() + "'", e);
        }
        component.initialize(jid, this);
        initialized = true;
        Thread t = new Thread(this::readerLoop, "reconmuc-component-reader-" + serial);
        t.setDaemon(true);
        readerThread = t;
        if (state.closed()) {
            return;   // closed while initializing
        }
        t.start();
    }

    /**
     * Makes the first attempt stop after the server has opened its stream, until
     * {@link #releaseHandshake()}: ejabberd gives a connection a bucket when its handshake
     * succeeds, and only an empty one, so a connection that is to take over a bucket another
     * connection gives up is set up beforehand and authenticates the moment the bucket is empty.
     * Call before {@link #start()}.
     */
    public void holdHandshake() {
        stream.holdHandshake();
    }

    /** Waits up to {@code timeout} until a held attempt waits at its handshake (see {@link #holdHandshake()}). */
    public boolean awaitReadyForHandshake(Duration timeout) throws InterruptedException {
        return stream.awaitReadyForHandshake(timeout);
    }

    /** Lets a held attempt authenticate (see {@link #holdHandshake()}). */
    public void releaseHandshake() {
        stream.releaseHandshake();
    }

    /**
     * True once the server has ended its stream on this connection: after {@link #close()}, that
     * ejabberd has unregistered the connection (its bucket is empty: another connection can take it).
     */
    public boolean serverEndedStream() {
        return stream.serverEndedStream();
    }

    /**
     * Waits up to {@code timeout} until the connection is established: true once a handshake has
     * succeeded and as long as that connection has not been lost (after a loss it waits for the
     * reconnection). Returns false on timeout, after {@link #close()} or after the server refused
     * the secret.
     */
    public boolean awaitConnected(Duration timeout) throws InterruptedException {
        return state.awaitConnected(timeout);
    }

    /** True while a handshake has succeeded and the connection has not been lost since. */
    public boolean isConnected() {
        return state.connected();
    }

    /** True once {@link #close()} has begun: from then on every stanza it is given is refused. */
    public boolean isClosing() {
        return state.closed();
    }

    /** Why the connection ended ({@link #awaitTermination()}), or null while it has not. */
    public Termination termination() {
        return state.termination();
    }

    /** Blocks until {@link #close()} was called or the server refused our secret. */
    public Termination awaitTermination() throws InterruptedException {
        return state.awaitTermination();
    }

    /**
     * Waits up to {@code timeout} for the connection to have ended ({@link #close()} done: what was
     * queued is written, or given up); true if it has. A room moving its stanzas to another
     * connection waits for this, so they keep their order.
     */
    public boolean awaitClosed(Duration timeout) {
        try {
            return state.awaitTermination(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Sends what is queued and {@code </stream:stream>} (waiting briefly for them to be written), closes the socket,
     * stops the threads (waiting for the reader thread unless called on it) and calls
     * {@code component.shutdown()}. Idempotent; callable from any thread, also while connecting
     * or backing off.
     */
    @Override
    public void close() {
        if (!state.close()) {
            return;
        }
        ComponentSession s = session;
        if (s != null && s.writerStarted() && s.claimEnd()) {
            queue.finish(CLOSE_STREAM);   // what is queued goes out first, within the flush timeout
            s.awaitWriter(tuning.closeFlushTimeout());
            // Our end of the stream, then the server's: closing the socket while its answer is
            // unread would reset the connection, and the server could lose our last stanzas. The
            // server's end says it has let the connection go (ejabberd ends the stream after
            // unregistering it: its bucket is empty), which our FIN would cut short (ejabberd
            // closes a socket its peer half-closed at once), so the FIN only follows if the
            // answer is slow.
            awaitReader(tuning.closeFlushTimeout());
            s.shutdownOutput();
            awaitReader(tuning.closeFlushTimeout());
            s.abort(tuning.closeFlushTimeout());
        } else if (s != null) {
            s.closeGracefully(CLOSE_STREAM, tuning.closeFlushTimeout());
        }
        queue.finish(null);
        queue.setConnected(false);   // nobody waits for room any more
        Thread t = readerThread;
        if (t != null && t != Thread.currentThread() && t.isAlive()) {
            boolean interrupted = false;
            long deadline = System.nanoTime() + tuning.closeJoinTimeout().toNanos();
            while (t.isAlive()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    log.warn("the component connection's reader thread did not stop within {} ms"
                            + " (is processPacket blocked?); shutting the component down anyway",
                            tuning.closeJoinTimeout().toMillis());
                    break;
                }
                try {
                    t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        queries.cancelAll();
        int unsent = queue.discard();
        if (unsent > 0) {
            outbound.droppedAtClose(unsent);
            log.info("{} stanzas were still waiting for the server when the connection was closed", unsent);
        }
        if (initialized) {
            try {
                component.shutdown();
            } catch (RuntimeException e) {
                log.error("component.shutdown() failed", e);
            }
        }
        state.terminate(Termination.CLOSED);
        log.info("component connection to {} closed", where);
    }

    /** Waits up to {@code timeout} for the reader thread to end (unless called on it). */
    private void awaitReader(Duration timeout) {
        Thread t = readerThread;
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        try {
            t.join(Math.max(1, timeout.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------- counters

    /** Stanzas refused because they came after {@link #close()} or were still queued then. */
    public long droppedAfterClose() {
        return outbound.droppedAfterClose();
    }

    /** Stanzas refused, oldest first, because the queue was full while the server was unreachable. */
    public long refusedWhileDisconnected() {
        return queue.evicted();
    }

    /** Packets refused by {@link #sendPacket} because the server would have closed the stream over them. */
    public long droppedInvalid() {
        return outbound.droppedInvalid();
    }

    /** Received stanzas discarded for being too large or nested too deeply (the tests' count). */
    long discardedIncoming() {
        return inbound.discardedCount();
    }

    /** Stanzas waiting for the server now. */
    public int queuedStanzas() {
        return queue.size();
    }

    /** Chars waiting for the server now. */
    public long queuedChars() {
        return queue.queuedChars();
    }

    /** Times a sender waited for the server to read (back-pressure applied). */
    public long backpressureWaits() {
        return queue.waits();
    }

    /** Stanzas accepted for sending so far. */
    public long stanzasQueued() {
        return outbound.stanzasQueued();
    }

    /** Bytes written to the server's socket so far, over all connections. */
    public long bytesWritten() {
        return bytesWritten.get();
    }

    /** Handshakes that succeeded so far (1 + reconnections). */
    public long connections() {
        return connections.get();
    }

    /** The XEP-0033 service broadcasts go through now, or null (none found yet, or none usable). */
    public String multicastService() {
        ServerMulticast.Service m = outbound.multicast();
        return m == null ? null : m.jid();
    }

    /** Multicast stanzas sent so far, and the copies the server made of them. */
    public long multicastStanzas() {
        return outbound.multicastStanzas();
    }

    public long multicastCopies() {
        return outbound.multicastCopies();
    }

    // ---------------------------------------------------------------- ComponentManager

    /**
     * Queues the packet for sending: serializes it now ({@code packet.toXML()}), so the caller may
     * reuse or change the packet afterwards. Never throws. Waits while the server reads slower than
     * the component writes (back-pressure; see the class comment), never while disconnected.
     */
    @Override
    public void sendPacket(Component sender, Packet packet) {
        outbound.send(packet);
    }

    /**
     * Queues a stanza the service rendered: its text goes to the socket as it is (XEP-0114 mode
     * renders nothing again). Never throws; waits as {@link #sendPacket} does. True if queued.
     */
    public boolean send(OutgoingStanza stanza) {
        return outbound.send(stanza);
    }

    /**
     * Queues one rendering for several recipients: through the server's multicast service when it
     * has one ({@link ServerMulticast}), in stanzas of at most its limit of addresses; else a copy
     * each. Never throws; waits as {@link #sendPacket} does. True if all of it was queued.
     */
    public boolean broadcast(RenderedStanza stanza, List<String> recipients) {
        return outbound.broadcast(stanza, recipients);
    }

    /**
     * Runs {@code then} on the writer thread once everything queued before this call is written to
     * the server's socket (by this connection or, if it breaks first, the next); never if the
     * connection is closed first. {@code then} must not wait: the writer writes nothing meanwhile.
     */
    public void whenWritten(Runnable then) {
        if (!state.closed()) {
            queue.mark(then);
        }
    }

    /**
     * Sends a get/set IQ and waits up to {@code timeout} ms for its result or error; returns null
     * on timeout. Must not be called on the thread that calls {@code processPacket}: the answer
     * is read by that thread.
     */
    @Override
    public IQ query(Component sender, IQ packet, long timeout) throws ComponentException {
        if (Thread.currentThread() == readerThread) {
            throw new ComponentException("query(component, iq, timeout) cannot be called from processPacket:"
                    + " the answer would be read by this very thread");
        }
        CompletableFuture<IQ> answer = new CompletableFuture<>();
        String id = register(packet, new IQResultListener() {
            @Override
            public void receivedAnswer(IQ iq) {
                answer.complete(iq);
            }

            @Override
            public void answerTimeout(String packetId) {
                answer.complete(null);
            }
        }, timeout);
        try {
            return answer.get();
        } catch (InterruptedException e) {
            queries.cancel(id);
            Thread.currentThread().interrupt();
            throw new ComponentException("interrupted while waiting for the answer to IQ " + id, e);
        } catch (ExecutionException e) {
            throw new ComponentException(e.getCause());
        }
    }

    /**
     * Sends a get/set IQ; the listener gets the result or error (on the reader thread, instead of
     * {@code processPacket}) or a timeout after 60 s (on a timer thread). An IQ without an id is
     * given one.
     */
    @Override
    public void query(Component sender, IQ packet, IQResultListener resultListener) throws ComponentException {
        register(packet, resultListener, tuning.queryTimeout().toMillis());
    }

    private String register(IQ packet, IQResultListener resultListener, long timeoutMillis) throws ComponentException {
        if (state.closed()) {
            throw new ComponentException("closed");
        }
        String id = queries.register(packet, resultListener, timeoutMillis);
        if (!outbound.send(packet)) {
            queries.cancel(id);
            throw new ComponentException("IQ " + id + " was not sent (connection closed, or the IQ is invalid)");
        }
        return id;
    }

    /** Not supported: this connection serves exactly one component. */
    @Override
    public void addComponent(String subdomain, Component c) throws ComponentException {
        throw new ComponentException("not supported: an ExternalComponentConnection serves exactly one component");
    }

    /** Not supported: this connection serves exactly one component. */
    @Override
    public void removeComponent(String subdomain) throws ComponentException {
        throw new ComponentException("not supported: an ExternalComponentConnection serves exactly one component");
    }

    @Override
    public String getProperty(String name) {
        return name == null ? null : properties.get(name);
    }

    /** Keeps the property in memory; a null value removes it. */
    @Override
    public void setProperty(String name, String value) {
        if (name == null) {
            return;
        }
        if (value == null) {
            properties.remove(name);
        } else {
            properties.put(name, value);
        }
    }

    /** The host the connection goes to ({@link ServiceConfig#serverHost()}). */
    @Override
    public String getServerName() {
        return config.serverHost();
    }

    @Override
    public boolean isExternalMode() {
        return true;
    }

    // ---------------------------------------------------------------- reader thread

    private void readerLoop() {
        Backoff backoff = new Backoff(tuning.initialBackoff(), config.reconnectMaxBackoff());
        while (!state.closed()) {
            Attempt attempt;
            try {
                attempt = connectAndServe();
            } catch (RuntimeException | Error e) {
                // Defensive: nothing should get here; keep the service alive if it does.
                log.error("unexpected error in the component connection to {}", where, e);
                attempt = Attempt.failed(false, "unexpected", String.valueOf(e));
            }
            if (state.closed()) {
                break;
            }
            if (attempt.authenticationFailed()) {
                state.terminate(Termination.AUTHENTICATION_FAILED);
                return;
            }
            if (attempt.established()) {
                backoff.reset();
            }
            Duration delay = backoff.next();
            outages.ended(attempt, delay);
            state.sleepUnlessClosed(delay);
        }
    }

    private Attempt connectAndServe() {
        ComponentSession s = new ComponentSession(queue, where, config.keepaliveInterval(), bytesWritten);
        session = s;
        try {
            return stream.serve(s);
        } finally {
            if (session == s) {
                session = null;
            }
        }
    }

    private void onEstablished(ComponentSession s) {
        connections.incrementAndGet();
        outages.connected();
        if (!componentStarted) {
            componentStarted = true;
            try {
                component.start();
            } catch (RuntimeException e) {
                log.error("component.start() failed", e);
            }
        }
        if (listener != null) {
            try {
                listener.connected();
            } catch (RuntimeException e) {
                log.error("ConnectionListener.connected() failed", e);
            }
        }
        // Last: whoever awaits the connection may rely on the component being started.
        state.connected(true);
        if (config.multicast()) {
            outbound.multicastThrough(ServerMulticast.known(multicastServer()));
            discoverMulticast(s);
        }
    }

    private void onLost() {
        outbound.multicastThrough(null);   // the next server (or the same, restarted) is asked again
        queue.setConnected(false);         // senders stop waiting for this server
        state.connected(false);
        if (!state.closed() && listener != null) {
            try {
                listener.disconnected();
            } catch (RuntimeException e) {
                log.error("ConnectionListener.disconnected() failed", e);
            }
        }
    }

    /** The server as {@link ServerMulticast} remembers its service for the process's connections to it. */
    private String multicastServer() {
        return config.domain() + " at " + where;
    }

    /**
     * Looks for the server's multicast service on a thread of its own (discovery waits for
     * answers the reader thread reads); until it has, the one this process's other connections
     * to the server found, if any; if none is found, a copy each.
     */
    private void discoverMulticast(ComponentSession on) {
        ServerMulticast.Link link = new ServerMulticast.Link() {
            @Override
            public IQ query(IQ request, Duration timeout) throws ComponentException {
                return ExternalComponentConnection.this.query(component, request, timeout.toMillis());
            }

            @Override
            public void send(String xml) {
                outbound.enqueue(xml);
            }

            @Override
            public Object receiver() {
                return inbound;
            }

            @Override
            public boolean open() {
                return session == on && !state.closed();
            }
        };
        Thread discovery = new Thread(() -> {
            try {
                ServerMulticast.Service found = ServerMulticast.discover(link, multicastServer(), config.domain(),
                        MULTICAST_DISCOVERY_TIMEOUT);
                if (session == on && !state.closed()) {
                    outbound.multicastThrough(found);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                log.warn("looking for the server's multicast service failed; sending a copy each", e);
            }
        }, "reconmuc-multicast-discovery-" + serial);
        discovery.setDaemon(true);
        discovery.start();
    }
}
