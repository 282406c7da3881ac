package org.reconmuc.servers;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * ejabberd 23.01 started by {@code deploy/ejabberd/start-direct.sh}, which execs down to beam.smp
 * (no ejabberdctl, no epmd): the PID is the server's. As root it runs as user {@code ejabberd},
 * so the run directory is handed to that user.
 */
final class EjabberdServer extends LocalXmppServer {
    static final String TEMPLATE = "deploy/ejabberd/ejabberd.yml.template";
    /**
     * ejabberd is ready in 1-2 s on a quiet machine, but took 10.4 s (its own count, the VM's boot
     * besides) with both cores busy and three IT forks; a SIGTERM before it is ready crashes it, so
     * wait generously: the bound costs nothing when it starts fast.
     */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private EjabberdServer(ServerPlacement placement, Path runDir, int c2sPort, int componentPort) {
        super("ejabberd", placement, runDir, c2sPort, componentPort);
    }

    static EjabberdServer start(Path repoRoot, Path runDir, int[] ports, ServerOptions options)
            throws XmppServerStartException, IOException {
        return start(repoRoot, runDir, ports[0], ports[1], ErlangNode.alone(ports[2]), options, Limits.TESTS, READY_TIMEOUT);
    }

    /** One node: alone, or one of an {@link EjabberdCluster}'s; it must answer within {@code readyTimeout}. */
    static EjabberdServer start(Path repoRoot, Path runDir, int c2sPort, int componentPort, ErlangNode node,
            ServerOptions options, Limits limits, Duration readyTimeout) throws XmppServerStartException, IOException {
        EjabberdServer server = new EjabberdServer(options.placement(), runDir, c2sPort, componentPort);
        Files.createDirectories(runDir.resolve("spool"));
        Files.createDirectories(runDir.resolve("logs"));
        Map<String, String> values = new HashMap<>(limits.placeholders());
        values.putAll(Map.of("LISTEN_ADDRESS", options.placement().listenAddress(),
                "MUC_ARCHIVE", Boolean.toString(options.nativeMucArchive()),
                "C2S_PORT", Integer.toString(server.c2sPort()),
                "COMPONENT_PORT", Integer.toString(server.componentPort()),
                "COMPONENT_DOMAIN", COMPONENT_DOMAIN,
                "COMPONENT_SECRET", COMPONENT_SECRET,
                "DOMAIN_BALANCING", domainBalancing(options.componentBuckets())));
        Files.writeString(runDir.resolve("ejabberd.yml"), Templates.render(Files.readString(repoRoot.resolve(TEMPLATE)), values));
        Files.copy(repoRoot.resolve("deploy/ejabberd/inetrc"), runDir.resolve("inetrc"));
        if (isRoot()) {
            handToEjabberdUser(runDir);
        }
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", repoRoot.resolve("deploy/ejabberd/start-direct.sh").toString());
        builder.environment().put("DIR", runDir.toString());
        node.describe(builder.environment());
        if (!limits.erlangFlags().isEmpty()) {
            builder.environment().put("EJABBERD_ERL_FLAGS", limits.erlangFlags());
        }
        server.launch(builder, readyTimeout);
        return server;
    }

    /**
     * How a node takes part in Erlang distribution (start-direct.sh): no epmd, so it listens on
     * {@code port} and looks for every other node on that same port; the nodes of a cluster
     * therefore share the port and differ by {@code address} (each its own loopback address, a long
     * node name there). A node alone has none (a short name at 127.0.0.1, as always). A node with
     * {@code joins} joins that running node's Mnesia cluster before ejabberd starts.
     */
    record ErlangNode(String name, String address, int port, String joins) {
        static ErlangNode alone(int port) {
            return new ErlangNode("reconmuc_" + port + "@localhost", null, port, null);
        }

        void describe(Map<String, String> environment) {
            environment.put("EJABBERD_DIST_PORT", Integer.toString(port));
            environment.put("EJABBERD_NODE", name);
            if (address != null) {
                environment.put("EJABBERD_DIST_ADDRESS", address);
            }
            if (joins != null) {
                environment.put("EJABBERD_JOIN", joins);
            }
        }
    }

