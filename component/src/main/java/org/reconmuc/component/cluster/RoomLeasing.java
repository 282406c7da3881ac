package org.reconmuc.component.cluster;

import java.sql.SQLException;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.store.LeaseStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's room leases: claims (on a thread of their own, retried while another instance
 * holds the room, so a claim that waits holds up no room thread), releases, and the renewal — one
 * heartbeat renews every lease this instance holds, says which rooms were taken over (they are
 * given up) and lets the {@link LeaseGate} pass what waited for the rooms still ours.
 */
final class RoomLeasing implements RoomOwnership {
    private static final Logger LOG = LoggerFactory.getLogger(RoomLeasing.class);

    private final long leaseMillis;
    private final Clock clock;
    /** The renewal thread's store connection. */
    private final LeaseStore renewal;
    /** The claims thread's (and releases, from the rooms' threads). */
    private final LeaseStore claiming;
    private final LeaseStore.AliveLock alive;
    private final LeaseGate gate;
    private final InstanceConnections connections;
    /** Claims and their retries, one at a time. */
    private final ScheduledExecutorService claims;
    /** Rooms granted to this instance, with the claim's serial number (see {@link #renew}). */
    private final Map<String, long[]> grants = new ConcurrentHashMap<>();
    private final AtomicLong grantSerial = new AtomicLong();
    /** The service's rooms as served under this instance's leases (from {@link #serving}). */
    private volatile LeasedRooms<?> leased;

    RoomLeasing(long leaseMillis, Clock clock, LeaseStore renewal, LeaseStore claiming, LeaseStore.AliveLock alive,
                LeaseGate gate, InstanceConnections connections, ScheduledExecutorService claims) {
        this.leaseMillis = leaseMillis;
        this.clock = clock;
        this.renewal = renewal;
        this.claiming = claiming;
        this.alive = alive;
        this.gate = gate;
        this.connections = connections;
        this.claims = claims;
    }

    /** The rooms these leases are for: from now on given up when their leases are lost. */
    void serving(LeasedRooms<?> rooms) {
        leased = rooms;
    }

    /**
     * Until when leases renewed at {@code renewedAt} surely run, by this clock: a lease, less a
     * tenth for the instances' clocks to differ by and the renewal's own transaction to take.
     */
    private long leasesRunUntil(long renewedAt) {
        return renewedAt + leaseMillis - leaseMillis / 10;
    }

    /**
     * One renewal: this instance's lock is still held (taken again if its connection was lost), its
     * heartbeat is written, rooms taken over are given up, and the gate lets through what waited for
     * the rooms still ours. {@code connectionCount} is what a survivor opens if this instance dies.
     */
    void renew(int connectionCount) throws SQLException {
        long startedAt = clock.millis();
        long serial = grantSerial.get();
        if (alive.hold()) {
            LOG.info("instance {}: took its instance lock (again: its connection had been lost)", renewal.instance());
        }
        Map<String, Long> held = renewal.renew(startedAt, connectionCount);
        // A room granted since the renewal began may be missing from what it read: it is not lost.
        Predicate<String> grantedSince = room -> {
            long[] g = grants.get(room);
            return g != null && g[0] > serial;
        };
        Set<String> taken = leased.leasesRenewed(held, grantedSince, connections.known());
        gate.confirmed(leasesRunUntil(startedAt), room -> held.containsKey(room) || grantedSince.test(room), taken);
    }

    /** False while the {@link LeaseGate} holds what the rooms send (delivery positions wait for it). */
    @Override
    public boolean sending() {
        return !gate.holding();
    }

    @Override
    public void claim(RoomJid room, LongConsumer decided) {
        long deadline = clock.millis() + 2 * leaseMillis + 1_000;
        claims.execute(() -> attempt(room, deadline, decided));
    }

    /** One try; while another instance holds the room, the next in 200 ms, until the deadline. */
    private void attempt(RoomJid room, long deadline, LongConsumer decided) {
        long now = clock.millis();
        String holder = null;
        try {
            LeaseStore.Claim claim = claiming.claim(room.toString(), now, leaseMillis);
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
        } catch (RejectedExecutionException stopping) {
            decided.accept(0);
        }
    }

    @Override
    public void forgotten(RoomJid room) {
        connections.forgotten(room.toString());
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
     * The end of a clean stop: every room is given back, and this instance leaves the set of
     * instances with the {@code connectionsLeft} it closed without handing them over.
     */
    void releaseAll(int connectionsLeft) {
        try {
            claiming.releaseAll();
            claiming.unregister(connectionsLeft);
        } catch (SQLException e) {
            LOG.warn("instance {}: could not give the rooms back (their leases run out instead): {}",
                    claiming.instance(), e.toString());
        }
    }
}
