package org.reconmuc.servers;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the instances of the service wrote in the PostgreSQL store they share, read from outside as
 * a test or the replay reads it: who holds which room, which instances are registered and with how
 * many connections, what a room archived. The JDBC driver comes from the caller's classpath (the
 * component's). An instance's row is named {@code <instance>-<suffix>}; the names here are the
 * instances' {@code --instance} names.
 */
public final class SharedStore {
    private final String jdbcUrl;

    public SharedStore(PostgresServer postgres) {
        this.jdbcUrl = postgres.jdbcUrl();
    }

    /** Room JID to the name of the instance that holds its lease now. */
    public Map<String, String> roomOwners() throws SQLException {
        Map<String, String> owners = new HashMap<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl);
             PreparedStatement s = c.prepareStatement("SELECT room, owner FROM reconmuc_lease WHERE owner IS NOT NULL");
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                owners.put(rs.getString(1), instanceName(rs.getString(2)));
            }
        }
        return owners;
    }

    /** Rooms held per instance name, from {@link #roomOwners()}. */
    public Map<String, Integer> roomsByInstance() throws SQLException {
        Map<String, Integer> counts = new TreeMap<>();
        roomOwners().values().forEach(o -> counts.merge(o, 1, Integer::sum));
        return counts;
    }

    /**
     * Every registered instance (by name) with the connections its heartbeat says it holds (an
     * adopter's grow), stopped ones included until a survivor removes them.
     */
    public Map<String, Integer> registeredInstances() throws SQLException {
        return instances("SELECT id, connections FROM reconmuc_instance");
    }

    /** The running instances (a cleanly stopped one's heartbeat is 0) with the connections each holds. */
    public Map<String, Integer> runningInstances() throws SQLException {
        return instances("SELECT id, connections FROM reconmuc_instance WHERE heartbeat_ms > 0");
    }

    private Map<String, Integer> instances(String query) throws SQLException {
        Map<String, Integer> held = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl);
             PreparedStatement s = c.prepareStatement(query);
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                held.merge(instanceName(rs.getString(1)), rs.getInt(2), Integer::sum);
            }
        }
        return held;
    }

    /** How many sessions are subscribed to XEP-0437 room activity indicators, whichever instance took them. */
    public int activitySubscribers() throws SQLException {
        return count("SELECT COUNT(*) FROM reconmuc_rai_subscriber");
    }

    /** How many messages {@code room} archived. */
    public int archived(String room) throws SQLException {
        return count("SELECT COUNT(*) FROM reconmuc_message WHERE room = ?", room);
    }

    /** How many archived messages of {@code room} have this body. */
    public int archivedWithBody(String room, String body) throws SQLException {
        return count("SELECT COUNT(*) FROM reconmuc_message WHERE room = ? AND xml LIKE ?", room,
                "%<body>" + body + "</body>%");
    }

    /** What {@code room} archived, each message's stanza as stored, in the archive's order. */
    public List<String> archive(String room) throws SQLException {
        List<String> xml = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl);
             PreparedStatement p = c.prepareStatement("SELECT xml FROM reconmuc_message WHERE room = ? ORDER BY seq")) {
            p.setString(1, room);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    xml.add(rs.getString(1));
                }
            }
        }
        return xml;
    }

    private int count(String query, String... values) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl);
             PreparedStatement p = c.prepareStatement(query)) {
            for (int i = 0; i < values.length; i++) {
                p.setString(i + 1, values[i]);
            }
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static String instanceName(String rowId) {
        return rowId.substring(0, rowId.lastIndexOf('-'));
    }
}
