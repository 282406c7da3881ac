package org.reconmuc.servers;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jxmpp.jid.impl.JidCreate;

/**
 * What Prosody, ejabberd and Openfire have in common: one local process (in a network namespace
 * when its {@link ServerPlacement} says so), its ports, its clients.
 */
abstract class LocalXmppServer implements XmppServer {
    static final String HOST = "127.0.0.1";
    static final String COMPONENT_DOMAIN = "reconmuc.localhost";
    static final String COMPONENT_SECRET = "s3cret";
    static final String NATIVE_MUC_DOMAIN = "conference.localhost";
    static final String LOGIN_DOMAIN = "insecure.localhost";
    static final String ANON_DOMAIN = "anon.localhost";
    static final String PASSWORD = "pw";
    static final long REPLY_TIMEOUT_MS = 10_000;
    static final String PID_FILE = "server.pid";

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final AtomicLong USERS = new AtomicLong();
    private static final Pattern PORT_CONFLICT = Pattern.compile(
            "(?i)failed to open server port|address already in use|eaddrinuse");

    private final String kind;
    private final ServerPlacement placement;
    private final Path runDir;
    private final int c2sPort;
    private final int componentPort;
    private final Queue<XMPPTCPConnection> clients = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private Process process;
    /** How the process was started, to start it again ({@link #restart()}). */
    private ProcessBuilder launchedWith;
    private Duration readyTimeout;

    LocalXmppServer(String kind, Path runDir, int c2sPort, int componentPort) {
        this(kind, ServerPlacement.LOOPBACK, runDir, c2sPort, componentPort);
    }

    LocalXmppServer(String kind, ServerPlacement placement, Path runDir, int c2sPort, int componentPort) {
        this.kind = kind;
        this.placement = placement;
        this.runDir = runDir;
        this.c2sPort = c2sPort;
        this.componentPort = componentPort;
    }

    /** Every log file worth showing when something goes wrong, main one first. */
    abstract List<Path> logFiles();

    /** Where the process's stdout and stderr go. */
    abstract Path consoleFile();

    // ---- start -----------------------------------------------------------------------------

    /** Starts the process, waits for real replies on both ports, checks it owns them. */
    final void launch(ProcessBuilder builder, Duration readyTimeout) throws XmppServerStartException, IOException {
        long started = System.nanoTime();
        if (launchedWith == null) {
            builder.command(placement.wrap(builder.command()));
        }
        launchedWith = builder;
        this.readyTimeout = readyTimeout;
        builder.directory(runDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(consoleFile().toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        process = builder.start();
        Reaper.track(process);
        Files.writeString(runDir.resolve(PID_FILE), process.pid() + "\n");
        try {
            awaitReady(readyTimeout);
        } catch (XmppServerStartException | RuntimeException e) {
            Processes.stop(process, Duration.ofSeconds(3));
            throw e;
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.err.printf(Locale.ROOT, "[xmpp-server] %s pid %d ready in %d ms: c2s %s:%d, component %d, run dir %s%n",
                kind, process.pid(), millis, host(), c2sPort, componentPort, runDir);
    }

    private void awaitReady(Duration timeout) throws XmppServerStartException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            if (!process.isAlive()) {
                throw new XmppServerStartException(kind + " exited with code " + process.exitValue()
                        + " while starting (run dir " + runDir + ")\n" + logTail(60), portConflictInLogs());
            }
            try {
                StreamProbe.clientStreamHeader(host(), c2sPort, LOGIN_DOMAIN, Duration.ofSeconds(2));
                StreamProbe.componentStreamHeader(host(), componentPort, COMPONENT_DOMAIN, Duration.ofSeconds(2));
                break;
            } catch (IOException e) {
                last = e;
                if (portConflictInLogs()) {
                    throw new XmppServerStartException(kind + " could not bind its ports " + c2sPort + "/" + componentPort
                            + "\n" + logTail(60), true);
                }
            }
            if (System.nanoTime() > deadline) {
                throw new XmppServerStartException(kind + " did not answer on c2s port " + c2sPort + " and component port "
                        + componentPort + " within " + timeout.toSeconds() + " s (last: " + last + ")\n" + logTail(60),
                        portConflictInLogs());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new XmppServerStartException(kind + " start interrupted", false);
            }
        }
        if (portConflictInLogs() || !Processes.listens(process.pid(), c2sPort)
                || !Processes.listens(process.pid(), componentPort)) {
            throw new XmppServerStartException(kind + " answered, but port " + c2sPort + " or " + componentPort
                    + " is held by another process\n" + logTail(60), true);
        }
    }

    private boolean portConflictInLogs() {
        return PORT_CONFLICT.matcher(logTail(400)).find();
    }

    // ---- clients ---------------------------------------------------------------------------

    @Override
    public XMPPTCPConnectionConfiguration.Builder clientConfig(String name) throws Exception {
        String user = node(name) + "-" + USERS.incrementAndGet();
        return XMPPTCPConnectionConfiguration.builder()
                .setXmppDomain(LOGIN_DOMAIN)
                .setHostAddress(InetAddress.getByName(host()))
                .setPort(c2sPort)
                .setSecurityMode(SecurityMode.disabled)
                .setUsernameAndPassword(user, PASSWORD)
                .setResource(name == null || name.isBlank() ? "client" : name)
                .setConnectTimeout((int) REPLY_TIMEOUT_MS);
    }

    @Override
    public XMPPTCPConnection newClient(String name) throws Exception {
        return newClient(name, null);
    }

    @Override
    public XMPPTCPConnection newClient(String name, Consumer<XMPPTCPConnectionConfiguration.Builder> adjust)
            throws Exception {
        if (closed.get()) {
            throw new IllegalStateException(kind + " server is closed");
        }
        XMPPTCPConnectionConfiguration.Builder builder = clientConfig(name);
        if (adjust != null) {
            adjust.accept(builder);
        }
        XMPPTCPConnection connection = new XMPPTCPConnection(builder.build());
        connection.setReplyTimeout(REPLY_TIMEOUT_MS);
        clients.add(connection);
        try {
            connection.connect().login();
        } catch (Exception e) {
            clients.remove(connection);
            connection.instantShutdown();
            throw e;
        }
        return connection;
    }

    @Override
    public XMPPTCPConnection newAnonymousClient(String name) throws Exception {
        return newClient(name, b -> b.setUsernameAndPassword(null, null)
                .setXmppDomain(JidCreate.domainBareFromOrThrowUnchecked(ANON_DOMAIN))
                .performSaslAnonymousAuthentication());
    }

    /** A valid, readable localpart from a test's name. */
    static String node(String name) {
        String n = name == null ? "" : name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "_");
        return n.isEmpty() ? "user" : n;
    }

