package org.reconmuc.component.transport;

import static org.reconmuc.component.transport.LogThrottle.suppressedNote;
import static org.reconmuc.component.transport.StreamXml.CLOSE_STREAM;
import static org.reconmuc.component.transport.StreamXml.NS_STREAM;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.dom4j.Element;
import org.reconmuc.component.config.ServiceConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.component.Component;
import org.xmpp.component.ComponentException;
import org.xmpp.component.ComponentManager;
import org.xmpp.component.IQResultListener;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Connects one {@link Component} to an XMPP server as an external component (XEP-0114) and keeps
 * it connected.
 *
 * <p><b>Threads.</b> One reader thread ({@code reconmuc-component-reader}) connects, performs the
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
 * {@value #MAX_STANZA_DEPTH} levels are not handed to the component; unless they are errors they
 * are answered with a {@code policy-violation} error. Received stanza elements and their children
 * in the stream's content namespace carry no namespace in dom4j, like the packets Tinder builds,
 * so that {@code packet.createCopy().setError(..)} renders correctly.
 *
 * <p><b>Lifecycle.</b> {@link #start()} calls {@code component.initialize(domain, this)} and
 * starts connecting; {@code component.start()} is called after the first successful handshake
 * only; a component that also implements {@link ConnectionListener} is told about every
 * handshake and every loss. {@link #close()} ends it all and calls {@code component.shutdown()}.
 * A wrong secret ends the connection for good: {@link #awaitTermination()} then returns
 * {@link Termination#AUTHENTICATION_FAILED} (the caller should still call {@link #close()}).
 */
public final class ExternalComponentConnection implements ComponentManager, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExternalComponentConnection.class);
    /** How long discovery waits for each answer, and for a probe's copy (the server may be busy). */
    private static final Duration MULTICAST_DISCOVERY_TIMEOUT = Duration.ofSeconds(10);

    /** Deepest element nesting accepted in a received stanza (the stanza element is level 1). */
    static final int MAX_STANZA_DEPTH = 128;

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

        Tuning withHandshakeTimeout(Duration d) {
            return new Tuning(initialBackoff, connectTimeout, d, closeFlushTimeout, closeJoinTimeout, maxQueuedChars, queryTimeout);
        }

        Tuning withMaxQueuedChars(long chars) {
            return new Tuning(initialBackoff, connectTimeout, handshakeTimeout, closeFlushTimeout, closeJoinTimeout, chars, queryTimeout);
        }

        Tuning withQueryTimeout(Duration d) {
            return new Tuning(initialBackoff, connectTimeout, handshakeTimeout, closeFlushTimeout, closeJoinTimeout, maxQueuedChars, d);
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

    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean initialized;
    private volatile Thread readerThread;
    /** The connection being set up or in use; null between attempts. */
    private volatile ComponentSession session;

    /** Set by {@link #holdHandshake()}: the first attempt waits for it after the server's stream header. */
    private volatile CountDownLatch handshakeHeld;
    /** Counted down once a held attempt waits at its handshake. */
    private final CountDownLatch readyForHandshake = new CountDownLatch(1);
    /** True once the server ended its stream (after ejabberd has dropped this connection's bucket). */
    private volatile boolean serverEndedStream;

    private final ReentrantLock stateLock = new ReentrantLock();
    private final Condition stateChanged = stateLock.newCondition();
    private boolean connectedNow;          // guarded by stateLock
    private Termination termination;       // guarded by stateLock

    private final AtomicLong droppedAfterClose = new AtomicLong();
    private final AtomicLong droppedInvalid = new AtomicLong();
    private final AtomicLong discardedIncoming = new AtomicLong();
    private final AtomicLong reportedEvictions = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong stanzasQueued = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong multicastStanzas = new AtomicLong();
    private final AtomicLong multicastCopies = new AtomicLong();
    /** The server's XEP-0033 service this connection sends broadcasts through, or null: a copy each. */
    private volatile ServerMulticast.Service multicast;
    private final LogThrottle evictionWarnings = new LogThrottle(Duration.ofSeconds(10));
    private final LogThrottle invalidWarnings = new LogThrottle(Duration.ofSeconds(10));
    private final LogThrottle processingErrors = new LogThrottle(Duration.ofSeconds(10));
    private final LogThrottle discardReports = new LogThrottle(Duration.ofSeconds(10));

    // Used by the reader thread only.
    private boolean componentStarted;
    private boolean inOutage;
    private String lastWarnedProblem;
    private int failedAttempts;
    private long outageStartNanos;

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
    }

    /**
     * Refuses settings without a component secret: {@link ServiceConfig#defaults()} has none on
     * purpose, so that no service attaches to a server with a secret anyone can read in the source.
     */
    public static void requireSecret(ServiceConfig config) {
        if (!config.hasSecret()) {
            throw new IllegalArgumentException("no component secret: the XMPP server expects one for " + config.domain()
                    + " (--secret SECRET, RECONMUC_SECRET, or ServiceConfig.builder().secret(...))");
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
        if (closed.get()) {
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
        Thread t = new Thread(this::readerLoop, "reconmuc-component-reader");
        t.setDaemon(true);
        readerThread = t;
        if (closed.get()) {
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
        handshakeHeld = new CountDownLatch(1);
    }

    /** Waits up to {@code timeout} until a held attempt waits at its handshake (see {@link #holdHandshake()}). */
    public boolean awaitReadyForHandshake(Duration timeout) throws InterruptedException {
        return readyForHandshake.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Lets a held attempt authenticate (see {@link #holdHandshake()}). */
    public void releaseHandshake() {
        CountDownLatch held = handshakeHeld;
        if (held != null) {
            held.countDown();
        }
    }

    /**
     * True once the server has ended its stream on this connection: after {@link #close()}, that
     * ejabberd has unregistered the connection (its bucket is empty: another connection can take it).
     */
    public boolean serverEndedStream() {
        return serverEndedStream;
    }

    /**
     * Waits up to {@code timeout} until the connection is established: true once a handshake has
     * succeeded and as long as that connection has not been lost (after a loss it waits for the
     * reconnection). Returns false on timeout, after {@link #close()} or after the server refused
     * the secret.
     */
    public boolean awaitConnected(Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        stateLock.lock();
        try {
            while (!connectedNow && termination == null && !closed.get() && left > 0) {
                left = stateChanged.awaitNanos(left);
            }
            return connectedNow;
        } finally {
            stateLock.unlock();
        }
    }

    /** True while a handshake has succeeded and the connection has not been lost since. */
    public boolean isConnected() {
        stateLock.lock();
        try {
            return connectedNow;
        } finally {
            stateLock.unlock();
        }
    }

    /** Why the connection ended ({@link #awaitTermination()}), or null while it has not. */
    public Termination termination() {
        stateLock.lock();
        try {
            return termination;
        } finally {
            stateLock.unlock();
        }
    }

    /** Blocks until {@link #close()} was called or the server refused our secret. */
    public Termination awaitTermination() throws InterruptedException {
        stateLock.lock();
        try {
            while (termination == null) {
                stateChanged.await();
            }
            return termination;
        } finally {
            stateLock.unlock();
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
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        signalState();
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
            droppedAfterClose.addAndGet(unsent);
            log.info("{} stanzas were still waiting for the server when the connection was closed", unsent);
        }
        if (initialized) {
            try {
                component.shutdown();
            } catch (RuntimeException e) {
                log.error("component.shutdown() failed", e);
            }
        }
        terminate(Termination.CLOSED);
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
        return droppedAfterClose.get();
    }

    /** Stanzas refused, oldest first, because the queue was full while the server was unreachable. */
    public long refusedWhileDisconnected() {
        return queue.evicted();
    }

    /** Packets refused by {@link #sendPacket} because the server would have closed the stream over them. */
    public long droppedInvalid() {
        return droppedInvalid.get();
    }

    /** Received stanzas discarded for being too large or nested too deeply. */
    public long discardedIncoming() {
        return discardedIncoming.get();
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
        return stanzasQueued.get();
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
        ServerMulticast.Service m = multicast;
        return m == null ? null : m.jid();
    }

    /** Multicast stanzas sent so far, and the copies the server made of them. */
    public long multicastStanzas() {
        return multicastStanzas.get();
    }

    public long multicastCopies() {
        return multicastCopies.get();
    }

    // ---------------------------------------------------------------- ComponentManager

    /**
     * Queues the packet for sending: serializes it now ({@code packet.toXML()}), so the caller may
     * reuse or change the packet afterwards. Never throws. Waits while the server reads slower than
     * the component writes (back-pressure; see the class comment), never while disconnected.
     */
    @Override
    public void sendPacket(Component sender, Packet packet) {
        send(packet);
    }

    /** Returns true if the packet was queued. */
    private boolean send(Packet packet) {
        if (packet == null) {
            return false;
        }
        OutgoingStanza stanza;
        try {
            stanza = OutgoingStanza.of(packet);
        } catch (RuntimeException e) {
            droppedInvalid.incrementAndGet();
            log.warn("cannot serialize an outgoing packet; dropped", e);
            return false;
        }
        return send(stanza);
    }

    /**
     * Queues a stanza the service rendered: its text goes to the socket as it is (XEP-0114 mode
     * renders nothing again). Never throws; waits as {@link #sendPacket} does. True if queued.
     */
    public boolean send(OutgoingStanza stanza) {
        String problem = StreamXml.outgoingProblem(config.domain(), stanza.from(), stanza.forbiddenCharacter());
        if (problem != null) {
            droppedInvalid.incrementAndGet();
            long suppressed = invalidWarnings.acquire();
            if (suppressed >= 0) {
                log.warn("dropping an outgoing <{}>: {}; the server would close the stream over it{}",
                        stanza.name(), problem, suppressedNote(suppressed));
            }
            return false;
        }
        ServerMulticast.Service m = multicast;
        if (m != null && !m.inOrder() && stanza.rendered() != null && stanza.to() != null && stanza.rendered().multicastable()) {
            // The service reorders against direct stanzas: what goes to an occupant goes through it.
            return enqueueMulticast(m.render(stanza.rendered(), List.of(stanza.to())), 1);
        }
        return enqueue(stanza.xml());
    }

    /**
     * Queues one rendering for several recipients: through the server's multicast service when it
     * has one ({@link ServerMulticast}), in stanzas of at most its limit of addresses; else a copy
     * each. Never throws; waits as {@link #sendPacket} does. True if all of it was queued.
     */
    public boolean broadcast(RenderedStanza stanza, List<String> recipients) {
        ServerMulticast.Service m = multicast;
        if (m == null || !stanza.multicastable() || recipients.size() < 2 && m.inOrder()) {
            boolean queued = true;
            for (String recipient : recipients) {
                queued &= send(stanza.to(recipient));
            }
            return queued;
        }
        String problem = StreamXml.outgoingProblem(config.domain(), stanza.from(), stanza.forbiddenCharacter());
        if (problem != null) {
            return send(stanza.to(recipients.get(0)));   // dropped there, and said why
        }
        return enqueueMulticast(m.render(stanza, recipients), recipients.size());
    }

    private boolean enqueueMulticast(List<String> stanzas, int copies) {
        boolean queued = true;
        for (String xml : stanzas) {
            queued &= enqueue(xml);
        }
        multicastStanzas.addAndGet(stanzas.size());
        multicastCopies.addAndGet(copies);
        return queued;
    }

    private boolean enqueue(String xml) {
        if (closed.get()) {
            droppedAfterClose.incrementAndGet();
            log.debug("connection closed: dropping an outgoing stanza");
            return false;
        }
        // The reader thread must keep reading (and answering) whatever the server does: it only
        // waits at twice the bound. Everyone else waits at the bound.
        boolean mayWait = Thread.currentThread() != readerThread;
        if (queue.put(xml, mayWait) == OutgoingQueue.Offer.FINISHED) {
            droppedAfterClose.incrementAndGet();
            log.debug("connection closing: dropping an outgoing stanza");
            return false;
        }
        stanzasQueued.incrementAndGet();
        if (log.isTraceEnabled()) {
            log.trace("SEND {}", xml);
        }
        reportEvictions();
        return true;
    }

    private void reportEvictions() {
        long evicted = queue.evicted();
        long reported = reportedEvictions.get();
        if (evicted > reported && reportedEvictions.compareAndSet(reported, evicted)) {
            long suppressed = evictionWarnings.acquire();
            if (suppressed >= 0) {
                log.warn("not connected to {} and {} chars are waiting for it: refused the oldest stanzas"
                        + " ({} so far)", where, queue.queuedChars(), evicted);
            }
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
        if (closed.get()) {
            throw new ComponentException("closed");
        }
        String id = queries.register(packet, resultListener, timeoutMillis);
        if (!send(packet)) {
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

    /** What one connection attempt came to. */
    private record Attempt(boolean established, boolean authenticationFailed, String problemKind, String problem) {

        static Attempt closed(boolean established) {
            return new Attempt(established, false, null, null);
        }

        static Attempt failed(boolean established, String kind, String problem) {
            return new Attempt(established, false, kind, problem);
        }
    }

    private void readerLoop() {
        Backoff backoff = new Backoff(tuning.initialBackoff(), config.reconnectMaxBackoff());
        while (!closed.get()) {
            Attempt attempt;
            try {
                attempt = connectAndServe();
            } catch (RuntimeException | Error e) {
                // Defensive: nothing should get here; keep the service alive if it does.
                log.error("unexpected error in the component connection to {}", where, e);
                attempt = Attempt.failed(false, "unexpected", String.valueOf(e));
            }
            if (closed.get()) {
                break;
            }
            if (attempt.authenticationFailed()) {
                terminate(Termination.AUTHENTICATION_FAILED);
                return;
            }
            if (attempt.established()) {
                backoff.reset();
            }
            Duration delay = backoff.next();
            reportProblem(attempt, delay);
            sleepUnlessClosed(delay);
        }
    }

    private void reportProblem(Attempt attempt, Duration delay) {
        if (attempt.established()) {
            log.warn("component connection to {} lost: {}; reconnecting", where, attempt.problem());
            startOutage(attempt.problemKind());
            return;
        }
        if (!inOutage) {
            startOutage(null);
        }
        failedAttempts++;
        if (!attempt.problemKind().equals(lastWarnedProblem)) {
            lastWarnedProblem = attempt.problemKind();
            log.warn("component connection to {} as {} failed: {}; retrying with backoff (at most {} apart)",
                    where, config.domain(), attempt.problem(), human(config.reconnectMaxBackoff()));
        } else {
            log.debug("component connection attempt {} to {} failed: {}; next attempt in {} ms",
                    failedAttempts, where, attempt.problem(), delay.toMillis());
        }
    }

    private void startOutage(String warnedKind) {
        inOutage = true;
        lastWarnedProblem = warnedKind;
        failedAttempts = 0;
        outageStartNanos = System.nanoTime();
    }

    private Attempt connectAndServe() {
        ComponentSession s = new ComponentSession(queue, where, config.keepaliveInterval(), bytesWritten);
        session = s;
        if (closed.get()) {
            s.abort(tuning.closeFlushTimeout());
            return Attempt.closed(false);
        }
        boolean established = false;
        try {
            s.connect(new InetSocketAddress(config.serverHost(), config.serverPort()), tuning.connectTimeout());
            s.socket.setSoTimeout((int) tuning.handshakeTimeout().toMillis());
            s.writeNow(StreamXml.streamHeader(config.domain()));

            XmlFramer framer = new XmlFramer(s.socket.getInputStream(), config.maxStanzaBytes(), MAX_STANZA_DEPTH);
            StanzaParser parser = new StanzaParser();
            XmlFramer.Frame headerFrame = framer.next();   // the framer returns the header first
            StanzaParser.Parsed header = parser.parseHeader(headerFrame.bytes(), headerFrame.name());
            if (!header.is("stream", NS_STREAM)) {
                throw new StreamException("invalid-namespace", "the server's stream header is <"
                        + headerFrame.name() + "> in namespace " + header.namespace());
            }
            String id = header.element().attributeValue("id");
            if (id == null || id.isEmpty()) {
                s.closeGracefully(CLOSE_STREAM, tuning.closeFlushTimeout());
                return Attempt.failed(false, "protocol", "the server's stream header has no id");
            }
            CountDownLatch held = handshakeHeld;
            if (held != null && readyForHandshake.getCount() > 0) {   // only the first attempt waits
                readyForHandshake.countDown();
                while (!held.await(50, TimeUnit.MILLISECONDS)) {
                    if (closed.get()) {
                        return Attempt.closed(false);
                    }
                }
            }
            s.writeNow(StreamXml.handshake(id, config.secret()));

            while (true) {
                XmlFramer.Frame f = framer.next();
                if (f.kind() == XmlFramer.Kind.STREAM_END) {
                    s.closeGracefully(CLOSE_STREAM, tuning.closeFlushTimeout());
                    return Attempt.failed(false, "closed", "the server closed the stream during the handshake");
                }
                if (f.kind() != XmlFramer.Kind.ELEMENT) {
                    continue;
                }
                StanzaParser.Parsed p = parser.parseElement(headerFrame.bytes(), headerFrame.name(), f.bytes());
                if (p.is("handshake", StreamXml.NS_ACCEPT)) {
                    break;
                }
                if (p.is("error", NS_STREAM)) {
                    return onServerStreamError(s, p.element(), false);
                }
                log.debug("ignoring <{}> received before the handshake completed", p.element().getName());
            }

            s.socket.setSoTimeout(0);
            established = true;
            queue.setConnected(true);
            s.startWriter();
            onEstablished();
            boolean reportedStrayText = false;

            // Reads until the stream ends, also while a local close() is under way: stopping at
            // the close could reset the connection before the server has read our last stanzas.
            while (true) {
                XmlFramer.Frame f = framer.next();
                switch (f.kind()) {
                    case ELEMENT -> {
                        StanzaParser.Parsed p = parser.parseElement(headerFrame.bytes(), headerFrame.name(), f.bytes());
                        if (p.is("error", NS_STREAM)) {
                            return onServerStreamError(s, p.element(), true);
                        }
                        handleElement(p);
                    }
                    case DISCARDED -> handleDiscarded(parser, headerFrame, f);
                    case STREAM_END -> {
                        serverEndedStream = true;
                        s.closeGracefully(CLOSE_STREAM, tuning.closeFlushTimeout());
                        return Attempt.failed(true, "closed", "the server closed the stream");
                    }
                    default -> log.debug("ignoring a second stream header");
                }
                if (!reportedStrayText && framer.sawNonWhitespaceText()) {
                    reportedStrayText = true;
                    log.debug("ignoring character data between stanzas");
                }
            }
        } catch (StreamException e) {
            if (closed.get()) {
                return Attempt.closed(established);
            }
            s.closeGracefully(StreamXml.streamError(e.condition(), null) + CLOSE_STREAM, tuning.closeFlushTimeout());
            return Attempt.failed(established, "local:" + e.condition(),
                    "closed the stream with stream error '" + e.condition() + "': " + e.getMessage());
        } catch (SocketTimeoutException e) {
            if (closed.get()) {
                return Attempt.closed(established);
            }
            s.closeGracefully(CLOSE_STREAM, tuning.closeFlushTimeout());
            return Attempt.failed(established, "io", "no answer from the server within "
                    + tuning.handshakeTimeout().toSeconds() + " s during the handshake");
        } catch (IOException e) {
            if (closed.get()) {
                return Attempt.closed(established);
            }
            return Attempt.failed(established, "io", describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Attempt.closed(established);
        } finally {
            if (established) {
                multicast = null;            // the next server (or the same, restarted) is asked again
                queue.setConnected(false);   // senders stop waiting for this server
                setConnected(false);
                if (!closed.get() && listener != null) {
                    try {
                        listener.disconnected();
                    } catch (RuntimeException e) {
                        log.error("ConnectionListener.disconnected() failed", e);
                    }
                }
            }
            s.abort(tuning.closeFlushTimeout());
            if (established && !closed.get() && !queue.isEmpty()) {
                log.info("{} stanzas wait for the next connection to {}", queue.size(), where);
            }
            if (session == s) {
                session = null;
            }
        }
    }

    private void onEstablished() {
        connections.incrementAndGet();
        if (inOutage) {
            log.info("component reconnected to {} as {} after {} failed attempts ({})", where, config.domain(),
                    failedAttempts, human(Duration.ofNanos(System.nanoTime() - outageStartNanos)));
        } else {
            log.info("component connected to {} as {}", where, config.domain());
        }
        inOutage = false;
        lastWarnedProblem = null;
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
        setConnected(true);
        if (config.multicast()) {
            discoverMulticast(session);
        }
    }

    /**
     * Looks for the server's multicast service on a thread of its own (discovery waits for
     * answers the reader thread reads); until it is found, and if none is, a copy each.
     */
    private void discoverMulticast(ComponentSession on) {
        ServerMulticast.Link link = new ServerMulticast.Link() {
            @Override
            public IQ query(IQ request, Duration timeout) throws ComponentException {
                return ExternalComponentConnection.this.query(component, request, timeout.toMillis());
            }

            @Override
            public void send(String xml) {
                enqueue(xml);
            }
        };
        Thread discovery = new Thread(() -> {
            try {
                ServerMulticast.Service found = ServerMulticast.discover(link, config.domain(), MULTICAST_DISCOVERY_TIMEOUT);
                if (session == on && !closed.get()) {
                    multicast = found;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                log.warn("looking for the server's multicast service failed; sending a copy each", e);
            }
        }, "reconmuc-multicast-discovery");
        discovery.setDaemon(true);
        discovery.start();
    }

    private Attempt onServerStreamError(ComponentSession s, Element error, boolean established) {
        StreamXml.ServerStreamError e = StreamXml.ServerStreamError.of(error);
        s.closeGracefully(CLOSE_STREAM, tuning.closeFlushTimeout());
        if ("not-authorized".equals(e.condition()) && !established) {
            log.error("component handshake refused: wrong secret for {} at {}", config.domain(), where);
            return new Attempt(false, true, "not-authorized", "not-authorized");
        }
        return Attempt.failed(established, "stream-error:" + e.condition(), e.describe());
    }

    /** A complete element arrived on an established connection. */
    private void handleElement(StanzaParser.Parsed parsed) {
        Element e = parsed.element();
        String name = e.getName();
        boolean stanza = (name.equals("message") || name.equals("presence") || name.equals("iq"))
                && parsed.namespace() != null && StanzaParser.CONTENT_NAMESPACES.contains(parsed.namespace());
        if (!stanza) {
            log.debug("ignoring top-level element <{}> in namespace {}", name, parsed.namespace());
            return;
        }
        if (closed.get() || ServerMulticast.takeProbe(e, config.domain())) {
            return;
        }
        Packet packet;
        try {
            packet = switch (name) {
                case "message" -> new Message(e, true);
                case "presence" -> new Presence(e, true);
                default -> new IQ(e, true);
            };
        } catch (RuntimeException ex) {
            // Tinder still splits the addresses and refuses e.g. "a@" or "b/".
            log.debug("dropping a received <{}> with an unusable address: {}", name, ex.getMessage());
            bounce(e, "jid-malformed", "Malformed address");
            return;
        }
        if (log.isTraceEnabled()) {
            log.trace("RECV {}", packet.toXML());
        }
        if (packet instanceof IQ iq && queries.deliver(e, iq)) {
            return;
        }
        try {
            component.processPacket(packet);
        } catch (RuntimeException | StackOverflowError | AssertionError ex) {
            long suppressed = processingErrors.acquire();
            if (suppressed >= 0) {
                log.error("the component failed to process a <{}>; the connection carries on{}",
                        name, suppressedNote(suppressed), ex);
            }
        }
    }

    private void handleDiscarded(StanzaParser parser, XmlFramer.Frame header, XmlFramer.Frame f) {
        discardedIncoming.incrementAndGet();
        String text = f.tooDeep()
                ? "Stanza nested too deeply: limit is " + MAX_STANZA_DEPTH + " levels"
                : "Stanza too large: limit is " + config.maxStanzaBytes() + " bytes";
        long suppressed = discardReports.acquire();
        if (suppressed >= 0) {
            log.info("discarded a received <{}> of {} bytes: {}{}", f.name(), f.size(), text, suppressedNote(suppressed));
        }
        if (f.bytes() == null) {
            log.debug("cannot answer the discarded <{}>: its start tag alone exceeds the limit", f.name());
            return;
        }
        Element start;
        try {
            start = parser.parseStartTag(header.bytes(), header.name(), f.bytes(), f.name()).element();
        } catch (StreamException e) {
            log.debug("cannot answer the discarded <{}>: {}", f.name(), e.getMessage());
            return;
        }
        log.debug("discarded a received <{}> of {} bytes from {}: {}", f.name(), f.size(), start.attributeValue("from"), text);
        bounce(start, "policy-violation", text);
    }

    /** Answers a received stanza we will not hand to the component with an error of the same kind. */
    private void bounce(Element original, String condition, String text) {
        Element reply = StreamXml.errorReply(original, config.domain(), condition, text);
        if (reply == null) {
            return;
        }
        String xml = reply.asXML();
        String problem = StreamXml.outgoingProblem(config.domain(), reply.attributeValue("from"), xml);
        if (problem != null) {
            log.debug("not answering a discarded stanza: {}", problem);
            return;
        }
        enqueue(xml);
    }

    // ---------------------------------------------------------------- helpers

    private static String describe(IOException e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    private static String human(Duration d) {
        return d.toMillis() < 1000 ? d.toMillis() + " ms" : d.toSeconds() + " s";
    }

    private void setConnected(boolean value) {
        stateLock.lock();
        try {
            connectedNow = value;
            stateChanged.signalAll();
        } finally {
            stateLock.unlock();
        }
    }

    private void terminate(Termination t) {
        stateLock.lock();
        try {
            if (termination == null) {
                termination = t;
            }
            connectedNow = false;
            stateChanged.signalAll();
        } finally {
            stateLock.unlock();
        }
    }

    private void signalState() {
        stateLock.lock();
        try {
            stateChanged.signalAll();
        } finally {
            stateLock.unlock();
        }
    }

    private void sleepUnlessClosed(Duration delay) {
        long left = delay.toNanos();
        stateLock.lock();
        try {
            while (!closed.get() && left > 0) {
                left = stateChanged.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stateLock.unlock();
        }
    }
}
