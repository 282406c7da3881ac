package org.reconmuc.component.store;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where this instance's leasing state is kept, shared by the instances of one service (the JDBC
 * code of this package): room leases, the instances and their heartbeats, and the buckets moving
 * between them. Each method is one transaction, so that two instances never both win the same
 * step; which step to take, and when, is decided in package {@code cluster} ({@code ClusterNode},
 * {@code BucketHandOvers}, {@code RoomLeasing}, {@code LeasedRooms}). Times are the callers' milliseconds (the
 * instances' clocks must agree to well within a lease).
 *
 * <p>One store connection of its own, used by one thread at a time; a failed statement drops the
 * connection, the next call opens a new one.
 */
public interface LeaseStore extends AutoCloseable {

    /** What a claim got. */
    sealed interface Claim permits Granted, Held {
    }

    /** The room is ours under {@code epoch}. */
    record Granted(long epoch) implements Claim {
    }

    /** Another instance holds the room for {@code millisLeft} more (unless it renews). */
    record Held(String owner, long millisLeft) implements Claim {
    }

    /** What {@link #adoptDeadInstances} took over: connections to open, and the rooms the dead instances held. */
    record Adoption(int connections, List<String> rooms) {
        public static final Adoption NONE = new Adoption(0, List.of());

        public Adoption {
            rooms = List.copyOf(rooms);
        }
    }

    /**
     * A bucket moving from {@code giver}'s connection number {@code connection} (-1: any it
     * adopted) to the instance that took the hand-over; its steps are {@code cluster.BucketHandOvers}'.
     */
    record HandOver(String id, String giver, int connection) {
    }

    /**
     * That this instance is alive, as the store tells it for certain (PostgreSQL's advisory lock):
     * held for the instance's whole life; where the store cannot tell, holding it does nothing.
     */
    interface AliveLock extends AutoCloseable {
        /**
         * Takes the lock, or takes it again if its connection was lost. Returns true if it had to be taken (again).
         *
         * @throws SQLException if the store cannot be reached, or another session holds the lock
         */
        boolean hold() throws SQLException;

        /** Frees the lock: other instances find this one gone at their next look. */
        @Override
        void close();
    }

    /** This instance's id. */
    String instance();

    // ---- room leases ----------------------------------------------------------------------------

    /**
     * Takes {@code room} for {@code leaseMillis} if nobody holds it, its lease ran out, or it is
     * ours already (a new epoch then fences what our own older incarnation of the room writes).
     */
    Claim claim(String room, long now, long leaseMillis) throws SQLException;

    /**
     * The heartbeat: this instance is alive with {@code connections} connections to the server, and
     * every lease it holds runs for a lease more from {@code now}. Returns the rooms it holds now,
     * with their epochs: a room missing, or under another epoch, was taken over.
     */
    Map<String, Long> renew(long now, int connections) throws SQLException;

    /** Gives a room up (if it is still ours at {@code epoch}): the next instance to claim it gets it at once. */
    void release(String room, long epoch) throws SQLException;

    /** Gives up every room (a clean stop). */
    void releaseAll() throws SQLException;

    /** The owner of each room's lease, expired or not (for tests and the operator's view). */
    Map<String, String> owners() throws SQLException;

    // ---- instances and their death --------------------------------------------------------------

    /**
     * A clean stop, once its connections are closed: this instance is marked stopped, and
     * {@code connectionsLeft} are those it closed without handing them over (whoever adopts it
     * opens as many).
     */
    void unregister(int connectionsLeft) throws SQLException;

    /** True where an instance's death is known for certain ({@link #instanceLock}), not guessed from a late heartbeat. */
    boolean tellsDeathForCertain();

    /** The lock that says, while its session lasts, that this instance is alive. */
    AliveLock instanceLock();

    /**
     * Takes over the connections of dead instances, each adopted by exactly one survivor. Where death
     * is told for certain, an instance is dead when its lock is free, however late its heartbeat,
     * and its rooms' leases are given back at once; elsewhere when its heartbeat is older than
     * {@code leaseMillis} (or it stopped cleanly), and its leases run out.
     */
    Adoption adoptDeadInstances(long now, long leaseMillis) throws SQLException;

    /** The instances whose heartbeat is younger than {@code leaseMillis}, oldest first. */
    List<String> liveInstances(long now, long leaseMillis) throws SQLException;

    // ---- buckets moving between live instances (the steps: BucketHandOvers) ---------------------

    /** Offers each of {@code connections} (this instance's connection numbers) to any other instance. */
    void offerConnections(List<Integer> connections, long now) throws SQLException;

    /**
     * A new instance's share: asks, of every other instance holding more than {@code share}
     * connections, one connection per connection over its share (less those already being handed
     * over), up to {@code wanted} in all. Returns how many it asked for.
     */
    int askForShare(int wanted, int share, long now) throws SQLException;

    /** The next hand-over for this instance to take (one it asked for, else one offered); null if none. */
    HandOver nextToTake() throws SQLException;

    /** The hand-overs whose takers wait at their handshake for this instance to close a connection. */
    List<HandOver> readyToGive() throws SQLException;

    /** The taker's connection waits at its handshake. */
    void readyToTake(String id) throws SQLException;

    /** The giver's connection is closed and the bucket empty. False if the taker gave up meanwhile. */
    boolean vacated(String id) throws SQLException;

    /** True while this instance takes a bucket it asked for or was offered (not yet done or given up). */
    boolean taking() throws SQLException;

    /** True once the giver has emptied the bucket; false while it has not; null if the hand-over was withdrawn. */
    Boolean vacant(String id) throws SQLException;

    /** The hand-over is over (done, refused, or given up by either side). */
    void endHandOver(String id) throws SQLException;

    /** Ends every hand-over this instance gives or takes (it stops), but for the buckets it emptied. */
    void endHandOvers() throws SQLException;

    /** The sessions subscribed to XEP-0437 room activity indicators, whichever instance their presence reached. */
    Set<String> activitySubscribers() throws SQLException;

    /** {@code session} subscribed at {@code now} (nothing changes if it is already). */
    void activitySubscribed(String session, long now) throws SQLException;

    /** {@code session}'s subscription ended (nothing changes if it had none). */
    void activityUnsubscribed(String session) throws SQLException;

    @Override
    void close();
}
