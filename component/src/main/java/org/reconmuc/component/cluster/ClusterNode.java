package org.reconmuc.component.cluster;

import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.LongConsumer;
import org.reconmuc.component.config.ClusterConfig;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.muc.RoomOwnership;
import org.reconmuc.component.store.RoomLeases;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.RenderedStanza;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.component.ComponentException;

/**
 * This instance among several: its component connections, its heartbeat (every third of a lease:
 * renew the leases, give up rooms taken over, adopt the connections of instances that stopped
 * beating), and the claims its rooms make.
 */
public final class ClusterNode implements RoomOwnership, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);

    private final ClusterConfig config;
    private final MucService service;
    private final RoomLeases leases;
    private final Clock clock;
    private final IntFunction<ExternalComponentConnection> connect;
    private final List<ExternalComponentConnection> connections = new CopyOnWriteArrayList<>();
    /** The connection each room's stanzas leave through (see {@link #send}). */
    private final Map<String, ExternalComponentConnection> outOf = new java.util.concurrent.ConcurrentHashMap<>();
    private final ScheduledExecutorService heartbeat;
    /** Claims and their retries, one at a time: a claim that waits holds up no room thread. */
    private final ScheduledExecutorService claims;
    private volatile long lastRenewMillis;

    /**
     * @param connect opens connection number {@code i} (its stanzas reach the service as coming through {@code i})
     */
    public ClusterNode(ClusterConfig config, MucService service, RoomLeases leases, Clock clock,
                       IntFunction<ExternalComponentConnection> connect) {
        this.config = config;
        this.service = service;
        this.leases = leases;
        this.clock = clock;
        this.connect = connect;
        this.heartbeat = daemon("cluster-heartbeat");
        this.claims = daemon("room-claims");
    }

    private static ScheduledExecutorService daemon(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Registers this instance, opens its connections and starts beating. */
    public void start() throws ComponentException, SQLException {
        leases.renew(clock.millis(), leaseMillis(), config.connections());
        lastRenewMillis = clock.millis();
        service.serveUnderLeases(this);
        open(config.connections());
        long period = Math.max(200, leaseMillis() / 3);
        heartbeat.scheduleWithFixedDelay(this::beat, period, period, TimeUnit.MILLISECONDS);
        LOG.info("instance {}: {} connections, leases of {} ms", leases.instance(), connections.size(), leaseMillis());
    }

    private long leaseMillis() {
        return config.lease().toMillis();
    }

    private void open(int more) throws ComponentException {
        for (int i = 0; i < more; i++) {
            ExternalComponentConnection c = connect.apply(connections.size());
            connections.add(c);
            c.start();
        }
    }

    private void beat() {
        long now = clock.millis();
        try {
            Map<String, Long> held = leases.renew(now, leaseMillis(), connections.size());
            lastRenewMillis = now;
            service.leasesRenewed(held);
            int adopted = leases.adoptDeadInstances(now, leaseMillis());
            if (adopted > 0) {
                LOG.warn("instance {}: an instance stopped beating; opening its {} connections here", leases.instance(),
                        adopted);
                open(adopted);
            }
        } catch (SQLException | ComponentException | RuntimeException e) {
            LOG.warn("instance {}: heartbeat failed: {}", leases.instance(), e.toString());
            if (now - lastRenewMillis > leaseMillis() * 2 / 3) {
                // Our leases may run out before we can renew them: another instance may take the rooms.
                service.giveUpAll("the shared store cannot be reached to renew the rooms' leases");
            }
        }
    }

    /**
     * The connection a room's stanzas leave through: chosen among those connected when the room
     * first sends, and kept while it stays connected, so the room's stanzas keep their order (two
     * connections are two queues: the server may interleave them). The server routes by
     * {@code to}, whichever connection a stanza comes through.
     */
    public void send(OutgoingStanza stanza) {
        ExternalComponentConnection c = connectionFor(stanza.from());
        if (c != null) {
            c.send(stanza);
        }
    }

    /** A room's broadcast, through the room's connection as {@link #send} does. */
    public void broadcast(RenderedStanza stanza, List<String> recipients) {
        ExternalComponentConnection c = connectionFor(stanza.from());
        if (c != null) {
            c.broadcast(stanza, recipients);
        }
    }

    private ExternalComponentConnection connectionFor(String from) {
        List<ExternalComponentConnection> all = connections;
        if (all.isEmpty()) {
            return null;
        }
        int slash = from == null ? -1 : from.indexOf('/');
        String room = from == null ? "" : slash < 0 ? from : from.substring(0, slash);
        ExternalComponentConnection c = outOf.get(room);
        if (c == null || !c.isConnected()) {
            List<ExternalComponentConnection> up = new ArrayList<>(all.size());
            for (ExternalComponentConnection candidate : all) {
                if (candidate.isConnected()) {
                    up.add(candidate);
                }
            }
            List<ExternalComponentConnection> choice = up.isEmpty() ? all : up;
            c = choice.get(Math.floorMod(room.hashCode(), choice.size()));
            if (c.isConnected()) {
                outOf.put(room, c);
            }
        }
        return c;
    }

    public List<ExternalComponentConnection> connections() {
        return List.copyOf(connections);
    }

    public String instance() {
        return leases.instance();
    }

    @Override
    public void claim(RoomJid room, LongConsumer decided) {
        long deadline = clock.millis() + 2 * leaseMillis() + 1_000;
        claims.execute(() -> attempt(room, deadline, decided));
    }

    /** One try; while another instance holds the room, the next in 200 ms, until the deadline. */
    private void attempt(RoomJid room, long deadline, LongConsumer decided) {
        long now = clock.millis();
        String holder = null;
        try {
            RoomLeases.Claim claim = leases.claim(room.toString(), now, leaseMillis());
            if (claim instanceof RoomLeases.Granted g) {
                decided.accept(g.epoch());
                return;
            }
            holder = ((RoomLeases.Held) claim).owner();
        } catch (SQLException | RuntimeException e) {
            LOG.warn("room {}: claim failed: {}", room, e.toString());
        }
        if (now >= deadline) {
            LOG.warn("room {}: still held by {}; not served here", room, holder);
            decided.accept(0);
            return;
        }
        try {
            claims.schedule(() -> attempt(room, deadline, decided), 200, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            decided.accept(0);
        }
    }

    @Override
    public void forgotten(RoomJid room) {
        outOf.remove(room.toString());
    }

    @Override
    public void release(RoomJid room, long epoch) {
        try {
            leases.release(room.toString(), epoch);
        } catch (SQLException e) {
            LOG.warn("room {}: release failed (its lease runs out instead): {}", room, e.toString());
        }
    }

    /**
     * A clean stop begins: no more heartbeats, and this instance is marked as stopped, so that
     * another adopts its connections at its next beat. Its leases run out within a lease unless
     * {@link #close()} gives them back sooner, however long the rest of the stop takes.
     */
    public void stopBeating() {
        heartbeat.shutdownNow();
        claims.shutdownNow();
        try {
            leases.unregister();
        } catch (SQLException e) {
            LOG.warn("instance {}: could not mark itself stopped (it is adopted a lease after its last beat): {}",
                    leases.instance(), e.toString());
        }
    }

    /** Closes the connections (what they queued is sent): nothing new comes in. */
    public void closeConnections() {
        List<ExternalComponentConnection> all = new ArrayList<>(connections);
        connections.clear();
        all.forEach(ExternalComponentConnection::close);
    }

    /**
     * Stops beating and gives every room back at once for the others: after the store committed
     * what the rooms wrote (a write after the release would find its fence gone and be dropped).
     */
    @Override
    public void close() {
        stopBeating();
        closeConnections();
        try {
            leases.releaseAll();
        } catch (SQLException e) {
            LOG.warn("instance {}: could not give the rooms back (their leases run out instead): {}", leases.instance(),
                    e.toString());
        }
        leases.close();
    }
}
