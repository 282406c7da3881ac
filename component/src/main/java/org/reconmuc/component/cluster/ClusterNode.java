package org.reconmuc.component.cluster;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.LongConsumer;
import org.reconmuc.component.config.ClusterConfig;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.muc.LeasedRooms;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.muc.RoomOwnership;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.RenderedStanza;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.component.ComponentException;

/**
 * This instance among several: its component connections, and four threads, each with a store
 * connection of its own so that none waits for another or for a room's commit. The hand-over
 * moves buckets between live instances (a clean stop gives its own away, a new instance takes
 * its share back: {@link #handOverBuckets}). The renewal keeps
 * the leases (every third of a lease: one update of this instance's heartbeat) and gives up rooms
 * taken over; the watch adopts the connections of dead instances (on PostgreSQL: those whose
 * instance lock ({@link LeaseStore#instanceLock}) it can take, checked every {@value #DEATH_WATCH_MILLIS} ms, so a late
 * heartbeat never makes a live instance look dead); the claims' thread claims rooms. What the
 * rooms send passes a {@link LeaseGate}: nothing leaves for them while this instance's own clock
 * says their leases may have run out, until a renewal says which are still ours.
 */
public final class ClusterNode implements RoomOwnership, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);
    /** How often the watch looks for dead instances when their death is certain (a try of each one's lock). */
    static final long DEATH_WATCH_MILLIS = 200;
    /** How often an instance looks for buckets to hand over or take. */
    static final long HAND_OVER_LOOK_MILLIS = 200;
    /**
     * How often a taker whose connection waits at its handshake asks whether the bucket is empty
     * yet: the bucket drops its stanzas from the giver's close until the taker has authenticated.
     */
    static final long VACANCY_POLL_MILLIS = 2;
    /**
     * How long a giver whose connection closed without the server's end of stream waits before it
     * calls the bucket vacant: a taker that authenticates before the server has dropped the giver's
     * connection gets no bucket at all.
     */
    static final long VACANCY_MARGIN_MILLIS = 100;
    /** Room stanzas that may wait for a renewal before the rooms sending them wait too. */
    private static final int MAX_WAITING_STANZAS = 65_536;

    private final ClusterConfig config;
    private final MucService service;
    /** The service's rooms as served under this instance's leases (from {@link #start()}). */
    private volatile LeasedRooms leased;
    /** The renewal thread's. */
    private final LeaseStore renewal;
    /** The watch thread's. */
    private final LeaseStore watch;
    /** The claims thread's (and releases, from the rooms' threads). */
    private final LeaseStore claiming;
    private final LeaseStore.AliveLock alive;
    private final Clock clock;
    private final IntFunction<ExternalComponentConnection> connect;
    /** The connections that hold (or are to take) one of the server's buckets each. */
    private final List<ExternalComponentConnection> connections = new CopyOnWriteArrayList<>();
    /** Each connection's number: the stanzas it brings are tagged with it ({@link MucService#processPacket}). */
    private final Map<ExternalComponentConnection, Integer> numbers = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger nextNumber = new java.util.concurrent.atomic.AtomicInteger();
    /**
     * During a clean stop, a connection beyond the server's buckets (it gets none, so brings
     * nothing) that what the rooms still send leaves through once their own connections are handed over.
     */
    private volatile ExternalComponentConnection departures;
    /** Counted down when this instance is closed. */
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    /** Connections closed without being handed over: whoever adopts this instance opens as many. */
    private volatile int closedUnhandedOver;
    /** The connection each room's stanzas leave through (see {@link #send}). */
    private final Map<String, ExternalComponentConnection> outOf = new java.util.concurrent.ConcurrentHashMap<>();
    private final LeaseGate gate;
    /** Sends what waited in the gate once a renewal confirms the leases. */
    private final ScheduledExecutorService releasing;
    private final ScheduledExecutorService renewing;
    private final ScheduledExecutorService watching;
    /** Buckets handed over between live instances (a clean stop, a new instance's share), and its store connection. */
    private final ScheduledExecutorService handingOver;
    private final LeaseStore handOvers;
    /** Claims and their retries, one at a time: a claim that waits holds up no room thread. */
    private final ScheduledExecutorService claims;
    /** Rooms granted to this instance, with the claim's serial number (see {@link #renewNow}). */
    private final Map<String, long[]> grants = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong grantSerial = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @param leases  opens this instance's lease connections ({@code store.leases(instance)}: one per thread)
     * @param connect opens connection number {@code i} (its stanzas reach the service as coming through {@code i})
     */
    public ClusterNode(ClusterConfig config, MucService service, java.util.function.Supplier<LeaseStore> leases,
                       Clock clock, IntFunction<ExternalComponentConnection> connect) {
        this.config = config;
        this.service = service;
        this.renewal = leases.get();
        this.watch = leases.get();
        this.claiming = leases.get();
        this.handOvers = leases.get();
        this.alive = renewal.instanceLock();
        this.clock = clock;
        this.connect = connect;
        this.releasing = daemon("lease-gate-release");
        this.gate = new LeaseGate(clock, this::sendNow, MAX_WAITING_STANZAS, releasing);
        this.renewing = daemon("lease-renewal");
        this.watching = daemon("cluster-watch");
        this.claims = daemon("room-claims");
        this.handingOver = daemon("bucket-hand-over");
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
        leased = service.serveUnderLeases(this);
        renewNow(config.connections());
        // Buckets another instance adopted are full: connections of ours would get none. Ask for
        // them back (they come over one by one, see handOverBuckets), and open the rest at once.
        int asked = handOvers.askForShare(config.connections(), config.connections(), clock.millis());
        open(config.connections() - asked);
        long period = Math.max(200, leaseMillis() / 3);
        renewing.scheduleWithFixedDelay(this::renew, period, period, TimeUnit.MILLISECONDS);
        long look = renewal.tellsDeathForCertain() ? DEATH_WATCH_MILLIS : period;
        watching.scheduleWithFixedDelay(this::adoptDeadInstances, look, look, TimeUnit.MILLISECONDS);
        handingOver.scheduleWithFixedDelay(this::handOverBuckets, 0, HAND_OVER_LOOK_MILLIS, TimeUnit.MILLISECONDS);
        LOG.info("instance {}: {} connections (asked {} back from instances that adopted them), leases of {} ms,"
                + " death told {}", instance(), connections.size(), asked, leaseMillis(),
                renewal.tellsDeathForCertain() ? "by its instance lock" : "by a heartbeat a lease old");
    }

    private long leaseMillis() {
        return config.lease().toMillis();
    }

    /**
     * Until when leases renewed at {@code renewedAt} surely run, by this clock: a lease, less a
     * tenth for the instances' clocks to differ by and the renewal's own transaction to take.
     */
    private long leasesRunUntil(long renewedAt) {
        return renewedAt + leaseMillis() - leaseMillis() / 10;
    }

    private void open(int more) throws ComponentException {
        for (int i = 0; i < more; i++) {
            ExternalComponentConnection c = newConnection();
            connections.add(c);
            c.start();
        }
    }

    private ExternalComponentConnection newConnection() {
        int number = nextNumber.getAndIncrement();
        ExternalComponentConnection c = connect.apply(number);
        numbers.put(c, number);
        return c;
    }

    // ---- buckets handed over between live instances ----------------------------------------------

    /**
     * One look: gives the connections whose takers wait at their handshake, then takes the next
     * bucket offered to this instance or asked for by it. ejabberd gives a connection a bucket
     * only if one is empty when its handshake succeeds, and drops a bucket's stanzas while it is
     * empty, so a bucket moves as: the taker connects and waits at its handshake; the giver
     * closes its connection (reading what the server sent until the server ends the stream, which
     * it does once it has dropped the connection's bucket), marks the bucket vacant and lets its
     * rooms go (each after its last writes, so the taker claims it then); the taker, asking every
     * {@value #VACANCY_POLL_MILLIS} ms, authenticates and takes the bucket. Stanzas for the rooms
     * that reach the taker before their leases are released wait for the claim, in order.
     */
    private void handOverBuckets() {
        try {
            giveReadyBuckets();
            LeaseStore.HandOver next = handOvers.nextToTake();
            if (next != null) {
                take(next);
            } else if (connections.size() < config.connections() && !handOvers.taking()) {
                // short of its share (a giver did not answer, or refused): ask again
                handOvers.askForShare(config.connections() - connections.size(), config.connections(), clock.millis());
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("instance {}: handing buckets over failed: {}", instance(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Gives the buckets whose takers are ready; returns how many. */
    private int giveReadyBuckets() throws SQLException {
        int given = 0;
        for (LeaseStore.HandOver h : handOvers.readyToGive()) {
            ExternalComponentConnection c = connectionToGive(h.connection());
            if (c == null) {
                handOvers.endHandOver(h.id());   // nothing over its share left to give: the taker stops waiting
                continue;
            }
            int number = numbers.get(c);
            connections.remove(c);
            long closing = System.nanoTime();
            c.close();
            long closed = System.nanoTime();
            if (!c.serverEndedStream()) {
                sleepQuietly(VACANCY_MARGIN_MILLIS);   // the socket closed without the server's end: a margin
            }
            boolean taken = handOvers.vacated(h.id());
            long vacant = System.nanoTime();
            numbers.remove(c);
            leased.handOver(number);
            given++;
            if (!taken) {
                refill(h);
            }
            LOG.info("instance {}: gave connection {}'s bucket ({}): closed in {} ms, marked vacant {} ms later{}",
                    instance(), number, h.id(), (closed - closing) / 1_000_000, (vacant - closed) / 1_000_000,
                    c.serverEndedStream() ? "" : " (the server did not end the stream in time)");
            renewSoon();
        }
        return given;
    }

    /**
     * The taker of {@code h} gave up after this instance had closed its connection: the bucket is
     * empty and nobody is about to fill it, so this instance does (while it runs; stopping, it
     * leaves the bucket for whoever adopts it).
     */
    private void refill(LeaseStore.HandOver h) {
        LOG.warn("instance {}: the taker of bucket {} gave up after it was emptied; filling it here", instance(), h.id());
        if (departures != null) {
            closedUnhandedOver++;
            return;
        }
        try {
            open(1);
        } catch (ComponentException e) {
            LOG.warn("instance {}: cannot fill bucket {} again: {}", instance(), h.id(), e.toString());
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Connection {@code number}, or for -1 the newest one beyond this instance's share; null if none. */
    private ExternalComponentConnection connectionToGive(int number) {
        List<ExternalComponentConnection> now = new ArrayList<>(connections);
        if (number >= 0) {
            return now.stream().filter(c -> numbers.get(c) == number).findFirst().orElse(null);
        }
        return now.size() > config.connections() ? now.get(now.size() - 1) : null;
    }

    /** Takes one bucket: connects, waits at the handshake until the giver has emptied the bucket, authenticates. */
    private void take(LeaseStore.HandOver h) throws SQLException, InterruptedException {
        ExternalComponentConnection c = newConnection();
        c.holdHandshake();
        try {
            c.start();
        } catch (ComponentException e) {
            LOG.warn("instance {}: cannot take bucket {}: {}", instance(), h.id(), e.toString());
            handOvers.endHandOver(h.id());
            return;
        }
        if (!c.awaitReadyForHandshake(Duration.ofSeconds(10))) {
            LOG.warn("instance {}: cannot take bucket {}: the server did not open a stream", instance(), h.id());
            c.close();
            handOvers.endHandOver(h.id());
            return;
        }
        handOvers.readyToTake(h.id());
        long deadline = clock.millis() + 2 * leaseMillis() + 10_000;
        Boolean vacant;
        try {
            vacant = handOvers.vacant(h.id());
            while (Boolean.FALSE.equals(vacant) && clock.millis() < deadline) {
                Thread.sleep(VACANCY_POLL_MILLIS);
                vacant = handOvers.vacant(h.id());
            }
        } catch (InterruptedException e) {
            // This instance is stopping. A bucket emptied already is taken and handed over with the
            // rest; else the giver keeps its bucket (it fills it again if it emptied it meanwhile).
            if (Boolean.TRUE.equals(handOvers.vacant(h.id()))) {
                c.releaseHandshake();
                connections.add(c);
            } else {
                c.close();
            }
            handOvers.endHandOver(h.id());
            throw e;
        }
        if (!Boolean.TRUE.equals(vacant)) {
            LOG.warn("instance {}: bucket {} was not handed over ({}); closing the connection that waited for it",
                    instance(), h.id(), vacant == null ? "withdrawn" : "its giver did not empty it in time");
            c.close();
            handOvers.endHandOver(h.id());
            return;
        }
        long vacantSeen = System.nanoTime();
        c.releaseHandshake();
        connections.add(c);
        boolean connected = c.awaitConnected(Duration.ofSeconds(10));
        long authenticated = (System.nanoTime() - vacantSeen) / 1_000_000;
        handOvers.endHandOver(h.id());
        LOG.info("instance {}: took bucket {} from {} as connection {} ({})", instance(), h.id(), h.giver(),
                numbers.get(c), connected ? "authenticated " + authenticated + " ms after it was seen vacant"
                        : "not connected yet");
        renewSoon();
    }

    /**
     * The first part of a clean stop, while this instance still serves its rooms: each of its
     * connections' buckets is offered to the other instances and handed over to whichever takes it
     * (see {@link #handOverBuckets}), its rooms released after their last writes; what the rooms
     * send meanwhile and afterwards leaves through a connection beyond the server's buckets, open
     * until {@link #close()}. Gives up, for the buckets nobody took, after two leases and ten
     * seconds (they are then closed by {@link #closeConnections()} and adopted as a dead
     * instance's). Returns how many buckets were handed over.
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
        List<Integer> offered = new ArrayList<>();
        connections.forEach(c -> offered.add(numbers.get(c)));
        int given = 0;
        try {
            if (offered.isEmpty() || renewal.liveInstances(clock.millis(), leaseMillis()).size() < 2) {
                return 0;   // nobody to take them
            }
            ExternalComponentConnection out = newConnection();
            out.start();
            if (!out.awaitConnected(Duration.ofSeconds(10))) {
                LOG.warn("instance {}: no connection to send through while handing over; stopping without", instance());
                out.close();
                return 0;
            }
            departures = out;
            handOvers.offerConnections(offered, clock.millis());
            LOG.info("instance {}: stopping; offered the buckets of its {} connections", instance(), offered.size());
            long deadline = clock.millis() + 2 * leaseMillis() + 10_000;
            while (given < offered.size() && clock.millis() < deadline) {
                int now = giveReadyBuckets();
                given += now;
                if (now == 0) {
                    Thread.sleep(VACANCY_POLL_MILLIS);
                }
            }
            handOvers.endHandOvers();
        } catch (SQLException | ComponentException | RuntimeException e) {
            LOG.warn("instance {}: handing the buckets over failed ({} of {} given): {}", instance(), given,
                    offered.size(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("instance {}: handed {} of its {} buckets over", instance(), given, offered.size());
        return given;
    }

    /** A renewal now, on the renewal's thread: the heartbeat tells how many connections this instance holds. */
    private void renewSoon() {
        try {
            renewing.execute(this::renew);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            // no more renewals: the stop unregisters this instance with what it still holds
        }
    }

    private void renew() {
        try {
            renewNow(connections.size());
        } catch (SQLException | RuntimeException e) {
            LOG.warn("instance {}: renewing the leases failed (the rooms' stanzas wait once they run out): {}",
                    instance(), e.toString());
        }
    }

    /**
     * One renewal: this instance's lock is still held (taken again if its connection was lost), its
     * heartbeat is written, rooms taken over are given up, and the gate lets through what waited for
     * the rooms still ours. {@code connectionCount} is what a survivor opens if this instance dies.
     */
    private void renewNow(int connectionCount) throws SQLException {
        long startedAt = clock.millis();
        long serial = grantSerial.get();
        if (alive.hold()) {
            LOG.info("instance {}: took its instance lock (again: its connection had been lost)", instance());
        }
        Map<String, Long> held = renewal.renew(startedAt, connectionCount);
        // A room granted since the renewal began may be missing from what it read: it is not lost.
        java.util.function.Predicate<String> grantedSince = room -> {
            long[] g = grants.get(room);
            return g != null && g[0] > serial;
        };
        Set<String> taken = leased.leasesRenewed(held, grantedSince);
        gate.confirmed(leasesRunUntil(startedAt), room -> held.containsKey(room) || grantedSince.test(room), taken);
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
                open(adopted.connections());
            }
        } catch (SQLException | ComponentException | RuntimeException e) {
            LOG.warn("instance {}: looking for dead instances failed: {}", instance(), e.toString());
        }
    }

    /** False while the {@link LeaseGate} holds what the rooms send (delivery positions wait for it). */
    @Override
    public boolean sending() {
        return !gate.holding();
    }

    /** Sends a stanza of the service or of a room, through the {@link LeaseGate}. */
    public void send(OutgoingStanza stanza) {
        String sender = senderOf(stanza.from());
        gate.send(sender, stanza);
    }

    /** A room's broadcast, through the {@link LeaseGate} and the room's connection as {@link #send} does. */
    public void broadcast(RenderedStanza stanza, List<String> recipients) {
        String sender = senderOf(stanza.from());
        gate.send(sender, new LeaseGate.Departure(stanza.error(), () -> {
            ExternalComponentConnection c = connectionFor(sender);
            if (c != null) {
                c.broadcast(stanza, recipients);
            }
        }));
    }

    /** The bare address a stanza comes from: its room's, or the service's. */
    private static String senderOf(String from) {
        int slash = from == null ? -1 : from.indexOf('/');
        return from == null ? "" : slash < 0 ? from : from.substring(0, slash);
    }

    private void sendNow(String sender, OutgoingStanza stanza) {
        ExternalComponentConnection c = connectionFor(sender);
        if (c != null) {
            c.send(stanza);
        }
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

    public List<ExternalComponentConnection> connections() {
        return List.copyOf(connections);
    }

    public String instance() {
        return renewal.instance();
    }

    /**
     * Blocks until this instance is closed, or the server refused a connection's secret. Its
     * connections come and go (buckets handed over), so no one connection's end says.
     */
    public org.reconmuc.component.transport.Termination awaitTermination() throws InterruptedException {
        while (!stopped.await(200, TimeUnit.MILLISECONDS)) {
            for (ExternalComponentConnection c : connections) {
                if (c.termination() == org.reconmuc.component.transport.Termination.AUTHENTICATION_FAILED) {
                    return c.termination();
                }
            }
        }
        return org.reconmuc.component.transport.Termination.CLOSED;
    }

    /** True while the rooms' stanzas wait for a renewal (this instance's leases may have run out). */
    public boolean holdingRoomStanzas() {
        return gate.holding();
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
            LeaseStore.Claim claim = claiming.claim(room.toString(), now, leaseMillis());
            if (claim instanceof LeaseStore.Granted g) {
                grants.put(room.toString(), new long[] {grantSerial.incrementAndGet()});
                decided.accept(g.epoch());
                return;
            }
            holder = ((LeaseStore.Held) claim).owner();
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
        grants.remove(room.toString());
        gate.forgotten(room.toString());
    }

    @Override
    public void release(RoomJid room, long epoch) {
        try {
            claiming.release(room.toString(), epoch);
        } catch (SQLException e) {
            LOG.warn("room {}: release failed (its lease runs out instead): {}", room, e.toString());
        }
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
        List<ExternalComponentConnection> all = new ArrayList<>(connections);
        connections.clear();
        closedUnhandedOver += all.size();
        all.forEach(ExternalComponentConnection::close);
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
        try {
            claiming.releaseAll();
            claiming.unregister(closedUnhandedOver);
        } catch (SQLException e) {
            LOG.warn("instance {}: could not give the rooms back (their leases run out instead): {}", instance(),
                    e.toString());
        }
        ExternalComponentConnection out = departures;
        if (out != null) {
            out.close();   // after the rooms' last stanzas
        }
        releasing.shutdownNow();
        alive.close();
        renewal.close();
        watch.close();
        claiming.close();
        handOvers.close();
        stopped.countDown();
    }
}
