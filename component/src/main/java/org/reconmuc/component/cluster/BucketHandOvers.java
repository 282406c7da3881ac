package org.reconmuc.component.cluster;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.IntConsumer;
import org.reconmuc.component.config.ClusterConfig;
import org.reconmuc.component.store.LeaseStore;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.component.ComponentException;

/**
 * Buckets handed over between live instances: a clean stop gives its own away, a new instance
 * takes its share back from those that adopted it. ejabberd gives a connection a bucket only if
 * one is empty when its handshake succeeds, and drops a bucket's stanzas while it is empty, so a
 * bucket moves as: the taker connects and waits at its handshake; the giver closes its connection
 * (reading what the server sent until the server ends the stream, which it does once it has
 * dropped the connection's bucket), marks the bucket vacant and lets its rooms go (each after its
 * last writes, so the taker claims it then); the taker, asking every {@value #VACANCY_POLL_MILLIS}
 * ms, authenticates and takes the bucket. Stanzas for the rooms that reach the taker before their
 * leases are released wait for the claim, in order.
 *
 * <p>Each step is one transaction of the {@link LeaseStore}: a hand-over is {@code offered} (the
 * giver stops: any other instance may take it) or {@code asked} (a new instance asks a giver with
 * more connections than its share), then {@code ready} (the taker's connection waits at its
 * handshake), {@code vacant} (the giver's connection is closed and the server has dropped it: the
 * bucket is empty), and ended by the taker once its connection has authenticated into the bucket.
 * Runs on one thread (the hand-over's, or the stop's once that thread has ended).
 */
final class BucketHandOvers {
    private static final Logger LOG = LoggerFactory.getLogger(BucketHandOvers.class);
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

    private final ClusterConfig config;
    private final Clock clock;
    private final LeaseStore handOvers;
    private final InstanceConnections connections;
    /** Connection number {@code i}'s bucket was given away: its rooms are let go. */
    private final IntConsumer given;
    /** A renewal soon: the heartbeat tells how many connections this instance holds. */
    private final Runnable renewSoon;

    BucketHandOvers(ClusterConfig config, Clock clock, LeaseStore handOvers, InstanceConnections connections,
                    IntConsumer given, Runnable renewSoon) {
        this.config = config;
        this.clock = clock;
        this.handOvers = handOvers;
        this.connections = connections;
        this.given = given;
        this.renewSoon = renewSoon;
    }

    private String instance() {
        return handOvers.instance();
    }

    private long leaseMillis() {
        return config.lease().toMillis();
    }

    /**
     * At the start: buckets another instance adopted are full, connections of ours would get none.
     * Asks for them back (they come over one by one, see {@link #look}); returns how many.
     */
    int askForShare() throws SQLException {
        return handOvers.askForShare(config.connections(), config.connections(), clock.millis());
    }

    /** One look: gives the connections whose takers wait at their handshake, then takes the next bucket offered or asked for. */
    void look() {
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
        int gave = 0;
        for (LeaseStore.HandOver h : handOvers.readyToGive()) {
            ExternalComponentConnection c = connections.toGive(h.connection(), config.connections());
            if (c == null) {
                handOvers.endHandOver(h.id());   // nothing over its share left to give: the taker stops waiting
                continue;
            }
            int number = connections.number(c);
            connections.remove(c);
            long closing = System.nanoTime();
            c.close();
            long closed = System.nanoTime();
            if (!c.serverEndedStream()) {
                sleepQuietly(VACANCY_MARGIN_MILLIS);   // the socket closed without the server's end: a margin
            }
            boolean taken = handOvers.vacated(h.id());
            long vacant = System.nanoTime();
            connections.forget(c);
            given.accept(number);
            gave++;
            if (!taken) {
                refill(h);
            }
            LOG.info("instance {}: gave connection {}'s bucket ({}): closed in {} ms, marked vacant {} ms later{}",
                    instance(), number, h.id(), (closed - closing) / 1_000_000, (vacant - closed) / 1_000_000,
                    c.serverEndedStream() ? "" : " (the server did not end the stream in time)");
            renewSoon.run();
        }
        return gave;
    }

    /**
     * The taker of {@code h} gave up after this instance had closed its connection: the bucket is
     * empty and nobody is about to fill it, so this instance does (while it runs; stopping, it
     * leaves the bucket for whoever adopts it).
     */
    private void refill(LeaseStore.HandOver h) {
        LOG.warn("instance {}: the taker of bucket {} gave up after it was emptied; filling it here", instance(), h.id());
        if (connections.departures() != null) {
            connections.leftEmpty();
            return;
        }
        try {
            connections.open(1);
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

    /** Takes one bucket: connects, waits at the handshake until the giver has emptied the bucket, authenticates. */
    private void take(LeaseStore.HandOver h) throws SQLException, InterruptedException {
        ExternalComponentConnection c = connections.newConnection();
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
                connections.number(c), connected ? "authenticated " + authenticated + " ms after it was seen vacant"
                        : "not connected yet");
        renewSoon.run();
    }

    /**
     * A clean stop, once no look runs any more: each of this instance's connections' buckets is
     * offered to the other instances and handed over to whichever takes it, its rooms released
     * after their last writes; what the rooms send meanwhile and afterwards leaves through a
     * connection beyond the server's buckets, open until the instance closes. Gives up, for the
     * buckets nobody took, after two leases and ten seconds. Returns how many buckets were handed over.
     */
    int giveAllForStop() {
        List<Integer> offered = connections.numbers();
        int gave = 0;
        try {
            if (offered.isEmpty() || handOvers.liveInstances(clock.millis(), leaseMillis()).size() < 2) {
                return 0;   // nobody to take them
            }
            ExternalComponentConnection out = connections.newConnection();
            out.start();
            if (!out.awaitConnected(Duration.ofSeconds(10))) {
                LOG.warn("instance {}: no connection to send through while handing over; stopping without", instance());
                out.close();
                return 0;
            }
            connections.departures(out);
            handOvers.offerConnections(offered, clock.millis());
            LOG.info("instance {}: stopping; offered the buckets of its {} connections", instance(), offered.size());
            long deadline = clock.millis() + 2 * leaseMillis() + 10_000;
            while (gave < offered.size() && clock.millis() < deadline) {
                int now = giveReadyBuckets();
                gave += now;
                if (now == 0) {
                    Thread.sleep(VACANCY_POLL_MILLIS);
                }
            }
            handOvers.endHandOvers();
        } catch (SQLException | ComponentException | RuntimeException e) {
            LOG.warn("instance {}: handing the buckets over failed ({} of {} given): {}", instance(), gave,
                    offered.size(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("instance {}: handed {} of its {} buckets over", instance(), gave, offered.size());
        return gave;
    }
}
