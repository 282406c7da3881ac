package org.reconmuc.component.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
/**
 * That an instance is alive, as PostgreSQL knows it: a session-level advisory lock on a key
 * derived from the instance's id, held on a connection of its own for the instance's whole life.
 * The server frees it the moment that session ends — the process died, or its connection was
 * cut — so another instance that can take the lock knows the instance is gone, while one that
 * merely runs late (a loaded machine, a pause) keeps it. Where the store is not PostgreSQL there
 * is no lock: {@link #hold()} does nothing and death is told from heartbeats ({@link RoomLeases}).
 *
 * <p>Not a fence: a room's writes are fenced by its lease's epoch, never by this lock.
 */
public final class InstanceLock implements LeaseStore.AliveLock {
    private final String instance;
    /** Null where the store has no advisory locks. */
    private final RoomLeases.Connector connector;
    private Connection connection;

    InstanceLock(String instance, RoomLeases.Connector connector) {
        this.instance = instance;
        this.connector = connector;
    }

    /**
     * Takes the lock, or takes it again if its connection was lost (another instance may have found
     * it free and adopted this one meanwhile: its rooms then show up as lost at the next renewal).
     * Returns true if it had to be taken (again).
     *
     * @throws SQLException if the store cannot be reached, or another session holds the lock
     */
    @Override
    public synchronized boolean hold() throws SQLException {
        if (connector == null) {
            return false;
        }
        if (connection != null) {
            if (connection.isValid(2)) {
                return false;
            }
            close();
        }
        Connection c = connector.connect();
        try {
            c.setAutoCommit(true);
            if (!tryLock(c, key(instance))) {
                throw new SQLException("the instance lock of " + instance + " is held by another session");
            }
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
        connection = c;
        return true;
    }

    /** Frees the lock: other instances find this one gone (and adopt its connections) at their next look. */
    @Override
    public synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the session ends either way, and the server frees the lock with it
            }
            connection = null;
        }
    }

    /**
     * The lock's key: 64 bits of a hash of the instance id (ids carry a random part: two never
     * meet). In {@code pg_locks} it shows as {@code classid} (high 32 bits) and {@code objid} (low).
     */
    public static long key(String instance) {
        return advisoryKey("reconmuc-instance:" + instance);
    }

    /** An advisory lock's key for {@code name}: the first 64 bits of its SHA-256. */
    static long advisoryKey(String name) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            long key = 0;
            for (int i = 0; i < 8; i++) {
                key = key << 8 | (h[i] & 0xff);
            }
            return key;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean tryLock(Connection c, long key) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            p.setLong(1, key);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    static void unlock(Connection c, long key) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            p.setLong(1, key);
            p.executeQuery().close();
        }
    }
}
