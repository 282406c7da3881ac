package org.reconmuc.component.transport;

import static org.reconmuc.component.transport.LogThrottle.suppressedNote;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.packet.Packet;

/**
 * What a connection sends: checked first (a stanza the server would close the stream over is
 * refused, counted and logged), then queued in the {@link OutgoingQueue} that outlives
 * connections — as it is, or through the server's XEP-0033 multicast service ({@link
 * ServerMulticast}) once one was found for this connection. Counts what it queued, refused and
 * multicast.
 */
final class OutboundStanzas {
    private static final Logger log = LoggerFactory.getLogger(OutboundStanzas.class);

    private final String domain;
    private final String where;
    private final OutgoingQueue queue;
    private final ConnectionState state;
    /** The thread that reads the server's stream: it never waits for room at the bound (see {@link #enqueue}). */
    private final Supplier<Thread> reader;

    private final AtomicLong droppedAfterClose = new AtomicLong();
    private final AtomicLong droppedInvalid = new AtomicLong();
    private final AtomicLong reportedEvictions = new AtomicLong();
    private final AtomicLong stanzasQueued = new AtomicLong();
    private final AtomicLong multicastStanzas = new AtomicLong();
    private final AtomicLong multicastCopies = new AtomicLong();
    /** The server's XEP-0033 service broadcasts go through, or null: a copy each. */
    private volatile ServerMulticast.Service multicast;
    private final LogThrottle evictionWarnings = new LogThrottle(Duration.ofSeconds(10));
    private final LogThrottle invalidWarnings = new LogThrottle(Duration.ofSeconds(10));

    OutboundStanzas(String domain, String where, OutgoingQueue queue, ConnectionState state, Supplier<Thread> reader) {
        this.domain = domain;
        this.where = where;
        this.queue = queue;
        this.state = state;
        this.reader = reader;
    }

    /** Serializes the packet now and queues it; true if queued. */
    boolean send(Packet packet) {
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

    /** See {@link ExternalComponentConnection#send(OutgoingStanza)}. */
    boolean send(OutgoingStanza stanza) {
        String problem = StreamXml.outgoingProblem(domain, stanza.from(), stanza.forbiddenCharacter());
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

    /** See {@link ExternalComponentConnection#broadcast}. */
    boolean broadcast(RenderedStanza stanza, List<String> recipients) {
        ServerMulticast.Service m = multicast;
        if (m == null || !stanza.multicastable() || recipients.size() < 2 && m.inOrder()) {
            boolean queued = true;
            for (String recipient : recipients) {
                queued &= send(stanza.to(recipient));
            }
            return queued;
        }
        String problem = StreamXml.outgoingProblem(domain, stanza.from(), stanza.forbiddenCharacter());
        if (problem != null) {
            return send(stanza.to(recipients.get(0)));   // dropped there, and said why
        }
        return enqueueMulticast(m.render(stanza, recipients), recipients.size());
    }

    private boolean enqueueMulticast(List<String> stanzas, int copies) {
        // Counted before they are queued: once queued, a stanza may reach its recipients before this
        // thread runs again, and whoever sees a copy arrive must find it counted. What is refused is taken off.
        multicastStanzas.addAndGet(stanzas.size());
        multicastCopies.addAndGet(copies);
        int refused = 0;
        for (String xml : stanzas) {
            if (!enqueue(xml)) {
                refused++;
            }
        }
        if (refused > 0) {
            multicastStanzas.addAndGet(-refused);
            multicastCopies.addAndGet(-(long) copies * refused / stanzas.size());
        }
        return refused == 0;
    }

    /** Queues text already checked (or made by the connection itself); true if queued. */
    boolean enqueue(String xml) {
        if (state.closed()) {
            droppedAfterClose.incrementAndGet();
            log.debug("connection closed: dropping an outgoing stanza");
            return false;
        }
        // The reader thread must keep reading (and answering) whatever the server does: it only
        // waits at twice the bound. Everyone else waits at the bound.
        boolean mayWait = Thread.currentThread() != reader.get();
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

    /** Broadcasts go through {@code service} from now on (null: a copy each). */
    void multicastThrough(ServerMulticast.Service service) {
        multicast = service;
    }

    ServerMulticast.Service multicast() {
        return multicast;
    }

    /** {@code count} stanzas that were still queued when the connection closed. */
    void droppedAtClose(int count) {
        droppedAfterClose.addAndGet(count);
    }

    long droppedAfterClose() {
        return droppedAfterClose.get();
    }

    long droppedInvalid() {
        return droppedInvalid.get();
    }

    long stanzasQueued() {
        return stanzasQueued.get();
    }

    long multicastStanzas() {
        return multicastStanzas.get();
    }

    long multicastCopies() {
        return multicastCopies.get();
    }
}
