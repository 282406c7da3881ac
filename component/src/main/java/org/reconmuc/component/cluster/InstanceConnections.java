package org.reconmuc.component.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.xmpp.component.ComponentException;

/**
 * This instance's connections to the server: those that hold (or are to take) one of the server's
 * buckets each, numbered as they open (the stanzas one brings are tagged with its number), the one
 * a clean stop sends through once the others are handed over, and which of them each room's
 * stanzas leave through.
 */
final class InstanceConnections {
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

    /** {@code c} holds a bucket no more (it is being given away). */
    void remove(ExternalComponentConnection c) {
        connections.remove(c);
    }

    /** {@code c} is closed and gone: its number is forgotten. */
    void forget(ExternalComponentConnection c) {
        numbers.remove(c);
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
        all.forEach(ExternalComponentConnection::close);
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
    ExternalComponentConnection connectionFor(String sender) {
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
        if (c == null || !c.isConnected()) {
            List<ExternalComponentConnection> up = new ArrayList<>(all.size());
            for (ExternalComponentConnection candidate : all) {
                if (candidate.isConnected()) {
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
