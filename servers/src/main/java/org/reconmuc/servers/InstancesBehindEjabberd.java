package org.reconmuc.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Instances of the service behind a real ejabberd (a bucket per connection, {@code bare_destination})
 * on a real PostgreSQL they share: what the cluster ITs and {@code irc-replay rooms} run. How an
 * instance runs is the caller's ({@link Launcher}: the ITs' component JVM, the replay's metered
 * one); the fixture gives each its store, name and connections, logs it to
 * {@code <dir>/instance-<name>.log}, and stops and starts instances by name. {@link #close()} stops
 * the instances, then ejabberd, then PostgreSQL.
 *
 * @param <I> the caller's handle on a running instance
 */
public final class InstancesBehindEjabberd<I extends AutoCloseable> implements AutoCloseable {
    /** Starts one instance of the service with {@code flags} attached to {@code server}, writing to {@code log}. */
    @FunctionalInterface
    public interface Launcher<I> {
        I start(String name, XmppServer server, List<String> flags, Path log) throws Exception;
    }

    /** What to do on the started server before the first instance attaches (e.g. create what they will read). */
    @FunctionalInterface
    public interface BeforeInstances {
        void accept(XmppServer server) throws Exception;
    }

    private final Path dir;
    private final PostgresServer postgres;
    private final XmppServer server;
    private final SharedStore store;
    private final int connections;
    private final Launcher<I> launcher;
    private final List<String> settings;
    /** By name, in the order they started. */
    private final Map<String, I> instances = new LinkedHashMap<>();

    private InstancesBehindEjabberd(Path dir, PostgresServer postgres, XmppServer server, int connections,
                                    Launcher<I> launcher, List<String> settings) {
        this.dir = dir;
        this.postgres = postgres;
        this.server = server;
        this.store = new SharedStore(postgres);
        this.connections = connections;
        this.launcher = launcher;
        this.settings = List.copyOf(settings);
    }

    /**
     * PostgreSQL, an ejabberd with {@code names.size() * connections} buckets (at least 2, ejabberd's
     * least) and the instances {@code names}, each with {@code connections} connections and
     * {@code settings} (the service's flags), started in turn; files under {@code dir}.
     */
    public static <I extends AutoCloseable> InstancesBehindEjabberd<I> start(Path dir, List<String> names, int connections,
            Launcher<I> launcher, List<String> settings) throws Exception {
        return start(dir, names, connections, launcher, settings, server -> { });
    }

    /** As above, {@code before} done on the started server before the first instance starts. */
    public static <I extends AutoCloseable> InstancesBehindEjabberd<I> start(Path dir, List<String> names, int connections,
            Launcher<I> launcher, List<String> settings, BeforeInstances before) throws Exception {
        PostgresServer postgres = PostgresServer.start();
        XmppServer server;
        try {
            server = XmppServers.start("ejabberd", Files.createDirectories(dir.resolve("ejabberd")),
                    ServerOptions.DEFAULT.withComponentBuckets(Math.max(2, names.size() * connections)));
        } catch (Exception e) {
            postgres.close();
            throw e;
        }
        InstancesBehindEjabberd<I> started = new InstancesBehindEjabberd<>(dir, postgres, server, connections, launcher, settings);
        try {
            before.accept(server);
            for (String name : names) {
                started.start(name);
            }
        } catch (Exception e) {
            started.close();
            throw e;
        }
        return started;
    }

    /** Starts instance {@code name} (again, after {@link #remove}), appending to its log. */
    public synchronized I start(String name) throws Exception {
        if (instances.containsKey(name)) {
            throw new IllegalStateException("instance " + name + " is running");
        }
        List<String> flags = new ArrayList<>(List.of("--store", postgres.jdbcUrl(), "--instance", name,
                "--connections", Integer.toString(connections)));
        flags.addAll(settings);
        I instance = launcher.start(name, server, flags, log(name));
        instances.put(name, instance);
        return instance;
    }

    /** Instance {@code name}'s log. */
    public Path log(String name) {
        return dir.resolve("instance-" + name + ".log");
    }

    /** Running instance {@code name}, or null. */
    public synchronized I instance(String name) {
        return instances.get(name);
    }

    /** The running instances, by name in the order they started. */
    public synchronized Map<String, I> instances() {
        return new LinkedHashMap<>(instances);
    }

    /** Takes instance {@code name} out of the fixture, not stopped: the caller kills or stops it. */
    public synchronized I remove(String name) {
        I removed = instances.remove(name);
        if (removed == null) {
            throw new IllegalArgumentException("no running instance " + name);
        }
        return removed;
    }

    /** Stops instance {@code name} as it stops itself ({@link AutoCloseable#close()}); {@link #start} starts it again. */
    public void stop(String name) throws Exception {
        remove(name).close();
    }

    public PostgresServer postgres() {
        return postgres;
    }

    public XmppServer server() {
        return server;
    }

    /** What the instances wrote in their store. */
    public SharedStore store() {
        return store;
    }

    /** Stops the instances (each as {@link #stop}), then ejabberd, then PostgreSQL, whatever fails. */
    @Override
    public void close() throws Exception {
        Exception failed = null;
        for (String name : List.copyOf(instances().keySet())) {
            try {
                stop(name);
            } catch (Exception e) {
                failed = failed == null ? e : failed;
            }
        }
        server.close();
        postgres.close();
        if (failed != null) {
            throw failed;
        }
    }
}
