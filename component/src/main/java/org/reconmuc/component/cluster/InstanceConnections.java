package org.reconmuc.component.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.component.ComponentException;

/**
 * This instance's connections to the server: those that hold (or are to take) one of the server's
 * buckets each, numbered as they open (the stanzas one brings are tagged with its number), the one
 * a clean stop sends through once the others are handed over, and which of them each room's
 * stanzas leave through.
 */
final class InstanceConnections {
    private static final Logger LOG = LoggerFactory.getLogger(InstanceConnections.class);
    /**
     * How long a room whose connection is being given away waits for it to have written what the
     * room queued there, before sending on through another (its close takes milliseconds; it
     * waits longer only for a server that stopped reading).
     */
    private static final Duration ORDER_WAIT = Duration.ofSeconds(5);
    /** How long giving a connection away waits for the sends that chose it to have queued their stanzas. */
    private static final Duration QUEUED_WAIT = Duration.ofSeconds(10);

    private final IntFunction<ExternalComponentConnection> connect;
    /** The connections that hold (or are to take) one of the server's buckets each. */
    private final List<ExternalComponentConnection> connections = new CopyOnWriteArrayList<>();
    /** Each connection's number: the stanzas it brings are tagged with it ({@code MucService.processPacket}). */
    private final Map<ExternalComponentConnection, Integer> numbers = new ConcurrentHashMap<>();
    private final AtomicInteger nextNumber = new AtomicInteger();
    /**
     * During a clean stop, a connection beyond the server's buckets (it gets none, so brings
     * nothing) that what the rooms still send leaves through once their own connections are handed over.
     */
    private volatile ExternalComponentConnection departures;
    /** Connections closed without being handed over: whoever adopts this instance opens as many. */
    private volatile int closedUnhandedOver;
    /** The connection each room's stanzas leave through (see {@link #connectionFor}). */
    private final Map<String, ExternalComponentConnection> outOf = new ConcurrentHashMap<>();
    /** Per connection, the sends that chose it and have not yet queued their stanzas there (see {@link #send}). */
    private final Map<ExternalComponentConnection, AtomicInteger> queuing = new ConcurrentHashMap<>();

    /** @param connect opens connection number {@code i} (its stanzas reach the service as coming through {@code i}) */
    InstanceConnections(IntFunction<ExternalComponentConnection> connect) {
        this.connect = connect;
    }

    /** Opens {@code more} connections, each to hold a bucket. */
    void open(int more) throws ComponentException {
        for (int i = 0; i < more; i++) {
            ExternalComponentConnection c = newConnection();
            connections.add(c);
            c.start();
        }
    }

    /** A new numbered connection, not started, not yet among those holding buckets. */
    ExternalComponentConnection newConnection() {
        int number = nextNumber.getAndIncrement();
        ExternalComponentConnection c = connect.apply(number);
        numbers.put(c, number);
        return c;
    }

    /** {@code c} holds a bucket from now on. */
    void add(ExternalComponentConnection c) {
        connections.add(c);
    }

    /**
     * {@code c} holds a bucket no more (it is being given away, to be closed next): no stanza is
     * sent through it from now on, and those that chose it before have been queued there when this
     * returns — so its close sends them, and refuses nothing a room counts as sent.
     */
    void remove(ExternalComponentConnection c) {
        connections.remove(c);
        awaitQueued(c);
    }

    /** {@code c} is closed and gone: its number is forgotten. */
    void forget(ExternalComponentConnection c) {
        numbers.remove(c);
        queuing.remove(c);
    }

    Integer number(ExternalComponentConnection c) {
        return numbers.get(c);
    }

    int size() {
        return connections.size();
    }

    List<ExternalComponentConnection> all() {
        return List.copyOf(connections);
    }

    /** The numbers of the connections that hold buckets now. */
    List<Integer> numbers() {
        List<Integer> all = new ArrayList<>();
        connections.forEach(c -> all.add(numbers.get(c)));
        return all;
    }

    /**
     * The numbers of every connection not yet forgotten: those holding buckets, one being given
     * away or closed and not yet forgotten, a taker's waiting at its handshake, a clean stop's departures.
     */
    Set<Integer> known() {
        return Set.copyOf(numbers.values());
    }

    /** Connection {@code number}, or for -1 the newest one beyond {@code share}; null if none. */
    ExternalComponentConnection toGive(int number, int share) {
        List<ExternalComponentConnection> now = new ArrayList<>(connections);
        if (number >= 0) {
            return now.stream().filter(c -> numbers.get(c) == number).findFirst().orElse(null);
        }
        return now.size() > share ? now.get(now.size() - 1) : null;
    }

