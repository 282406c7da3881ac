package org.reconmuc.component.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.reconmuc.servers.PostgresServer;
import org.reconmuc.servers.ServerOptions;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * Two instances of the service, "a" and "b", behind a real ejabberd (four buckets, two connections
 * each) on a real PostgreSQL, with short leases and persistent rooms: what the pause and the
 * slow-instance ITs do things to.
 */
final class TwoInstancesBehindEjabberd implements AutoCloseable {
    final PostgresServer postgres;
    final XmppServer server;
    final Map<String, ComponentJvm> instances = new HashMap<>();

    private TwoInstancesBehindEjabberd(PostgresServer postgres, XmppServer server) {
        this.postgres = postgres;
        this.server = server;
    }

    /** Starts them, logging under {@code target/<folder>}. */
    static TwoInstancesBehindEjabberd start(String folder, int leaseSeconds) throws Exception {
        Path dir = Path.of("target", folder).toAbsolutePath();
        PostgresServer postgres = PostgresServer.start();
        XmppServer server = XmppServers.start("ejabberd", Files.createDirectories(dir.resolve("ejabberd")),
                ServerOptions.DEFAULT.withComponentBuckets(4));
        TwoInstancesBehindEjabberd two = new TwoInstancesBehindEjabberd(postgres, server);
        for (String name : List.of("a", "b")) {
            two.instances.put(name, ComponentJvm.start(server, dir.resolve("instance-" + name + ".log"),
                    "--store", postgres.jdbcUrl(), "--instance", name, "--connections", "2",
                    "--lease-seconds", Integer.toString(leaseSeconds), "--room-default-persistent", "true",
                    "--lock-new-rooms", "false", "--rate-messages-per-second", "1000", "--rate-burst", "1000"));
        }
        return two;
    }

    /** Each registered instance ("a", "b") with the connections its heartbeat says it holds (an adopter's grow). */
    Map<String, Integer> registeredInstances() throws Exception {
        Map<String, Integer> registered = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(postgres.jdbcUrl());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, connections FROM reconmuc_instance")) {
            while (rs.next()) {
                registered.put(rs.getString(1).substring(0, rs.getString(1).lastIndexOf('-')), rs.getInt(2));
            }
        }
        return registered;
    }

    /** Stops everything; a paused instance is continued first. */
    @Override
    public void close() throws Exception {
        for (ComponentJvm c : instances.values()) {
            c.thaw();
            c.close();
        }
        server.close();
        postgres.close();
    }
}
