package org.reconmuc.component.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.reconmuc.servers.PostgresServer;
import org.reconmuc.servers.ServerOptions;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * Instances of the service behind a real ejabberd (two connections each, two buckets an instance)
 * on a real PostgreSQL: what the pause, slow-instance and cluster-multicast ITs do things to.
 */
final class InstancesBehindEjabberd implements AutoCloseable {
    final PostgresServer postgres;
    final XmppServer server;
    /** By name, in the order they started; an IT that stops one removes it. */
    final Map<String, ComponentJvm> instances = new LinkedHashMap<>();

    private InstancesBehindEjabberd(PostgresServer postgres, XmppServer server) {
        this.postgres = postgres;
        this.server = server;
    }

    /**
     * "a" and "b" with short leases and persistent rooms (four buckets), logging under
     * {@code target/<folder>}.
     */
    static InstancesBehindEjabberd two(String folder, int leaseSeconds) throws Exception {
        return start(folder, List.of("a", "b"), "--lease-seconds", Integer.toString(leaseSeconds),
                "--room-default-persistent", "true", "--lock-new-rooms", "false",
                "--rate-messages-per-second", "1000", "--rate-burst", "1000");
    }

    /**
     * The instances {@code names}, each with two connections and {@code settings}, behind an
     * ejabberd with two buckets an instance, logging under {@code target/<folder>}.
     */
    static InstancesBehindEjabberd start(String folder, List<String> names, String... settings) throws Exception {
        Path dir = Path.of("target", folder).toAbsolutePath();
        PostgresServer postgres = PostgresServer.start();
        XmppServer server = XmppServers.start("ejabberd", Files.createDirectories(dir.resolve("ejabberd")),
                ServerOptions.DEFAULT.withComponentBuckets(2 * names.size()));
        InstancesBehindEjabberd started = new InstancesBehindEjabberd(postgres, server);
        for (String name : names) {
            List<String> args = new ArrayList<>(List.of("--store", postgres.jdbcUrl(), "--instance", name, "--connections", "2"));
            args.addAll(List.of(settings));
            started.instances.put(name, ComponentJvm.start(server, dir.resolve("instance-" + name + ".log"),
                    args.toArray(String[]::new)));
        }
        return started;
    }

    /** Each registered instance (by name) with the connections its heartbeat says it holds (an adopter's grow). */
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
