package org.reconmuc.component.cluster;

import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.reconmuc.component.config.ClusterConfig;
import org.reconmuc.component.store.LeaseStore;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.RenderedStanza;
import org.reconmuc.component.transport.Termination;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.component.ComponentException;

/**
 * This instance among several: it takes its instance lock, registers, opens its connections
 * ({@link InstanceConnections}) and runs four threads, each with a store connection of its own so
 * that none waits for another or for a room's commit. The renewal keeps the leases (every third
 * of a lease: one update of this instance's heartbeat) and gives up rooms taken over; the claims'
 * thread claims rooms (both {@link RoomLeasing}); the watch adopts the connections of dead
 * instances (where the store tells death for certain, those whose instance lock it can take,
 * checked every {@value #DEATH_WATCH_MILLIS} ms, so a late heartbeat never makes a live instance
 * look dead); the hand-over moves buckets between live instances ({@link BucketHandOvers}). What
 * the rooms send passes a {@link LeaseGate}: nothing leaves for them while this instance's own
 * clock says their leases may have run out, until a renewal says which are still ours.
 */
public final class ClusterNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);
    /** How often the watch looks for dead instances when their death is certain (a try of each one's lock). */
    static final long DEATH_WATCH_MILLIS = 200;
    /** How often an instance looks for buckets to hand over or take. */
    static final long HAND_OVER_LOOK_MILLIS = 200;
    /** Room stanzas that may wait for a renewal before the rooms sending them wait too. */
    private static final int MAX_WAITING_STANZAS = 65_536;

    private final ClusterConfig config;
    private final ClusteredService service;
    /** The service's rooms as served under this instance's leases (from {@link #start()}). */
    private volatile LeasedRooms<?> leased;
    /** The watch thread's store connection. */
    private final LeaseStore watch;
    private final LeaseStore.AliveLock alive;
    private final Clock clock;
    private final InstanceConnections connections;
    private final RoomLeasing leases;
    private final BucketHandOvers handOvers;
    /** Counted down when this instance is closed. */
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final LeaseGate gate;
    /** Sends what waited in the gate once a renewal confirms the leases. */
    private final ScheduledExecutorService releasing;
    private final ScheduledExecutorService renewing;
    private final ScheduledExecutorService watching;
    /** Buckets handed over between live instances (a clean stop, a new instance's share). */
    private final ScheduledExecutorService handingOver;
    /** Claims and their retries, one at a time: a claim that waits holds up no room thread. */
    private final ScheduledExecutorService claims;
    /** The store connections, closed last. */
    private final List<LeaseStore> stores;

    /**
     * @param leases  opens this instance's lease connections ({@code store.leases(instance)}: one per thread)
     * @param connect opens connection number {@code i} (its stanzas reach the service as coming through {@code i})
     */
    public ClusterNode(ClusterConfig config, ClusteredService service, Supplier<LeaseStore> leases,
                       Clock clock, IntFunction<ExternalComponentConnection> connect) {
        this.config = config;
        this.service = service;
        LeaseStore renewal = leases.get();
        this.watch = leases.get();
        LeaseStore claiming = leases.get();
        LeaseStore handing = leases.get();
        this.stores = List.of(renewal, watch, claiming, handing);
        this.alive = renewal.instanceLock();
        this.clock = clock;
        this.connections = new InstanceConnections(connect);
        this.releasing = daemon("lease-gate-release");
        this.gate = new LeaseGate(clock, this::sendNow, MAX_WAITING_STANZAS, releasing);
        this.renewing = daemon("lease-renewal");
        this.watching = daemon("cluster-watch");
        this.claims = daemon("room-claims");
        this.handingOver = daemon("bucket-hand-over");
        this.leases = new RoomLeasing(leaseMillis(), clock, renewal, claiming, alive, gate, connections, claims);
        this.handOvers = new BucketHandOvers(config, clock, handing, connections, number -> leased.handOver(number),
                this::renewSoon);
    }

    private static ScheduledExecutorService daemon(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Takes this instance's lock, registers it, opens its connections and starts renewing and watching. */
    public void start() throws ComponentException, SQLException {
        alive.hold();   // before the instance is registered: a registered instance without its lock looks dead
        leased = service.serveUnderLeases(leases);
        leases.serving(leased);
        leases.renew(config.connections());
        // Buckets another instance adopted are full: connections of ours would get none. Ask for
        // them back (they come over one by one, see BucketHandOvers), and open the rest at once.
        int asked = handOvers.askForShare();
        connections.open(config.connections() - asked);
        long period = Math.max(200, leaseMillis() / 3);
        renewing.scheduleWithFixedDelay(this::renew, period, period, TimeUnit.MILLISECONDS);
        long look = watch.tellsDeathForCertain() ? DEATH_WATCH_MILLIS : period;
        watching.scheduleWithFixedDelay(this::adoptDeadInstances, look, look, TimeUnit.MILLISECONDS);
        handingOver.scheduleWithFixedDelay(handOvers::look, 0, HAND_OVER_LOOK_MILLIS, TimeUnit.MILLISECONDS);
        LOG.info("instance {}: {} connections (asked {} back from instances that adopted them), leases of {} ms,"
                + " death told {}", instance(), connections.size(), asked, leaseMillis(),
                watch.tellsDeathForCertain() ? "by its instance lock" : "by a heartbeat a lease old");
    }

    private long leaseMillis() {
        return config.lease().toMillis();
    }

    /**
     * The first part of a clean stop, while this instance still serves its rooms: each of its
     * connections' buckets is offered to the other instances and handed over to whichever takes it
     * ({@link BucketHandOvers#giveAllForStop}), its rooms released after their last writes; what
     * the rooms send meanwhile and afterwards leaves through a connection beyond the server's
     * buckets, open until {@link #close()}. The buckets nobody took are closed by
     * {@link #closeConnections()} and adopted as a dead instance's. Returns how many buckets were handed over.
     */
    public int handOverForStop() {
        watching.shutdownNow();   // no adoptions while stopping
        handingOver.shutdownNow();
        try {
            handingOver.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
        return handOvers.giveAllForStop();
    }

    /** A renewal now, on the renewal's thread: the heartbeat tells how many connections this instance holds. */
    private void renewSoon() {
        try {
            renewing.execute(this::renew);
        } catch (RejectedExecutionException stopping) {
            // no more renewals: the stop unregisters this instance with what it still holds
        }
    }

    private void renew() {
        try {
            leases.renew(connections.size());
        } catch (SQLException | RuntimeException e) {
            LOG.warn("instance {}: renewing the leases failed (the rooms' stanzas wait once they run out): {}",
                    instance(), e.toString());
        }
    }

    private void adoptDeadInstances() {
        try {
            LeaseStore.Adoption adopted = watch.adoptDeadInstances(clock.millis(), leaseMillis());
            if (adopted.connections() > 0 || !adopted.rooms().isEmpty()) {
                LOG.warn("instance {}: an instance is gone ({}); opening its {} connections here and taking its {} rooms",
                        instance(), watch.tellsDeathForCertain() ? "its instance lock was free" : "it stopped beating",
                        adopted.connections(), adopted.rooms().size());
                // Claimed and loaded now, while the connections open: their stanzas come here next.
                leased.takeOver(adopted.rooms());
                connections.open(adopted.connections());
            }
        } catch (SQLException | ComponentException | RuntimeException e) {
            LOG.warn("instance {}: looking for dead instances failed: {}", instance(), e.toString());
        }
    }

    /** Sends a stanza of the service or of a room, through the {@link LeaseGate}. */
    public void send(OutgoingStanza stanza) {
        String sender = senderOf(stanza.from());
        gate.send(sender, stanza);
    }

    /** A room's broadcast, through the {@link LeaseGate} and the room's connection as {@link #send} does. */
    public void broadcast(RenderedStanza stanza, List<String> recipients) {
        String sender = senderOf(stanza.from());
        gate.send(sender, new LeaseGate.Departure(stanza.error(),
                () -> connections.send(sender, c -> c.broadcast(stanza, recipients))));
    }

    /**
     * Runs {@code then} once what {@code from} sent before has been written by its connection: in
     * order with its stanzas through the {@link LeaseGate}, so never for a room found taken over.
     */
    public void whenWritten(String from, Runnable then) {
        String sender = senderOf(from);
        gate.send(sender, new LeaseGate.Departure(false, () -> connections.send(sender, c -> c.whenWritten(then))));
    }

    /** The bare address a stanza comes from: its room's, or the service's. */
    private static String senderOf(String from) {
        int slash = from == null ? -1 : from.indexOf('/');
        return from == null ? "" : slash < 0 ? from : from.substring(0, slash);
    }

    private void sendNow(String sender, OutgoingStanza stanza) {
        connections.send(sender, c -> c.send(stanza));
    }

    public List<ExternalComponentConnection> connections() {
        return connections.all();
    }

    public String instance() {
        return watch.instance();
    }

    /**
     * Blocks until this instance is closed, or the server refused a connection's secret. Its
     * connections come and go (buckets handed over), so no one connection's end says.
     */
    public Termination awaitTermination() throws InterruptedException {
        while (!stopped.await(200, TimeUnit.MILLISECONDS)) {
            for (ExternalComponentConnection c : connections.all()) {
                if (c.termination() == Termination.AUTHENTICATION_FAILED) {
                    return c.termination();
                }
            }
        }
        return Termination.CLOSED;
    }

    /** True while the rooms' stanzas wait for a renewal (this instance's leases may have run out); read by InstanceFailureIT. */
    boolean holdingRoomStanzas() {
        return gate.holding();
    }

    /**
     * A clean stop begins: no more renewals, watching or claims. Its leases run out within a lease
     * unless {@link #close()} gives them back sooner, however long the rest of the stop takes.
     */
    public void stopBeating() {
        renewing.shutdownNow();
        watching.shutdownNow();
        handingOver.shutdownNow();
        claims.shutdownNow();
    }

    /**
     * Closes the connections still holding buckets (what they queued is sent): nothing new comes
     * in. The one that what the rooms send leaves through after a hand-over stays open until
     * {@link #close()}.
     */
    public void closeConnections() {
        connections.closeAll();
    }

    /**
     * Ends a clean stop, after the store committed what the rooms wrote (a write after the
     * release would find its fence gone and be dropped) and the connections are closed (a
     * survivor's connection opened while ours still hold the server's buckets would get none):
     * every room is given back, this instance is marked stopped and its lock freed, so another
     * adopts the connections it closed without handing them over at its next look.
     */
    @Override
    public void close() {
        stopBeating();
        try {
            // A renewal under way would write its heartbeat, and a connection count from before the
            // hand-over, after the unregistering below: whoever adopts this instance would open as many.
            renewing.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeConnections();
        leases.releaseAll(connections.closedUnhandedOver());
        ExternalComponentConnection out = connections.departures();
        if (out != null) {
            out.close();   // after the rooms' last stanzas
        }
        releasing.shutdownNow();
        alive.close();
        stores.forEach(LeaseStore::close);
        stopped.countDown();
    }
}
