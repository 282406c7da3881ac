package org.reconmuc.servers;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Several ejabberd 23.01 nodes on this machine in one Mnesia cluster, each its own OS process
 * (start-direct.sh, as {@link XmppServers#startEjabberd} starts one), for rooms bigger than one
 * process can hold: a process may have at most 20,000 open files here, so a node holds at most
 * ~19,900 client connections. Node k's clients connect to its own c2s port on 127.0.0.1
 * ({@link #nodes()}{@code .get(k).newClient(...)}); every node has the template's component port
 * too, and the component attaches to the {@link #first()}'s. ejabberd routes between the nodes
 * through Erlang distribution: the component's stanzas (and its XEP-0033 multicast's copies) reach
 * users on every node, and a room of the server's own MUC lives on one node with occupants on all.
 *
 * <p>Distribution without epmd: every node listens on one shared port, each on a loopback address
 * of its own (node k on 127.0.3.k, a long node name {@code reconmuc_<port>_<k>@127.0.3.k}), and looks
 * for every other node on that same port ({@code -erl_epmd_port}); one cookie. So nothing but the
 * nodes runs, and a cluster's port cannot clash with another's on 127.0.0.1. To look inside a node:
 * {@code erl -name probe@127.0.3.9 -setcookie reconmuc -kernel inet_dist_use_interface '{127,0,3,9}'
 * -erl_epmd_port <port> -start_epmd false -hidden}, then {@code rpc:call(Node, ...)}.
 *
 * <p>Joining: the first node starts as a node alone does; the others, all at once, start Mnesia with
 * the first as an extra db node, take a disc copy of the schema and only then start ejabberd, which
 * adds a local copy of each of its tables of the cluster's type — the steps of {@code ejabberdctl
 * join_cluster} (ejabberd_cluster_mnesia:join), done before the node listens. join_cluster itself
 * needs ejabberdctl (epmd) and restarts ejabberd inside a node that already answers on its ports, so
 * an answer would not tell that it had joined; here a node that cannot join stops, and
 * {@link #start} fails with its log.
 *
 * <p>Every node has the big-load settings ({@link EjabberdServer.Limits#BOTS}): the open-files soft
 * limit raised to the hard one, a MUC room of up to 200,000, client sessions closed only when a
 * million stanzas wait, schedulers that do not spin, 1 GB distribution buffers. Any user name and
 * password log in on {@code insecure.localhost} (SASL PLAIN), any client on {@code anon.localhost}
 * (SASL ANONYMOUS), without registration.
 *
 * <p>Measured here, on two cores shared with other work: a 3-node cluster is ready in 9 s (load 3;
 * the first node 2.4 s, the other two together 7 s), 13-15 s at load 6-12; 8 nodes in 47 s at load
 * 10. An idle node's RSS is 80-90 MB. One node held 19,900 sessions (raw clients, SASL PLAIN, no
 * zlib) in 1.43 GB RSS (~70 KB a session), each login ~3 ms of its CPU; at 20,000 open files its
 * c2s listener logs "Failed TCP accept: too many open files" in a tight loop (79 CPU-s and 6 MB of
 * error log in 25 s) until the waiting connections go: keep a node's clients under ~19,900. Erlang's
 * limits are not the wall: 32,000 ports ({@code ERL_MAX_PORTS}), 250,000 processes ({@code +P}), a
 * session taking one of each (counted: 1,000 sessions, +1,000 of each). A client from one source address ran out of
 * ephemeral ports to one c2s port at 18,224 connections (the machine's 28,232 shared with other
 * work): spread a big load's source addresses.
 *
 * <p>{@link #close()} stops every node at once (an idle 3-node or 8-node cluster in 1-3 s; a node
 * holding 19,900 sessions outlives the 10-s SIGTERM grace and is killed) and their children; a JVM
 * that exits without it stops them from its shutdown hook ({@link Reaper}).
 */
public final class EjabberdCluster implements AutoCloseable {
    public static final int MAX_NODES = 8;
    /** Node k (from 1) listens for Erlang distribution on this prefix + k. */
    private static final String DISTRIBUTION_NET = "127.0.3.";
    private static final int ATTEMPTS = 3;

    private final Path runDir;
    private final List<EjabberdServer> nodes;
    private final List<String> erlangNodes;
    private final Duration startTime;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EjabberdCluster(Path runDir, List<EjabberdServer> nodes, List<String> erlangNodes, Duration startTime) {
        this.runDir = runDir;
        this.nodes = List.copyOf(nodes);
        this.erlangNodes = List.copyOf(erlangNodes);
        this.startTime = startTime;
    }

    /** {@code nodes} (1 to {@link #MAX_NODES}) clustered nodes on loopback, their own MUC without archive. */
    public static EjabberdCluster start(Path runDir, int nodes) throws Exception {
        return start(runDir, nodes, ServerOptions.DEFAULT);
    }

    /**
     * Starts {@code nodes} clustered nodes, node k's files in {@code runDir/node-k} (the run
     * directory is cleared first, as {@link XmppServers} clears one); returns once each answers on
     * its ports and has joined. On loopback only; {@code options} says whether the own MUC archives
     * and how many buckets the component domain has. Chosen ports taken meanwhile: tried again with
     * new ones.
     */
    public static EjabberdCluster start(Path runDir, int nodes, ServerOptions options) throws Exception {
        if (nodes < 1 || nodes > MAX_NODES) {
            throw new IllegalArgumentException("an ejabberd cluster has 1 to " + MAX_NODES + " nodes, not " + nodes);
        }
        if (!options.placement().equals(ServerPlacement.LOOPBACK)) {
            throw new IllegalArgumentException("an ejabberd cluster runs on loopback only, not " + options.placement());
        }
        Path repoRoot = XmppServers.repoRoot();
        Path dir = runDir.toAbsolutePath().normalize();
        for (int attempt = 1; ; attempt++) {
            XmppServers.prepareRunDir(dir);
            try {
                return startOnce(repoRoot, dir, nodes, options);
            } catch (XmppServerStartException e) {
                if (!e.isPortConflict() || attempt >= ATTEMPTS) {
                    throw e;
                }
                System.err.println("[xmpp-server] ejabberd cluster: a chosen port was taken, retrying with new ones");
            }
        }
    }

    private static EjabberdCluster startOnce(Path repoRoot, Path dir, int count, ServerOptions options)
            throws XmppServerStartException, IOException, InterruptedException {
        long started = System.nanoTime();
        int[] ports = FreePorts.onLoopback(2 * count);
        List<InetAddress> addresses = new ArrayList<>();
        for (int k = 1; k <= count; k++) {
            addresses.add(InetAddress.getByName(DISTRIBUTION_NET + k));
        }
        int distributionPort = FreePorts.onAll(addresses);
        List<EjabberdServer.ErlangNode> erlangNodes = new ArrayList<>();
        for (int k = 1; k <= count; k++) {
            erlangNodes.add(new EjabberdServer.ErlangNode("reconmuc_" + distributionPort + "_" + k + "@" + DISTRIBUTION_NET + k,
                    DISTRIBUTION_NET + k, distributionPort, k == 1 ? null : erlangNodes.get(0).name()));
        }
        List<EjabberdServer> nodes = new ArrayList<>();
        /** Every node that came up, in whatever order: stopped if the cluster does not come up. */
        List<EjabberdServer> up = Collections.synchronizedList(new ArrayList<>());
        ExecutorService starter = Executors.newFixedThreadPool(Math.max(1, count - 1));
        try {
            nodes.add(startNode(repoRoot, dir, 1, count, ports, erlangNodes.get(0), options));
            up.add(nodes.get(0));
            List<Future<EjabberdServer>> joining = new ArrayList<>();
            for (int k = 2; k <= count; k++) {
                int node = k;
                joining.add(starter.submit(() -> {
                    EjabberdServer joined = startNode(repoRoot, dir, node, count, ports, erlangNodes.get(node - 1), options);
                    up.add(joined);
                    return joined;
                }));
            }
            Throwable failure = null;
            for (Future<EjabberdServer> f : joining) {
                try {
                    nodes.add(f.get());
                } catch (ExecutionException e) {
                    // A port conflict is worth a retry whatever else failed.
                    if (failure == null || e.getCause() instanceof XmppServerStartException s && s.isPortConflict()) {
                        failure = e.getCause();
                    }
                }
            }
            if (failure instanceof XmppServerStartException notStarted) {
                throw notStarted;
            }
            if (failure instanceof IOException io) {
                throw io;
            }
            if (failure instanceof Error error) {
                throw error;
            }
            if (failure != null) {
                throw new IllegalStateException("starting a node failed", failure);
            }
        } catch (XmppServerStartException | IOException | InterruptedException | RuntimeException | Error e) {
            starter.shutdownNow();
            // A node still starting gives up when interrupted; one that comes up meanwhile is stopped too.
            try {
                starter.awaitTermination(EjabberdServer.READY_TIMEOUT.toSeconds() * Math.max(1, count / 2) + 10, TimeUnit.SECONDS);
            } finally {
                closeAll(List.copyOf(up));
            }
            throw e;
        } finally {
            starter.shutdown();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        EjabberdCluster cluster = new EjabberdCluster(dir, nodes,
                erlangNodes.stream().map(EjabberdServer.ErlangNode::name).toList(), took);
        System.err.printf(Locale.ROOT, "[xmpp-server] ejabberd cluster of %d node(s) ready in %d ms: %s%n", count,
                took.toMillis(), cluster);
        return cluster;
    }

    /**
     * Node k (from 1). The joining nodes boot together on two cores: 8 took 31-40 s each (load 10),
     * where one alone takes 2-7 s; a node gets the single server's bound once per two joining together.
     */
    private static EjabberdServer startNode(Path repoRoot, Path dir, int k, int count, int[] ports,
            EjabberdServer.ErlangNode node, ServerOptions options) throws XmppServerStartException, IOException {
        Duration readyTimeout = EjabberdServer.READY_TIMEOUT.multipliedBy(Math.max(1, count / 2));
        return EjabberdServer.start(repoRoot, dir.resolve("node-" + k), ports[2 * (k - 1)], ports[2 * (k - 1) + 1], node,
                options, EjabberdServer.Limits.BOTS, readyTimeout);
    }

    /** The nodes, first to last; node k's clients connect to {@code nodes().get(k).c2sPort()}. */
    public List<XmppServer> nodes() {
        return List.copyOf(nodes);
    }

    /** The first node: the one the others joined, where the component attaches. */
    public XmppServer first() {
        return nodes.get(0);
    }

    /** Each node's process (beam.smp), first to last: what to sample for CPU and RSS. */
    public List<Long> pids() {
        return nodes.stream().map(XmppServer::pid).toList();
    }

    /** Each node's c2s port on 127.0.0.1, first to last. */
    public List<Integer> c2sPorts() {
        return nodes.stream().map(XmppServer::c2sPort).toList();
    }

    /** Each node's Erlang node name, first to last. */
    public List<String> erlangNodes() {
        return erlangNodes;
    }

    /** From choosing the ports until every node had joined and answered. */
    public Duration startTime() {
        return startTime;
    }

    public Path runDir() {
        return runDir;
    }

    /**
     * Closes every node's clients and stops every node at once (SIGTERM, SIGKILL after a bound; the
     * processes' children too). Idempotent; never throws.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            closeAll(nodes);
        }
    }

    private static void closeAll(List<EjabberdServer> nodes) {
        List<Thread> stopping = new ArrayList<>();
        for (EjabberdServer node : nodes) {
            Thread t = new Thread(node::close, "stop-" + node.runDir().getFileName());
            t.start();
            stopping.add(t);
        }
        boolean interrupted = false;
        for (Thread t : stopping) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("ejabberd cluster[");
        for (int i = 0; i < nodes.size(); i++) {
            EjabberdServer n = nodes.get(i);
            b.append(i == 0 ? "" : ", ").append(erlangNodes.get(i)).append(" pid ").append(n.pid())
                    .append(" c2s ").append(n.c2sPort());
            if (i == 0) {
                b.append(" component ").append(n.componentPort());
            }
        }
        return b.append(", ").append(runDir).append("]").toString();
    }
}