    /** The connection a clean stop sends through; null while not stopping. */
    ExternalComponentConnection departures() {
        return departures;
    }

    void departures(ExternalComponentConnection out) {
        departures = out;
    }

    /** One more bucket is left empty by this instance (whoever adopts it fills it). */
    void leftEmpty() {
        closedUnhandedOver++;
    }

    int closedUnhandedOver() {
        return closedUnhandedOver;
    }

    /**
     * Closes the connections still holding buckets (what they queued is sent): nothing new comes
     * in. The departures' connection stays open.
     */
    void closeAll() {
        List<ExternalComponentConnection> all = new ArrayList<>(connections);
        connections.clear();
        closedUnhandedOver += all.size();
        all.forEach(this::awaitQueued);
        all.forEach(ExternalComponentConnection::close);
    }

    /** True while {@code c} may carry stanzas: it holds a bucket, or it is a clean stop's departures. */
    private boolean carrying(ExternalComponentConnection c) {
        return c == departures || connections.contains(c);
    }

    /**
     * Hands {@code send} the connection {@code sender}'s stanzas leave through ({@link #connectionFor}),
     * never one being given away: a connection refuses what it is given once its close has begun,
     * and a room would count what it refused as sent (a relaxed occupant's delivery position, which
     * the room's next owner trusts). {@code send} runs while the connection is counted as chosen,
     * which {@link #remove} waits for. A room whose connection is being given away waits until
     * that connection has written what the room queued there, so its stanzas keep their order.
     */
    void send(String sender, Consumer<ExternalComponentConnection> send) {
        while (true) {
            ExternalComponentConnection before = outOf.get(sender);
            if (before != null && !carrying(before) && sender.indexOf('@') >= 0 && !before.awaitClosed(ORDER_WAIT)) {
                LOG.warn("{}: the connection it sent through took more than {} s to close; what it sends next may"
                        + " overtake what it queued there", sender, ORDER_WAIT.toSeconds());
            }
            ExternalComponentConnection c = connectionFor(sender);
            if (c == null) {
                return;
            }
            AtomicInteger chosen = queuing.computeIfAbsent(c, k -> new AtomicInteger());
            chosen.incrementAndGet();
            try {
                // Checked after counting, as remove() waits after removing: one of the two sees the other.
                if (carrying(c)) {
                    send.accept(c);
                    return;
                }
            } finally {
                chosen.decrementAndGet();
            }
        }
    }

    private void awaitQueued(ExternalComponentConnection c) {
        AtomicInteger chosen = queuing.get(c);
        long deadline = System.nanoTime() + QUEUED_WAIT.toNanos();
        while (chosen != null && chosen.get() > 0) {
            if (System.nanoTime() > deadline) {
                LOG.warn("a stanza has waited {} s to be queued on a connection being closed; it may be refused",
                        QUEUED_WAIT.toSeconds());
                return;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** {@code sender} (a room) is no longer in memory here: its next stanza chooses its connection afresh. */
    void forgotten(String sender) {
        outOf.remove(sender);
    }

    /**
     * The connection a room's stanzas leave through ({@code sender}: the room, or the service):
     * chosen among those connected when the room first sends, and kept while it stays connected,
     * so the room's stanzas keep their order (two connections are two queues: the server may
     * interleave them). The server routes by {@code to}, whichever connection a stanza comes through.
     */
    private ExternalComponentConnection connectionFor(String sender) {
        List<ExternalComponentConnection> all = connections;
        ExternalComponentConnection out = departures;
        if (out != null) {
            all = new ArrayList<>(all);
            all.add(out);
        }
        if (all.isEmpty()) {
            return null;
        }
        ExternalComponentConnection c = outOf.get(sender);
        if (c == null || !c.isConnected() || c.isClosing() || !carrying(c)) {
            List<ExternalComponentConnection> up = new ArrayList<>(all.size());
            for (ExternalComponentConnection candidate : all) {
                if (candidate.isConnected() && !candidate.isClosing()) {
                    up.add(candidate);
                }
            }
            List<ExternalComponentConnection> choice = up.isEmpty() ? all : up;
            c = choice.get(Math.floorMod(sender.hashCode(), choice.size()));
            if (c.isConnected()) {
                outOf.put(sender, c);
            }
        }
        return c;
    }
}
