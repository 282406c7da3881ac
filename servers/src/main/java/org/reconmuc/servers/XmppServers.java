package org.reconmuc.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Starts real XMPP servers (Debian's Prosody 0.12 and ejabberd 23.01) as local processes for
 * integration tests. Each start chooses free loopback ports, generates its config from the
 * templates under {@code deploy/} into the run directory, waits until the server really answers
 * on its c2s and component ports, and retries with new ports if one was taken meanwhile.
 *
 * <p>The run directory holds the config, the server's state and its logs (kept for debugging).
 * It may exist: if it holds files from an earlier start they are deleted first; a non-empty
 * directory that was never a run directory is refused.
 *
 * <p>The templates are found under the repository root: system property {@code reconmuc.repoRoot}
 * (set by Failsafe), else the first parent of the working directory that has {@code deploy/}.
 */
public final class XmppServers {
    /** Marks a directory as a run directory, so a later start may clear it. */
    static final String MARKER = ".reconmuc-xmpp-server-run-dir";
    private static final int ATTEMPTS = 3;

    private XmppServers() {
    }

    public static XmppServer startProsody(Path runDir) throws Exception {
        return start("prosody", runDir);
    }

    public static XmppServer startEjabberd(Path runDir) throws Exception {
        return start("ejabberd", runDir);
    }

    /** {@code kind} is {@code "prosody"}, {@code "ejabberd"} or {@code "openfire"}. */
    public static XmppServer start(String kind, Path runDir) throws Exception {
        return start(kind, runDir, ServerOptions.DEFAULT);
    }

    /**
     * Like {@link #start(String, Path)}, with the server's processes where the options' placement
     * says (Prosody and ejabberd can run in a network namespace; Openfire only on loopback) and
     * their own MUC archiving or not (Prosody and ejabberd).
     */
    public static XmppServer start(String kind, Path runDir, ServerOptions options) throws Exception {
        ServerPlacement placement = options.placement();
        if (!kind.equals("prosody") && !kind.equals("ejabberd") && !kind.equals("openfire")) {
            throw new IllegalArgumentException("unknown server kind '" + kind + "' (prosody, ejabberd or openfire)");
        }
        if (kind.equals("openfire") && !options.equals(ServerOptions.DEFAULT)) {
            throw new IllegalArgumentException("openfire runs on loopback only (its autosetup template binds 127.0.0.1),"
                    + " with its MUC as the template sets it up");
        }
        Path repoRoot = repoRoot();
        Path dir = runDir.toAbsolutePath().normalize();
        for (int attempt = 1; ; attempt++) {
            prepareRunDir(dir);
            try {
                if (kind.equals("prosody")) {
                    return ProsodyServer.start(repoRoot, dir, FreePorts.onLoopback(2), options);
                }
                if (kind.equals("openfire")) {
                    return OpenfireServer.start(repoRoot, dir, FreePorts.onLoopback(2));
                }
                return EjabberdServer.start(repoRoot, dir, FreePorts.onLoopback(3), options);
            } catch (XmppServerStartException e) {
                if (!e.isPortConflict() || attempt >= ATTEMPTS) {
                    throw e;
                }
                System.err.println("[xmpp-server] " + kind + ": a chosen port was taken, retrying with new ones");
            }
        }
    }

    /**
     * Openfire with {@code plugin} (a plugin jar) dropped into its {@code plugins/} before the first
     * start, and {@code properties} among its system properties (e.g. the plugin's settings).
     * Returns once the plugin answers at {@link XmppServer#componentDomain()}; the component port
     * stays open for other components.
     */
    public static XmppServer startOpenfireWithPlugin(Path runDir, Path plugin, java.util.Map<String, String> properties)
            throws Exception {
        if (!Files.isRegularFile(plugin)) {
            throw new IllegalArgumentException("no plugin jar at " + plugin);
        }
        Path repoRoot = repoRoot();
        Path dir = runDir.toAbsolutePath().normalize();
        for (int attempt = 1; ; attempt++) {
            prepareRunDir(dir);
            try {
                return OpenfireServer.start(repoRoot, dir, FreePorts.onLoopback(2), plugin, properties);
            } catch (XmppServerStartException e) {
                if (!e.isPortConflict() || attempt >= ATTEMPTS) {
                    throw e;
                }
                System.err.println("[xmpp-server] openfire: a chosen port was taken, retrying with new ones");
            }
        }
    }

    /** The repository root, where {@code deploy/} lives. */
    public static Path repoRoot() {
        String property = System.getProperty("reconmuc.repoRoot");
        if (property != null && !property.isBlank()) {
            Path root = Path.of(property).toAbsolutePath().normalize();
            if (Files.isRegularFile(root.resolve(ProsodyServer.TEMPLATE))) {
                return root;
            }
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(ProsodyServer.TEMPLATE))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find " + ProsodyServer.TEMPLATE + " from reconmuc.repoRoot=" + property
                + " or above " + Path.of("").toAbsolutePath());
    }

    /**
     * Makes {@code dir} an empty run directory, killing what an earlier run left running there (in
     * it, or in a directory of its own inside: an {@link EjabberdCluster}'s nodes).
     */
    static void prepareRunDir(Path dir) throws IOException {
        Files.createDirectories(dir);
        Processes.killLeftover(dir.resolve(LocalXmppServer.PID_FILE), dir);
        if (Files.exists(dir.resolve(MARKER))) {
            try (Stream<Path> entries = Files.list(dir)) {
                for (Path sub : (Iterable<Path>) entries.filter(Files::isDirectory)::iterator) {
                    Processes.killLeftover(sub.resolve(LocalXmppServer.PID_FILE), sub);
                }
            }
        }
        boolean empty;
        try (Stream<Path> entries = Files.list(dir)) {
            empty = entries.findAny().isEmpty();
        }
        if (!empty) {
            if (!Files.exists(dir.resolve(MARKER))) {
                throw new IOException("run directory " + dir + " is not empty and was not made by " + XmppServers.class.getSimpleName()
                        + "; give an empty or new directory");
            }
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                    if (!p.equals(dir)) {
                        Files.delete(p);
                    }
                }
            }
        }
        Files.writeString(dir.resolve(MARKER), "run directory of a local XMPP server started by the tests; "
                + "its contents are deleted at the next start\n");
    }
}