    // ---- accessors -------------------------------------------------------------------------

    @Override
    public String kind() {
        return kind;
    }

    @Override
    public String host() {
        return placement.address();
    }

    @Override
    public int c2sPort() {
        return c2sPort;
    }

    @Override
    public int componentPort() {
        return componentPort;
    }

    @Override
    public String componentDomain() {
        return COMPONENT_DOMAIN;
    }

    @Override
    public String componentSecret() {
        return COMPONENT_SECRET;
    }

    @Override
    public String nativeMucDomain() {
        return NATIVE_MUC_DOMAIN;
    }

    @Override
    public String loginDomain() {
        return LOGIN_DOMAIN;
    }

    @Override
    public Path runDir() {
        return runDir;
    }

    @Override
    public Path logFile() {
        return logFiles().get(0);
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    @Override
    public String logTail(int lines) {
        StringBuilder b = new StringBuilder();
        for (Path log : logFiles()) {
            if (!Files.isRegularFile(log)) {
                continue;
            }
            try {
                List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
                b.append("==> ").append(log).append(" <==\n");
                for (String line : all.subList(Math.max(0, all.size() - lines), all.size())) {
                    b.append(line).append('\n');
                }
            } catch (IOException e) {
                b.append("(cannot read ").append(log).append(": ").append(e).append(")\n");
            }
        }
        return b.toString();
    }

    // ---- faults ----------------------------------------------------------------------------

    @Override
    public synchronized void restart() throws Exception {
        if (closed.get() || process == null) {
            throw new IllegalStateException(kind + " is not running");
        }
        long pid = process.pid();
        if (!Processes.stop(process, STOP_GRACE)) {
            throw new IllegalStateException(kind + " pid " + pid + " did not stop for the restart");
        }
        launch(launchedWith, readyTimeout);
        System.err.printf(Locale.ROOT, "[xmpp-server] %s restarted: pid %d -> %d%n", kind, pid, process.pid());
    }

    @Override
    public void suspend() throws Exception {
        signal("STOP");
    }

    @Override
    public void resume() throws Exception {
        signal("CONT");
    }

    /** Sends the signal to the process and its descendants (ejabberd runs under a shell). */
    private void signal(String name) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kill", "-" + name, String.valueOf(process.pid())));
        process.descendants().forEach(d -> command.add(String.valueOf(d.pid())));
        Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed: "
                    + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    // ---- stop ------------------------------------------------------------------------------

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<XMPPTCPConnection> toClose = new ArrayList<>(clients);
        clients.clear();
        for (XMPPTCPConnection c : toClose) {
            try {
                c.instantShutdown();
            } catch (RuntimeException ignored) {
                // closing anyway
            }
        }
        if (process == null) {
            return;
        }
        long started = System.nanoTime();
        boolean gone = Processes.stop(process, STOP_GRACE);
        System.err.printf(Locale.ROOT, "[xmpp-server] %s pid %d %s in %d ms (%d client(s) closed)%n", kind, process.pid(),
                gone ? "stopped" : "DID NOT STOP", (System.nanoTime() - started) / 1_000_000, toClose.size());
    }

    @Override
    public String toString() {
        return kind + "[pid " + (process == null ? "-" : process.pid()) + ", c2s " + host() + ":" + c2sPort
                + ", component " + componentPort + ", " + runDir + "]";
    }
}
