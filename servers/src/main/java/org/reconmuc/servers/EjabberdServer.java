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
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private EjabberdServer(ServerPlacement placement, Path runDir, int c2sPort, int componentPort) {
        super("ejabberd", placement, runDir, c2sPort, componentPort);
    }

    static EjabberdServer start(Path repoRoot, Path runDir, int[] ports, ServerOptions options)
            throws XmppServerStartException, IOException {
        EjabberdServer server = new EjabberdServer(options.placement(), runDir, ports[0], ports[1]);
        int distPort = ports[2];
        Files.createDirectories(runDir.resolve("spool"));
        Files.createDirectories(runDir.resolve("logs"));
        Files.writeString(runDir.resolve("ejabberd.yml"), Templates.render(Files.readString(repoRoot.resolve(TEMPLATE)),
                Map.of("LISTEN_ADDRESS", options.placement().listenAddress(),
                "MUC_ARCHIVE", Boolean.toString(options.nativeMucArchive()),
                        "C2S_PORT", Integer.toString(server.c2sPort()),
                        "COMPONENT_PORT", Integer.toString(server.componentPort()),
                        "COMPONENT_DOMAIN", COMPONENT_DOMAIN,
                        "COMPONENT_SECRET", COMPONENT_SECRET,
                        "DOMAIN_BALANCING", domainBalancing(options.componentBuckets()))));
        Files.copy(repoRoot.resolve("deploy/ejabberd/inetrc"), runDir.resolve("inetrc"));
        if (isRoot()) {
            handToEjabberdUser(runDir);
        }
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", repoRoot.resolve("deploy/ejabberd/start-direct.sh").toString());
        builder.environment().put("DIR", runDir.toString());
        builder.environment().put("EJABBERD_DIST_PORT", Integer.toString(distPort));
        builder.environment().put("EJABBERD_NODE", "reconmuc_" + distPort + "@localhost");
        server.launch(builder, READY_TIMEOUT);
        return server;
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