    /**
     * What the template's per-load placeholders are, and more emulator flags. {@link #TESTS}: what
     * every test and the single-server runs always had. {@link #BOTS}: rooms of up to 200,000 bots,
     * ~20,000 sessions per node (one node holds at most ~19,900 connections: 20,000 open files is the
     * hard limit per process here).
     *
     * @param c2sMaxFsmQueue stanzas waiting for one client session before ejabberd closes it
     * @param smMaxAckQueue  stanzas a stream-management client has not acknowledged before it is closed
     * @param mucMaxUsers    the own MUC's occupants per room at most (no room may raise it)
     * @param mucMaxUsersAdminThreshold how many admins and owners may enter a full room beyond that
     * @param roomMaxUsers   a new room's occupants at most
     * @param erlangFlags    emulator flags beyond start-direct.sh's, space-separated
     */
    record Limits(int c2sMaxFsmQueue, int smMaxAckQueue, int mucMaxUsers, int mucMaxUsersAdminThreshold, int roomMaxUsers,
            String erlangFlags) {
        /** ejabberd's own c2s and stream-management queue bounds; a room of up to 1,000 (5,000 by its owner). */
        static final Limits TESTS = new Limits(10_000, 5_000, 5_000, 20, 1_000, "");
        /**
         * A room of 200,000; a session closed only when a million stanzas wait for it. Schedulers do
         * not busy-wait for work ({@code +sbwt none}, also for the dirty ones): several nodes share two
         * cores with the component and the bots, and a spinning idle scheduler burns CPU the others
         * need and the harness would count as the server's. Distribution buffers of 1 GB a peer
         * ({@code +zdbbl}, default 1 MB): ejabberd routes a stanza to another node's session with
         * {@code erlang:send(Pid, Msg, [nosuspend, noconnect])}, which drops it when the peer's buffer
         * is busy, so a big room's burst must fit.
         */
        static final Limits BOTS = new Limits(1_000_000, 1_000_000, 200_000, 200_000, 200_000,
                "+sbwt none +sbwtdcpu none +sbwtdio none +zdbbl 1048576");

        Map<String, String> placeholders() {
            return Map.of("C2S_MAX_FSM_QUEUE", Integer.toString(c2sMaxFsmQueue),
                    "SM_MAX_ACK_QUEUE", Integer.toString(smMaxAckQueue),
                    "MUC_MAX_USERS", Integer.toString(mucMaxUsers),
                    "MUC_MAX_USERS_ADMIN_THRESHOLD", Integer.toString(mucMaxUsersAdminThreshold),
                    "MUC_ROOM_MAX_USERS", Integer.toString(roomMaxUsers));
        }
    }

    /**
     * Several connections for the component domain, every stanza for one room (its bare JID) on
     * the same one: the buckets are kept when a connection goes, and its stanzas are dropped until
     * a new connection takes the empty bucket (ejabberd_router_mnesia).
     */
    static String domainBalancing(int buckets) {
        if (buckets == 0) {
            return "";
        }
        return "domain_balancing:\n  \"" + COMPONENT_DOMAIN + "\":\n    type: bare_destination\n"
                + "    component_number: " + buckets + "\n";
    }

    @Override
    Path consoleFile() {
        return runDir().resolve("ejabberd.out");
    }

    @Override
    List<Path> logFiles() {
        return List.of(runDir().resolve("logs/ejabberd.log"), runDir().resolve("logs/error.log"), consoleFile());
    }

    static boolean isRoot() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** chown -R ejabberd:ejabberd, after checking the user can reach the directory at all. */
    private static void handToEjabberdUser(Path runDir) throws IOException {
        for (Path dir = runDir.getParent(); dir != null; dir = dir.getParent()) {
            if (!Files.getPosixFilePermissions(dir).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                throw new IOException("ejabberd runs as user 'ejabberd' when started as root and cannot enter " + dir
                        + " (no o+x); use a run directory under target/ instead of " + runDir);
            }
        }
        UserPrincipalLookupService users = FileSystems.getDefault().getUserPrincipalLookupService();
        UserPrincipal user = users.lookupPrincipalByName("ejabberd");
        GroupPrincipal group = users.lookupPrincipalByGroupName("ejabberd");
        try (Stream<Path> all = Files.walk(runDir)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class,
                        LinkOption.NOFOLLOW_LINKS);
                view.setOwner(user);
                view.setGroup(group);
            }
        }
    }
}
