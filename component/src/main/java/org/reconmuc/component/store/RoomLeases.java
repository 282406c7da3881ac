package org.reconmuc.component.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.reconmuc.component.config.StoreLocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link LeaseStore} in the shared database (what {@code cluster} decides, persisted one
 * transaction per step): who serves each room when several instances of the service share one database: a lease per
 * room ({@code reconmuc_lease}: owner, epoch, expiry at the claim) and a heartbeat per instance
 * ({@code reconmuc_instance}). A room's lease runs while its claim's expiry or its owner's last
 * heartbeat is younger than a lease: renewing every room is one update of the instance's own row,
 * which no room's write ever locks. An instance serves a room only under a lease it holds; taking a
 * room over raises its epoch, and every write of the room carries the epoch it was made under
 * ({@link Write#fence()}), so an instance that was paused or cut off and comes back cannot
 * write to a room that has moved. Times are the callers' milliseconds (the instances' clocks
 * must agree to well within a lease).
 *
 * <p>On PostgreSQL an instance is dead only when its {@link InstanceLock} can be taken (the
 * server frees it the moment the instance's session ends), never because its heartbeat is late;
 * elsewhere (one instance, or tests) an instance whose heartbeat is a lease old counts as dead.
 *
 * <p>One connection of its own, used by one thread at a time (the methods are synchronized); a
 * failed statement drops the connection, the next call opens a new one.
 */
public final class RoomLeases implements LeaseStore {

    /** Gives a room up if it is still (room, owner, epoch); the store's writer runs it too, after a room's last writes. */
    static final String RELEASE = "UPDATE reconmuc_lease SET owner = NULL, expires_ms = 0 WHERE room = ? AND owner = ? AND epoch = ?";

    interface Connector {
        Connection connect() throws SQLException;
    }

    private final StoreLocation location;
    private final Connector connector;
    private static final Logger LOG = LoggerFactory.getLogger(RoomLeases.class);

    private final String instance;
    private Connection connection;
    /** Whether this instance's row was written once: missing later, another instance adopted it. */
    private boolean registered;
    /**
     * Instances whose lock this one found free at its last look, with when the database server had
     * started then: a second look, on the same server, confirms their death (see
     * {@link #adoptInstancesWhoseLockIsFree}).
     */
    private final Map<String, Long> freeAtLastLook = new LinkedHashMap<>();

    RoomLeases(StoreLocation location, Connector connector, String instance) {
        this.location = location;
        this.connector = connector;
        this.instance = instance;
    }

    @Override
    public String instance() {
        return instance;
    }

    /**
     * Takes {@code room} for {@code leaseMillis} if nobody holds it, its lease ran out, or it is
     * ours already (a new epoch then fences what our own older incarnation of the room writes).
     */
    @Override
    public synchronized Claim claim(String room, long now, long leaseMillis) throws SQLException {
        return inTransaction(c -> {
            try (PreparedStatement p = c.prepareStatement(insertIfAbsentSql())) {
                p.setString(1, room);
                p.setString(2, instance);
                p.setLong(3, now + leaseMillis);
                if (location.kind() == StoreLocation.Kind.H2) {
                    p.setString(4, room);
                }
                if (p.executeUpdate() == 1) {
                    return new Granted(1);
                }
            }
            try (PreparedStatement p = c.prepareStatement("UPDATE reconmuc_lease SET owner = ?, epoch = epoch + 1,"
                    + " expires_ms = ? WHERE room = ? AND (owner IS NULL OR owner = ? OR expires_ms < ? AND NOT EXISTS"
                    + " (SELECT 1 FROM reconmuc_instance i WHERE i.id = reconmuc_lease.owner AND i.heartbeat_ms >= ?))")) {
                p.setString(1, instance);
                p.setLong(2, now + leaseMillis);
                p.setString(3, room);
                p.setString(4, instance);
                p.setLong(5, now);
                p.setLong(6, now - leaseMillis);
                boolean taken = p.executeUpdate() == 1;
                try (PreparedStatement q = c.prepareStatement("SELECT l.owner, l.epoch, l.expires_ms, i.heartbeat_ms"
                        + " FROM reconmuc_lease l LEFT JOIN reconmuc_instance i ON i.id = l.owner WHERE l.room = ?")) {
                    q.setString(1, room);
                    try (ResultSet rs = q.executeQuery()) {
                        rs.next();
                        if (taken) {
                            return new Granted(rs.getLong(2));
                        }
                        long runsUntil = Math.max(rs.getLong(3), rs.getLong(4) + leaseMillis);
                        return new Held(rs.getString(1), runsUntil - now);
                    }
                }
            }
        });
    }

    private String insertIfAbsentSql() {
        String insert = "reconmuc_lease (room, owner, epoch, expires_ms)";
        return switch (location.kind()) {
            case POSTGRESQL -> "INSERT INTO " + insert + " VALUES (?, ?, 1, ?) ON CONFLICT DO NOTHING";
            case SQLITE -> "INSERT OR IGNORE INTO " + insert + " VALUES (?, ?, 1, ?)";
            case H2 -> "INSERT INTO " + insert + " SELECT ?, ?, 1, ? WHERE NOT EXISTS"
                    + " (SELECT 1 FROM reconmuc_lease WHERE room = ?)";
            case NONE -> throw new IllegalStateException();
        };
    }

    /**
     * The heartbeat: this instance is alive with {@code connections} connections to the server, and
     * every lease it holds runs for a lease more from {@code now}. Touches only the instance's own
     * row (a room's write locks its lease row until its commit: the heartbeat never waits for one).
     * Returns the rooms it holds now, with their epochs: a room missing, or under another epoch, was
     * taken over and must not be served any more.
     */
    @Override
    public synchronized Map<String, Long> renew(long now, int connections) throws SQLException {
        Map<String, Long> rooms = inTransaction(c -> {
            try (PreparedStatement p = c.prepareStatement(
                    "UPDATE reconmuc_instance SET heartbeat_ms = ?, connections = ? WHERE id = ?")) {
                p.setLong(1, now);
                p.setInt(2, connections);
                p.setString(3, instance);
                if (p.executeUpdate() == 0) {
                    if (registered) {
                        // Found dead while it lived (its lock's session cut; elsewhere, a pause of a lease): its
                        // rooms moved, and the adopter opened as many connections as it has.
                        LOG.warn("instance {}: another instance adopted this one while it was alive (found its instance"
                                + " lock free, or its heartbeat a lease old); registering again: its rooms moved, and the"
                                + " service has {} connections too many until an instance restarts", instance, connections);
                    }
                    try (PreparedStatement i = c.prepareStatement("INSERT INTO reconmuc_instance"
                            + " (id, heartbeat_ms, started_ms, connections) VALUES (?, ?, ?, ?)")) {
                        i.setString(1, instance);
                        i.setLong(2, now);
                        i.setLong(3, now);
                        i.setInt(4, connections);
                        i.executeUpdate();
                    }
                }
            }
            Map<String, Long> held = new LinkedHashMap<>();
            try (PreparedStatement p = c.prepareStatement("SELECT room, epoch FROM reconmuc_lease WHERE owner = ?")) {
                p.setString(1, instance);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        held.put(rs.getString(1), rs.getLong(2));
                    }
                }
            }
            return held;
        });
        registered = true;
        return rooms;
    }

    /** Gives a room up (if it is still ours at {@code epoch}): the next instance to claim it gets it at once. */
    @Override
    public synchronized void release(String room, long epoch) throws SQLException {
        inTransaction(c -> {
            try (PreparedStatement p = c.prepareStatement(RELEASE)) {
                p.setString(1, room);
                p.setString(2, instance);
                p.setLong(3, epoch);
                return p.executeUpdate();
            }
        });
    }

    /** Gives up every room and leaves the set of instances (a clean stop, or a lost connection to the server). */
    @Override
    public synchronized void releaseAll() throws SQLException {
        inTransaction(c -> {
            try (PreparedStatement p = c.prepareStatement(
                    "UPDATE reconmuc_lease SET owner = NULL, expires_ms = 0 WHERE owner = ?")) {
                p.setString(1, instance);
                return p.executeUpdate();
            }
        });
    }

    /**
     * A clean stop, once its connections are closed: this instance's heartbeat is marked as
     * stopped, so that where death is told from heartbeats another instance adopts its connections
     * at its next look without waiting a lease (on PostgreSQL the instance lock, freed when the
     * instance closes it, says so); {@code connectionsLeft} are those it closed without handing
     * them over (their buckets are empty: whoever adopts it opens as many).
     */
    @Override
    public synchronized void unregister(int connectionsLeft) throws SQLException {
        inTransaction(c -> {
            endHandOversOf(c, instance);
            try (PreparedStatement p = c.prepareStatement(
                    "UPDATE reconmuc_instance SET heartbeat_ms = 0, connections = ? WHERE id = ?")) {
                p.setInt(1, connectionsLeft);
                p.setString(2, instance);
                return p.executeUpdate();
            }
        });
    }

    /** True where an instance's death is known for certain ({@link InstanceLock}), not guessed from a late heartbeat. */
    @Override
    public boolean tellsDeathForCertain() {
        return location.kind() == StoreLocation.Kind.POSTGRESQL;
    }

    /** The lock that says, while its session lasts, that this instance is alive (see {@link InstanceLock}). */
    @Override
    public InstanceLock instanceLock() {
        return new InstanceLock(instance, tellsDeathForCertain() ? connector : null);
    }

    /**
     * Takes over the connections of dead instances: each is adopted by exactly one survivor, the one
     * whose delete of its row succeeds. Returns how many connections to open in their place, and
     * the rooms the dead held (their stanzas come to those connections next: the adopter claims
     * them at once rather than at their next stanza).
     *
     * <p>On PostgreSQL an instance is dead when its {@link InstanceLock} can be taken, however late
     * its heartbeat: its rooms' leases are given back at once (nobody else can be serving them).
     * Elsewhere an instance is dead when its heartbeat is older than {@code leaseMillis} (or it
     * stopped cleanly); its leases run out.
     */
    @Override
    public synchronized Adoption adoptDeadInstances(long now, long leaseMillis) throws SQLException {
        return tellsDeathForCertain() ? adoptInstancesWhoseLockIsFree(now, leaseMillis) : adoptSilentInstances(now, leaseMillis);
    }

    /** The rooms {@code instance} holds a lease of, as the dead instance left them. */
    private static List<String> roomsHeldBy(Connection c, String instance) throws SQLException {
        List<String> rooms = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement("SELECT room FROM reconmuc_lease WHERE owner = ? ORDER BY room")) {
            p.setString(1, instance);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    rooms.add(rs.getString(1));
                }
            }
        }
        return rooms;
    }

    /**
     * A free lock proves death only of an instance that has beaten since the server started: a
     * restarted PostgreSQL ended every session, so every instance's lock is free until its next
     * renewal takes it again (before it beats). One whose last beat is older than the server (less
     * the clocks' margin) is dead only once that beat is a lease old, as without the lock.
     *
     * <p>And one that beat since is dead only if its lock is free at two looks in a row on the same
     * server run: while PostgreSQL shuts down, the sessions end one after the other, and a look
     * whose session ended last found a live instance's lock free and adopted it (a soak, at its
     * PostgreSQL restart: two extra connections to the server for good, and a room moved). The next
     * look finds the server down, or restarted, or the lock held again; death costs one look more.
     */
    private Adoption adoptInstancesWhoseLockIsFree(long now, long leaseMillis) throws SQLException {
        return inTransaction(c -> {
            Map<String, Integer> registered = new LinkedHashMap<>();
            Set<String> beatLeaseAgo = new HashSet<>();
            long serverStarted = 0;
            try (PreparedStatement p = c.prepareStatement("SELECT id, connections, heartbeat_ms,"
                    + " CAST(EXTRACT(EPOCH FROM pg_postmaster_start_time()) * 1000 AS BIGINT) FROM reconmuc_instance WHERE id <> ?"
                    + " AND (heartbeat_ms >= CAST(EXTRACT(EPOCH FROM pg_postmaster_start_time()) * 1000 AS BIGINT) + ?"
                    + " OR heartbeat_ms < ?)")) {
                p.setString(1, instance);
                p.setLong(2, leaseMillis / 10);
                p.setLong(3, now - leaseMillis);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        registered.put(rs.getString(1), rs.getInt(2));
                        if (rs.getLong(3) < now - leaseMillis) {
                            beatLeaseAgo.add(rs.getString(1));
                        }
                        serverStarted = rs.getLong(4);
                    }
                }
            }
            Map<String, Long> freeBefore = new LinkedHashMap<>(freeAtLastLook);
            freeAtLastLook.clear();
            int adopted = 0;
            List<String> rooms = new ArrayList<>();
            for (Map.Entry<String, Integer> other : registered.entrySet()) {
                long key = InstanceLock.key(other.getKey());
                if (!InstanceLock.tryLock(c, key)) {
                    continue;   // its session holds it: alive, however slow
                }
                try {
                    Long seenFreeOn = freeBefore.get(other.getKey());
                    if (!beatLeaseAgo.contains(other.getKey()) && (seenFreeOn == null || seenFreeOn != serverStarted)) {
                        freeAtLastLook.put(other.getKey(), serverStarted);   // the next look confirms it
                        continue;
                    }
                    try (PreparedStatement p = c.prepareStatement("DELETE FROM reconmuc_instance WHERE id = ?")) {
                        p.setString(1, other.getKey());
                        if (p.executeUpdate() == 0) {
                            continue;   // another survivor adopted it first
                        }
                    }
                    rooms.addAll(roomsHeldBy(c, other.getKey()));
                    try (PreparedStatement p = c.prepareStatement(
                            "UPDATE reconmuc_lease SET owner = NULL, expires_ms = 0 WHERE owner = ?")) {
                        p.setString(1, other.getKey());
                        p.executeUpdate();
                    }
                    adopted += other.getValue() + endHandOversOf(c, other.getKey());
                } finally {
                    InstanceLock.unlock(c, key);
                }
            }
            return new Adoption(adopted, rooms);
        });
    }

    private Adoption adoptSilentInstances(long now, long leaseMillis) throws SQLException {
        return inTransaction(c -> {
            Map<String, Integer> dead = new LinkedHashMap<>();
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT id, connections FROM reconmuc_instance WHERE heartbeat_ms < ? AND id <> ?")) {
                p.setLong(1, now - leaseMillis);
                p.setString(2, instance);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        dead.put(rs.getString(1), rs.getInt(2));
                    }
                }
            }
            int adopted = 0;
            List<String> rooms = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement(
                    "DELETE FROM reconmuc_instance WHERE id = ? AND heartbeat_ms < ?")) {
                for (Map.Entry<String, Integer> d : dead.entrySet()) {
                    p.setString(1, d.getKey());
                    p.setLong(2, now - leaseMillis);
                    if (p.executeUpdate() == 1) {
                        adopted += d.getValue() + endHandOversOf(c, d.getKey());
                        rooms.addAll(roomsHeldBy(c, d.getKey()));   // their leases run out: the claims wait for that
                    }
                }
            }
            return new Adoption(adopted, rooms);
        });
    }

    // ---- buckets moving between live instances ---------------------------------------------------

    /*
     * A bucket moving between instances (LeaseStore.HandOver): a row of {@code reconmuc_handover} goes
     * through {@value #OFFERED} (the giver stops: any other instance may take it) or
     * {@value #ASKED} (a new instance asks a giver with more connections than its share), then
     * {@value #READY} (the taker's connection waits at its handshake), {@value #VACANT} (the giver's
     * connection is closed and the server has dropped it: the bucket is empty), and the taker
     * deletes it once its connection has authenticated into the bucket.
     */

    static final String OFFERED = "offered";
    static final String ASKED = "asked";
    static final String READY = "ready";
    static final String VACANT = "vacant";

    private long handOvers;

    private String newHandOverId() {
        return instance + "/" + ++handOvers;
    }

    /** Offers each of {@code connections} (this instance's connection numbers) to any other instance. */
    @Override
    public synchronized void offerConnections(List<Integer> connections, long now) throws SQLException {
        inTransaction(c -> {
            try (PreparedStatement p = c.prepareStatement("INSERT INTO reconmuc_handover"
                    + " (id, giver, connection, taker, state, asked_ms) VALUES (?, ?, ?, NULL, ?, ?)")) {
                for (int connection : connections) {
                    p.setString(1, newHandOverId());
                    p.setString(2, instance);
                    p.setInt(3, connection);
                    p.setString(4, OFFERED);
                    p.setLong(5, now);
                    p.executeUpdate();
                }
            }
            return null;
        });
    }

    /**
     * A new instance's share: asks, of every other instance holding more than {@code share}
     * connections (it adopted some), one connection per connection over its share (less those
     * already being handed over), up to {@code wanted} in all. Returns how many it asked for.
     */
    @Override
    public synchronized int askForShare(int wanted, int share, long now) throws SQLException {
        return inTransaction(c -> {
            Map<String, Integer> over = new LinkedHashMap<>();
            try (PreparedStatement p = c.prepareStatement("SELECT i.id, i.connections - ? - (SELECT COUNT(*) FROM"
                    + " reconmuc_handover h WHERE h.giver = i.id) FROM reconmuc_instance i WHERE i.id <> ?"
                    + " AND i.heartbeat_ms > 0 ORDER BY i.connections DESC, i.id")) {
                p.setInt(1, share);
                p.setString(2, instance);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        if (rs.getInt(2) > 0) {
                            over.put(rs.getString(1), rs.getInt(2));
                        }
                    }
                }
            }
            int asked = 0;
            try (PreparedStatement p = c.prepareStatement("INSERT INTO reconmuc_handover"
                    + " (id, giver, connection, taker, state, asked_ms) VALUES (?, ?, -1, ?, ?, ?)")) {
                for (Map.Entry<String, Integer> giver : over.entrySet()) {
                    for (int i = 0; i < giver.getValue() && asked < wanted; i++, asked++) {
                        p.setString(1, newHandOverId());
                        p.setString(2, giver.getKey());
                        p.setString(3, instance);
                        p.setString(4, ASKED);
                        p.setLong(5, now);
                        p.executeUpdate();
                    }
                }
            }
            return asked;
        });
    }

    /**
     * The next hand-over for this instance to take: one asked by it, else one offered by another
     * instance (taken here: no other instance takes it). Null if there is none.
     */
    @Override
    public synchronized HandOver nextToTake() throws SQLException {
        return inTransaction(c -> {
            HandOver asked = firstHandOver(c, "SELECT id, giver, connection FROM reconmuc_handover"
                    + " WHERE taker = ? AND state = '" + ASKED + "' ORDER BY asked_ms, id");
            if (asked != null) {
                return asked;
            }
            List<HandOver> offered = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement("SELECT id, giver, connection FROM reconmuc_handover"
                    + " WHERE taker IS NULL AND state = '" + OFFERED + "' AND giver <> ? ORDER BY asked_ms, id")) {
                p.setString(1, instance);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        offered.add(new HandOver(rs.getString(1), rs.getString(2), rs.getInt(3)));
                    }
                }
            }
            try (PreparedStatement p = c.prepareStatement("UPDATE reconmuc_handover SET taker = ?, state = '" + ASKED
                    + "' WHERE id = ? AND taker IS NULL AND state = '" + OFFERED + "'")) {
                for (HandOver h : offered) {
                    p.setString(1, instance);
                    p.setString(2, h.id());
                    if (p.executeUpdate() == 1) {
                        return h;
                    }
                }
            }
            return null;
        });
    }

    private HandOver firstHandOver(Connection c, String sql) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setString(1, instance);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? new HandOver(rs.getString(1), rs.getString(2), rs.getInt(3)) : null;
            }
        }
    }

    /** The hand-overs whose takers wait at their handshake for this instance to close a connection. */
    @Override
    public synchronized List<HandOver> readyToGive() throws SQLException {
        return inTransaction(c -> {
            List<HandOver> ready = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement("SELECT id, giver, connection FROM reconmuc_handover"
                    + " WHERE giver = ? AND state = '" + READY + "' ORDER BY asked_ms, id")) {
                p.setString(1, instance);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        ready.add(new HandOver(rs.getString(1), rs.getString(2), rs.getInt(3)));
                    }
                }
            }
            return ready;
        });
    }

    /** The taker's connection waits at its handshake. */
    @Override
    public void readyToTake(String id) throws SQLException {
        setHandOverState(id, READY);
    }

    /**
     * The giver's connection is closed, and the server has dropped it: the bucket is empty. False
     * if the taker gave up meanwhile (the row is gone): nobody is about to fill the bucket.
     */
    @Override
    public boolean vacated(String id) throws SQLException {
        return setHandOverState(id, VACANT);
    }

    private synchronized boolean setHandOverState(String id, String state) throws SQLException {
        return updateInTransaction("UPDATE reconmuc_handover SET state = ? WHERE id = ?", state, id) == 1;
    }

    /** True while this instance takes a bucket it asked for or was offered (not yet done or given up). */
    @Override
    public synchronized boolean taking() throws SQLException {
        return inTransaction(c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT 1 FROM reconmuc_handover WHERE taker = ?")) {
                p.setString(1, instance);
                try (ResultSet rs = p.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    /** True once the giver has emptied the bucket; false while it has not; null if the hand-over was withdrawn. */
    @Override
    public synchronized Boolean vacant(String id) throws SQLException {
        return inTransaction(c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT state FROM reconmuc_handover WHERE id = ?")) {
                p.setString(1, id);
                try (ResultSet rs = p.executeQuery()) {
                    return rs.next() ? (Boolean) VACANT.equals(rs.getString(1)) : null;
                }
            }
        });
    }

    /** The hand-over is over (done, refused, or given up by either side). */
    @Override
    public synchronized void endHandOver(String id) throws SQLException {
        updateInTransaction("DELETE FROM reconmuc_handover WHERE id = ?", id);
    }

    /** Ends every hand-over this instance gives or takes (it stops), but for the buckets it emptied. */
    @Override
    public synchronized void endHandOvers() throws SQLException {
        inTransaction(c -> endHandOversOf(c, instance));
    }

    /**
     * Ends every hand-over {@code instance} gives (but for the buckets it emptied) or takes; returns how many buckets it was
     * taking that its giver had emptied already (whoever adopts it opens as many).
     */
    private static int endHandOversOf(Connection c, String instance) throws SQLException {
        int vacant = 0;
        try (PreparedStatement p = c.prepareStatement(
                "SELECT COUNT(*) FROM reconmuc_handover WHERE taker = ? AND state = '" + VACANT + "'")) {
            p.setString(1, instance);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                vacant = rs.getInt(1);
            }
        }
        // A bucket it emptied is left to its taker, which deletes the row once it holds the bucket.
        try (PreparedStatement p = c.prepareStatement("DELETE FROM reconmuc_handover"
                + " WHERE giver = ? AND state <> '" + VACANT + "' OR taker = ?")) {
            p.setString(1, instance);
            p.setString(2, instance);
            p.executeUpdate();
        }
        return vacant;
    }

    /** The instances whose heartbeat is younger than {@code leaseMillis}, oldest first. */
    @Override
    public synchronized List<String> liveInstances(long now, long leaseMillis) throws SQLException {
        return inTransaction(c -> {
            List<String> live = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT id FROM reconmuc_instance WHERE heartbeat_ms >= ? ORDER BY started_ms, id")) {
                p.setLong(1, now - leaseMillis);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        live.add(rs.getString(1));
                    }
                }
            }
            return live;
        });
    }

    /** The owner of each room's lease, expired or not (for tests and the operator's view). */
    @Override
    public synchronized Map<String, String> owners() throws SQLException {
        return inTransaction(c -> {
            Map<String, String> owners = new LinkedHashMap<>();
            try (PreparedStatement p = c.prepareStatement("SELECT room, owner FROM reconmuc_lease ORDER BY room");
                 ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    owners.put(rs.getString(1), rs.getString(2));
                }
            }
            return owners;
        });
    }

    @Override
    public synchronized Set<String> activitySubscribers() throws SQLException {
        return inTransaction(c -> {
            Set<String> sessions = new HashSet<>();
            try (PreparedStatement p = c.prepareStatement("SELECT session FROM reconmuc_rai_subscriber");
                 ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    sessions.add(rs.getString(1));
                }
            }
            return sessions;
        });
    }

    @Override
    public synchronized void activitySubscribed(String session, long now) throws SQLException {
        // Only the instance holding the service's bucket writes (its presences reach that one), so
        // no two insert one session at once; a bucket that moves meanwhile may: the key keeps one.
        updateInTransaction("INSERT INTO reconmuc_rai_subscriber (session, since_ms)"
                + " SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM reconmuc_rai_subscriber WHERE session = ?)", session, now, session);
    }

    @Override
    public synchronized void activityUnsubscribed(String session) throws SQLException {
        updateInTransaction("DELETE FROM reconmuc_rai_subscriber WHERE session = ?", session);
    }

    /** Runs one statement with {@code args} in a transaction of its own; returns the rows it changed. */
    private int updateInTransaction(String sql, Object... args) throws SQLException {
        return inTransaction(c -> {
            try (PreparedStatement p = c.prepareStatement(sql)) {
                for (int i = 0; i < args.length; i++) {
                    p.setObject(i + 1, args[i]);
                }
                return p.executeUpdate();
            }
        });
    }

    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T inTransaction(Work<T> work) throws SQLException {
        if (connection == null) {
            connection = connector.connect();
            connection.setAutoCommit(false);
        }
        try {
            T result = work.run(connection);
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            try {
                connection.rollback();
                connection.close();
            } catch (SQLException ignored) {
                // going anyway
            }
            connection = null;
        }
    }
}
