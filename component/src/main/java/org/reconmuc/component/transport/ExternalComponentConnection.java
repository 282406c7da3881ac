package org.reconmuc.component.transport;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.dom4j.DocumentFactory;
import org.dom4j.Element;
import org.dom4j.QName;
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
 * one writer thread ({@code reconmuc-component-writer}) drains a bounded queue of serialized
 * stanzas into the socket, flushing when the queue runs empty, and writes a whitespace keepalive
 * after {@link ServiceConfig#keepaliveInterval()} without output. Both are daemon threads: the
 * program's main thread is expected to wait in {@link #awaitTermination()}.
 *
 * <p><b>Sending.</b> {@link #sendPacket} serializes the packet on the caller's thread and queues
 * the text; it never blocks and never throws. While not connected, when the queue is full
 * (its bound is in chars, about 64 MB by default), or when the packet would make the server close
 * the stream (no {@code from}, a {@code from} outside our domain, a character not allowed in XML),
 * the packet is dropped, logged (rate-limited) and counted.
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

    static final String NS_ACCEPT = StanzaParser.NS_ACCEPT;
    static final String NS_STREAM = "http://etherx.jabber.org/streams";
    static final String NS_STREAM_ERRORS = "urn:ietf:params:xml:ns:xmpp-streams";
    static final String NS_STANZA_ERRORS = "urn:ietf:params:xml:ns:xmpp-stanzas";
    static final String CLOSE_STREAM = "</stream:stream>";
    /** Deepest element nesting accepted in a received stanza (the stanza element is level 1). */
    static final int MAX_STANZA_DEPTH = 128;

    /** Internal settings that are not part of {@link ServiceConfig}; tests shorten them. */
    record Tuning(Duration initialBackoff, Duration connectTimeout, Duration handshakeTimeout,
                  Duration closeFlushTimeout, Duration closeJoinTimeout, long maxQueuedChars,
                  Duration queryTimeout) {

        static Tuning defaults() {
            return new Tuning(Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofSeconds(30),
                    Duration.ofSeconds(2), Duration.ofSeconds(5), 32L * 1024 * 1024, Duration.ofSeconds(60));
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

    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean initialized;
    private volatile Thread readerThread;
    /** The connection being set up or in use; null between attempts. */
    private volatile Session session;

    private final ReentrantLock stateLock = new ReentrantLock();
    private final Condition stateChanged = stateLock.newCondition();
    private boolean connectedNow;          // guarded by stateLock
    private Termination termination;       // guarded by stateLock

    private final AtomicLong droppedWhileDisconnected = new AtomicLong();
    private final AtomicLong droppedOnQueueOverflow = new AtomicLong();
    private final AtomicLong droppedInvalid = new AtomicLong();
    private final AtomicLong discardedIncoming = new AtomicLong();
    private final AtomicLong queryIds = new AtomicLong();
    private final RateLimiter overflowWarnings = new RateLimiter(Duration.ofSeconds(10));
    private final RateLimiter invalidWarnings = new RateLimiter(Duration.ofSeconds(10));
    private final RateLimiter processingErrors = new RateLimiter(Duration.ofSeconds(10));
    private final RateLimiter discardReports = new RateLimiter(Duration.ofSeconds(10));

    private final ConcurrentHashMap<String, PendingQuery> pendingQueries = new ConcurrentHashMap<>();
    private ScheduledExecutorService queryTimer;   // guarded by pendingQueries; created on first use

    // Used by the reader thread only.
    private boolean componentStarted;
    private boolean inOutage;
    private String lastWarnedProblem;
    private int failedAttempts;
    private long outageStartNanos;

    public ExternalComponentConnection(ServiceConfig config, Component component) {
        this(config, component, Tuning.defaults());
    }

    ExternalComponentConnection(ServiceConfig config, Component component, Tuning tuning) {
        this.config = java.util.Objects.requireNonNull(config, "config");
        this.component = java.util.Objects.requireNonNull(component, "component");
        this.listener = component instanceof ConnectionListener l ? l : null;
        this.tuning = tuning;
        this.where = config.serverHost() + ":" + config.serverPort();
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
     * Sends {@code </stream:stream>} (waiting briefly for it to be written), closes the socket,
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
        Session s = session;
        if (s != null) {
            s.closeGracefully(CLOSE_STREAM);
        }
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
        cancelPendingQueries();
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

    // ---------------------------------------------------------------- counters

    /** Packets given to {@link #sendPacket} while not connected (or left unsent when a connection was lost). */
    public long droppedWhileDisconnected() {
        return droppedWhileDisconnected.get();
    }

    /** Packets dropped because the outgoing queue was full. */
    public long droppedOnQueueOverflow() {
        return droppedOnQueueOverflow.get();
    }

    /** Packets refused by {@link #sendPacket} because the server would have closed the stream over them. */
    public long droppedInvalid() {
        return droppedInvalid.get();
    }

    /** Received stanzas discarded for being too large or nested too deeply. */
    public long discardedIncoming() {
        return discardedIncoming.get();
    }

    // ---------------------------------------------------------------- ComponentManager

    /**
     * Queues the packet for sending: serializes it now ({@code packet.toXML()}), so the caller may
     * reuse or change the packet afterwards. Never blocks, never throws; see the class comment for
     * when the packet is dropped instead.
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
        String xml;
        try {
            xml = packet.toXML();
        } catch (RuntimeException e) {
            droppedInvalid.incrementAndGet();
            log.warn("cannot serialize an outgoing packet; dropped", e);
            return false;
        }
        String problem = outgoingProblem(packet.getElement().attributeValue("from"), xml);
        if (problem != null) {
            droppedInvalid.incrementAndGet();
            long suppressed = invalidWarnings.acquire();
            if (suppressed >= 0) {
                log.warn("dropping an outgoing <{}>: {}; the server would close the stream over it{}",
                        packet.getElement().getName(), problem, suppressedNote(suppressed));
            }
            return false;
        }
        return enqueue(xml);
    }

    private boolean enqueue(String xml) {
        Session s = session;
        if (s == null || !s.established || closed.get()) {
            droppedWhileDisconnected.incrementAndGet();
            log.debug("not connected: dropping an outgoing stanza");
            return false;
        }
        switch (s.queue.offer(xml)) {
            case QUEUED:
                if (log.isTraceEnabled()) {
                    log.trace("SEND {}", xml);
                }
                return true;
            case FULL:
                droppedOnQueueOverflow.incrementAndGet();
                long suppressed = overflowWarnings.acquire();
                if (suppressed >= 0) {
                    log.warn("outgoing queue full ({} chars waiting for the server to read them): dropping stanzas{}",
                            s.queue.queuedChars(), suppressedNote(suppressed));
                }
                return false;
            default:
                droppedWhileDisconnected.incrementAndGet();
                log.debug("connection closing: dropping an outgoing stanza");
                return false;
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
            cancelQuery(id);
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
        String type = packet.getElement().attributeValue("type");
        if (!"get".equals(type) && !"set".equals(type)) {
            throw new ComponentException("only IQs of type get or set can be queries");
        }
        String id = packet.getID();
        if (id == null || id.isEmpty()) {
            id = "reconmuc-q" + queryIds.incrementAndGet();
            packet.setID(id);
        }
        PendingQuery q = new PendingQuery(packet.getElement().attributeValue("to"), resultListener);
        final String queryId = id;
        synchronized (pendingQueries) {
            if (closed.get()) {
                throw new ComponentException("closed");
            }
            if (pendingQueries.putIfAbsent(id, q) != null) {
                throw new ComponentException("a query with id " + id + " is already waiting for its answer");
            }
            if (queryTimer == null) {
                ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
                    Thread t = new Thread(r, "reconmuc-component-query-timer");
                    t.setDaemon(true);
                    return t;
                });
                timer.setRemoveOnCancelPolicy(true);
                queryTimer = timer;
            }
            q.timeout = queryTimer.schedule(() -> {
                if (pendingQueries.remove(queryId, q)) {
                    notifyTimeout(q, queryId);
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
        }
        if (!send(packet)) {
            cancelQuery(id);
            throw new ComponentException("IQ " + id + " was not sent (not connected, queue full or invalid)");
        }
        return id;
    }

    private void cancelQuery(String id) {
        PendingQuery q = pendingQueries.remove(id);
        if (q != null && q.timeout != null) {
            q.timeout.cancel(false);
        }
    }

    private void cancelPendingQueries() {
        synchronized (pendingQueries) {
            for (String id : List.copyOf(pendingQueries.keySet())) {
                PendingQuery q = pendingQueries.remove(id);
                if (q != null) {
                    if (q.timeout != null) {
                        q.timeout.cancel(false);
                    }
                    notifyTimeout(q, id);
                }
            }
            if (queryTimer != null) {
                queryTimer.shutdownNow();
            }
        }
    }

    private static void notifyTimeout(PendingQuery q, String id) {
        try {
            q.listener.answerTimeout(id);
        } catch (RuntimeException e) {
            log.error("IQResultListener.answerTimeout failed", e);
        }
    }

    /** Delivers an IQ result/error to the query waiting for it, if any. Reader thread. */
    private boolean deliverAnswer(Element iq, Packet packet) {
        String type = iq.attributeValue("type");
        String id = iq.attributeValue("id");
        if (id == null || !("result".equals(type) || "error".equals(type)) || pendingQueries.isEmpty()) {
            return false;
        }
        PendingQuery q = pendingQueries.get(id);
        if (q == null) {
            return false;
        }
        String from = iq.attributeValue("from");
        if (q.expectedFrom != null && !q.expectedFrom.equalsIgnoreCase(from)) {
            return false;   // not the answer: same id from someone else
        }
        if (!pendingQueries.remove(id, q)) {
            return false;
        }
        if (q.timeout != null) {
            q.timeout.cancel(false);
        }
        try {
            q.listener.receivedAnswer((IQ) packet);
        } catch (RuntimeException e) {
            log.error("IQResultListener.receivedAnswer failed", e);
        }
        return true;
    }

    private static final class PendingQuery {
        final String expectedFrom;
        final IQResultListener listener;
        volatile ScheduledFuture<?> timeout;

        PendingQuery(String expectedFrom, IQResultListener listener) {
            this.expectedFrom = expectedFrom;
            this.listener = listener;
        }
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
        Session s = new Session();
        session = s;
        if (closed.get()) {
            s.abort();
            return Attempt.closed(false);
        }
        boolean established = false;
        try {
            s.socket.connect(new InetSocketAddress(config.serverHost(), config.serverPort()),
                    (int) tuning.connectTimeout().toMillis());
            s.socket.setTcpNoDelay(true);
            s.socket.setKeepAlive(true);
            s.socket.setSoTimeout((int) tuning.handshakeTimeout().toMillis());
            s.queue.offer(streamHeader());
            s.startWriter();

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
                s.closeGracefully(CLOSE_STREAM);
                return Attempt.failed(false, "protocol", "the server's stream header has no id");
            }
            s.queue.offer("<handshake>" + handshakeDigest(id, config.secret()) + "</handshake>");

            while (true) {
                XmlFramer.Frame f = framer.next();
                if (f.kind() == XmlFramer.Kind.STREAM_END) {
                    s.closeGracefully(CLOSE_STREAM);
                    return Attempt.failed(false, "closed", "the server closed the stream during the handshake");
                }
                if (f.kind() != XmlFramer.Kind.ELEMENT) {
                    continue;
                }
                StanzaParser.Parsed p = parser.parseElement(headerFrame.bytes(), headerFrame.name(), f.bytes());
                if (p.is("handshake", NS_ACCEPT)) {
                    break;
                }
                if (p.is("error", NS_STREAM)) {
                    return onServerStreamError(s, p.element(), false);
                }
                log.debug("ignoring <{}> received before the handshake completed", p.element().getName());
            }

            s.socket.setSoTimeout(0);
            established = true;
            onEstablished(s);
            boolean reportedStrayText = false;

            while (!closed.get()) {
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
                        s.closeGracefully(CLOSE_STREAM);
                        return Attempt.failed(true, "closed", "the server closed the stream");
                    }
                    default -> log.debug("ignoring a second stream header");
                }
                if (!reportedStrayText && framer.sawNonWhitespaceText()) {
                    reportedStrayText = true;
                    log.debug("ignoring character data between stanzas");
                }
            }
            return Attempt.closed(true);
        } catch (StreamException e) {
            if (closed.get()) {
                return Attempt.closed(established);
            }
            s.closeGracefully(streamError(e.condition(), null) + CLOSE_STREAM);
            return Attempt.failed(established, "local:" + e.condition(),
                    "closed the stream with stream error '" + e.condition() + "': " + e.getMessage());
        } catch (SocketTimeoutException e) {
            if (closed.get()) {
                return Attempt.closed(established);
            }
            s.closeGracefully(CLOSE_STREAM);
            return Attempt.failed(established, "io", "no answer from the server within "
                    + tuning.handshakeTimeout().toSeconds() + " s during the handshake");
        } catch (IOException e) {
            if (closed.get()) {
                return Attempt.closed(established);
            }
            return Attempt.failed(established, "io", describe(e));
        } finally {
            if (established) {
                s.established = false;
                setConnected(false);
                if (!closed.get() && listener != null) {
                    try {
                        listener.disconnected();
                    } catch (RuntimeException e) {
                        log.error("ConnectionListener.disconnected() failed", e);
                    }
                }
            }
            int unsent = s.abort();
            if (unsent > 0) {
                droppedWhileDisconnected.addAndGet(unsent);
                log.debug("{} queued stanzas were not sent before the connection ended", unsent);
            }
            if (session == s) {
                session = null;
            }
        }
    }

    private void onEstablished(Session s) {
        if (inOutage) {
            log.info("component reconnected to {} as {} after {} failed attempts ({})", where, config.domain(),
                    failedAttempts, human(Duration.ofNanos(System.nanoTime() - outageStartNanos)));
        } else {
            log.info("component connected to {} as {}", where, config.domain());
        }
        inOutage = false;
        lastWarnedProblem = null;
        s.established = true;
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
    }

    private Attempt onServerStreamError(Session s, Element error, boolean established) {
        String condition = null;
        String text = null;
        for (Element child : error.elements()) {
            if (!NS_STREAM_ERRORS.equals(child.getNamespaceURI())) {
                continue;
            }
            if ("text".equals(child.getName())) {
                text = child.getTextTrim();
            } else if (condition == null) {
                condition = child.getName();
            }
        }
        s.closeGracefully(CLOSE_STREAM);
        if ("not-authorized".equals(condition) && !established) {
            log.error("component handshake refused: wrong secret for {} at {}", config.domain(), where);
            return new Attempt(false, true, "not-authorized", "not-authorized");
        }
        String c = condition == null ? "undefined" : condition;
        return Attempt.failed(established, "stream-error:" + c, "the server sent stream error '" + c + "'"
                + (text == null || text.isEmpty() ? "" : " (" + text + ")"));
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
        if (closed.get()) {
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
        if (name.equals("iq") && deliverAnswer(e, packet)) {
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

    /**
     * Answers a received stanza we will not hand to the component with an error of the same kind
     * (unless it is an error itself or has no sender).
     */
    private void bounce(Element original, String condition, String text) {
        String kind = original.getName();
        if (!kind.equals("message") && !kind.equals("presence") && !kind.equals("iq")) {
            return;
        }
        String from = original.attributeValue("from");
        if ("error".equals(original.attributeValue("type")) || from == null || from.isEmpty()) {
            return;
        }
        String to = original.attributeValue("to");
        DocumentFactory df = DocumentFactory.getInstance();
        Element reply = df.createElement(kind);
        reply.addAttribute("from", to == null || to.isEmpty() ? config.domain() : to);
        reply.addAttribute("to", from);
        String id = original.attributeValue("id");
        if (id != null) {
            reply.addAttribute("id", id);
        }
        reply.addAttribute("type", "error");
        Element error = reply.addElement("error");
        error.addAttribute("type", "modify");
        error.add(df.createElement(QName.get(condition, NS_STANZA_ERRORS)));
        Element textElement = df.createElement(QName.get("text", NS_STANZA_ERRORS));
        textElement.setText(text);
        error.add(textElement);
        String xml = reply.asXML();
        String problem = outgoingProblem(reply.attributeValue("from"), xml);
        if (problem != null) {
            log.debug("not answering a discarded stanza: {}", problem);
            return;
        }
        enqueue(xml);
    }

    // ---------------------------------------------------------------- helpers

    private String streamHeader() {
        return "<?xml version='1.0'?><stream:stream xmlns='" + NS_ACCEPT + "' xmlns:stream='" + NS_STREAM
                + "' to='" + escapeAttribute(config.domain()) + "'>";
    }

    private static String streamError(String condition, String text) {
        return "<stream:error><" + condition + " xmlns='" + NS_STREAM_ERRORS + "'/>"
                + (text == null ? "" : "<text xmlns='" + NS_STREAM_ERRORS + "'>" + escapeAttribute(text) + "</text>")
                + "</stream:error>";
    }

    /** Lowercase hex SHA-1 of (stream id + secret), XEP-0114 section 3. */
    static String handshakeDigest(String streamId, String secret) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            return HexFormat.of().formatHex(sha1.digest((streamId + secret).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is always available", e);
        }
    }

    /** Why the server would close the stream over this outgoing stanza, or null if it would not. */
    private String outgoingProblem(String from, String xml) {
        if (from == null || from.isEmpty()) {
            return "it has no 'from' address";
        }
        if (!domainOf(from).equalsIgnoreCase(config.domain())) {
            return "its 'from' address " + from + " is not in " + config.domain();
        }
        int bad = firstForbiddenCharacter(xml);
        if (bad >= 0) {
            return String.format("it contains the character U+%04X, which XML does not allow", bad);
        }
        return null;
    }

    static String domainOf(String jid) {
        int slash = jid.indexOf('/');
        String bare = slash >= 0 ? jid.substring(0, slash) : jid;
        int at = bare.indexOf('@');
        return at >= 0 ? bare.substring(at + 1) : bare;
    }

    /**
     * The first character (or character reference, as dom4j writes control characters as
     * {@code &#1;}) in serialized XML that XML 1.0 does not allow, or -1.
     */
    static int firstForbiddenCharacter(String xml) {
        int n = xml.length();
        for (int i = 0; i < n; i++) {
            char c = xml.charAt(i);
            if (c >= 0x20 && c < 0xD800) {
                if (c == '&' && i + 2 < n && xml.charAt(i + 1) == '#') {
                    int cp = characterReference(xml, i + 2);
                    if (cp >= 0 && !isXmlChar(cp)) {
                        return cp;
                    }
                }
                continue;
            }
            if (c == '\t' || c == '\n' || c == '\r') {
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(xml.charAt(i + 1))) {
                i++;
                continue;
            }
            if (!isXmlChar(c) || Character.isSurrogate(c)) {
                return c;
            }
        }
        return -1;
    }

    private static int characterReference(String xml, int from) {
        boolean hex = from < xml.length() && xml.charAt(from) == 'x';
        int i = hex ? from + 1 : from;
        long value = 0;
        int digits = 0;
        for (; i < xml.length() && digits < 9; i++, digits++) {
            int d = Character.digit(xml.charAt(i), hex ? 16 : 10);
            if (d < 0) {
                break;
            }
            value = value * (hex ? 16 : 10) + d;
        }
        return digits > 0 && i < xml.length() && xml.charAt(i) == ';' ? (int) Math.min(value, Integer.MAX_VALUE) : -1;
    }

    private static boolean isXmlChar(int cp) {
        return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF)
                || (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
    }

    private static String escapeAttribute(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("'", "&apos;").replace("\"", "&quot;");
    }

    private static String describe(IOException e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    private static String human(Duration d) {
        return d.toMillis() < 1000 ? d.toMillis() + " ms" : d.toSeconds() + " s";
    }

    private static String suppressedNote(long suppressed) {
        return suppressed > 0 ? " (" + suppressed + " more since the last report)" : "";
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

    /** Lets one event through per interval; {@link #acquire()} says how many were held back meanwhile. */
    static final class RateLimiter {
        private final long intervalNanos;
        private long lastNanos;
        private boolean any;
        private long suppressed;

        RateLimiter(Duration interval) {
            this.intervalNanos = interval.toNanos();
        }

        /** Returns -1 if this event should not be reported, else the number of events not reported since the last one. */
        synchronized long acquire() {
            long now = System.nanoTime();
            if (any && now - lastNanos < intervalNanos) {
                suppressed++;
                return -1;
            }
            any = true;
            lastNanos = now;
            long n = suppressed;
            suppressed = 0;
            return n;
        }
    }

    // ---------------------------------------------------------------- one connection

    /** One TCP connection: its socket, its outgoing queue and its writer thread. */
    private final class Session {
        final Socket socket = new Socket();
        final OutgoingQueue queue = new OutgoingQueue(tuning.maxQueuedChars());
        final CountDownLatch writerDone = new CountDownLatch(1);
        volatile boolean established;
        private volatile Thread writer;

        void startWriter() {
            Thread t = new Thread(this::writeLoop, "reconmuc-component-writer");
            t.setDaemon(true);
            writer = t;
            t.start();
        }

        private void writeLoop() {
            List<String> batch = new ArrayList<>();
            long keepaliveNanos = config.keepaliveInterval().toNanos();
            try {
                Writer out = new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8), 32 * 1024);
                long lastWrite = System.nanoTime();
                while (true) {
                    long wait = keepaliveNanos - (System.nanoTime() - lastWrite);
                    if (wait <= 0) {
                        out.write(' ');
                        out.flush();
                        lastWrite = System.nanoTime();
                        continue;
                    }
                    if (queue.drainTo(batch, wait) == 0) {
                        if (queue.isDone()) {
                            break;
                        }
                        continue;
                    }
                    for (String s : batch) {
                        out.write(s);
                    }
                    batch.clear();
                    if (queue.isEmpty()) {
                        out.flush();
                        lastWrite = System.nanoTime();
                    }
                }
                out.flush();
            } catch (IOException e) {
                if (!queue.isDone()) {
                    log.debug("writing to {} failed: {}", where, describe(e));
                }
                closeSocket();   // the reader thread notices and reconnects
            } catch (InterruptedException e) {
                closeSocket();
            } finally {
                writerDone.countDown();
            }
        }

        /** Queues {@code last}, waits (bounded) until the writer has written it, closes the socket. */
        void closeGracefully(String last) {
            if (queue.finish(last) && writer != null && !socket.isClosed()) {
                try {
                    if (!writerDone.await(tuning.closeFlushTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                        log.debug("could not finish writing to {} within {} ms", where, tuning.closeFlushTimeout().toMillis());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            closeSocket();
        }

        /** Closes the socket at once; returns the number of stanzas left unsent. */
        int abort() {
            int unsent = queue.discard();
            closeSocket();
            return unsent;
        }

        private void closeSocket() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
