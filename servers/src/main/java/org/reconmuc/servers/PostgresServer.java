package org.reconmuc.servers;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server from Debian's {@code postgresql} package, as a local process for tests: a
 * fresh cluster ({@code initdb}, trust authentication, user {@code reconmuc}) in a new directory
 * under the system's temporary directory, listening on 127.0.0.1 on a free port. PostgreSQL
 * refuses to run as root: when the tests run as root (CI), {@code initdb} and {@code postgres}
 * run as the {@code postgres} user through {@code setpriv}, which the package creates.
 * {@link #close()} stops it (fast shutdown) and deletes the cluster.
 */
public final class PostgresServer implements AutoCloseable {
    private static final Duration READY = Duration.ofSeconds(30);
    private static final String USER = "reconmuc";

    private final Path dataDir;
    private final int port;
    /** How the server was started, to start it again ({@link #restart()}). */
    private final ProcessBuilder command;
    private volatile Process process;
    private final Path log;

    private PostgresServer(Path dataDir, int port, ProcessBuilder command, Process process, Path log) {
        this.dataDir = dataDir;
        this.port = port;
        this.command = command;
        this.process = process;
        this.log = log;
    }

    /** Initialises a cluster and starts it; throws with the server's log if it does not come up. */
    public static PostgresServer start() throws IOException, InterruptedException {
        Path bin = binDirectory();
        Path dir = Files.createTempDirectory("reconmuc-postgres-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path data = dir.resolve("data");
        Path log = dir.resolve("postgres.log");
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
            Files.setOwner(dir, users.lookupPrincipalByName("postgres"));
        }
        run(asPostgres(root, List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER,
                "--auth=trust", "--encoding=UTF8", "--no-sync")), log, Duration.ofSeconds(120));
        int port = FreePorts.onLoopback(1)[0];
        ProcessBuilder b = new ProcessBuilder(asPostgres(root, List.of(bin.resolve("postgres").toString(),
                "-D", data.toString(), "-p", Integer.toString(port), "-k", dir.toString(),
                "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        long logSize = Files.size(log);
        Process process = b.start();
        Reaper.track(process);
        PostgresServer server = new PostgresServer(dir, port, b, process, log);
        try {
            server.awaitAccepting(logSize);
        } catch (IOException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** Until the server says, past the log's first {@code logSize} bytes, that it accepts connections, and does. */
    private void awaitAccepting(long logSize) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY.toNanos();
        while (!accepting(logSize)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IOException("PostgreSQL did not start on 127.0.0.1:" + port + ": " + logTail());
            }
            Thread.sleep(100);
        }
    }

    /**
     * Stops the server as an operator's restart does (fast shutdown: sessions are ended) and starts
     * it again on the same port and data; returns when it accepts connections again. Clients'
     * connections are lost. Fault tests and the soak.
     */
    public synchronized void restart() throws IOException, InterruptedException {
        stopProcess();
        long logSize = Files.size(log);
        process = command.start();
        Reaper.track(process);
        awaitAccepting(logSize);
    }

    public long pid() {
        return process.pid();
    }

    /** {@code /usr/lib/postgresql/<newest>/bin}, where Debian puts the server's programs. */
    private static Path binDirectory() throws IOException {
        Path lib = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> versions = Files.list(lib)) {
                Path newest = versions.filter(v -> Files.isExecutable(v.resolve("bin/postgres")))
                        .max(Comparator.comparingInt(v -> version(v.getFileName().toString()))).orElse(null);
                if (newest != null) {
                    return newest.resolve("bin");
                }
            }
        }
        throw new IOException("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres):"
                + " run scripts/install-deps.sh --test, or apt-get install postgresql");
    }

    private static int version(String name) {
        try {
            return Integer.parseInt(name.replaceAll("[^0-9].*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static List<String> asPostgres(boolean root, List<String> command) {
        if (!root) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("setpriv", "--reuid=postgres", "--regid=postgres",
                "--init-groups", "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    private static void run(List<String> command, Path log, Duration timeout) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish in " + timeout);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): "
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
    }

    /** Whether the log, past its first {@code logOffset} bytes, says so and the port answers. */
    private boolean accepting(long logOffset) throws IOException {
        byte[] all = Files.readAllBytes(log);
        String since = new String(all, (int) Math.min(logOffset, all.length), (int) Math.max(0, all.length - logOffset),
                StandardCharsets.UTF_8);
        if (!since.contains("ready to accept connections")) {
            return false;
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code jdbc:postgresql://127.0.0.1:PORT/postgres?user=reconmuc} (trust authentication). */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=" + USER;
    }

    /** Makes the empty database {@code name} and returns its URL ({@link #jdbcUrl()}'s, for it); the caller has the driver. */
    public String newDatabase(String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl()); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return jdbcUrl().replace("/postgres?", "/" + name + "?");
    }

    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Fast shutdown (SIGINT: sessions are ended), SIGKILL after a bound; then the cluster is deleted. */
    @Override
    public void close() {
        stopProcess();
        try (Stream<Path> all = Files.walk(dataDir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the system cleans it eventually
        }
    }

    /** Fast shutdown (SIGINT), SIGKILL after a bound. */
    private void stopProcess() {
        Process process = this.process;
        try {
            if (process.isAlive()) {
                new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor(5, TimeUnit.SECONDS);
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            Reaper.forget(process);
        }
    }
}
