package org.reconmuc.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Process helpers: stop by PID with a bound, and which process owns a listening port. */
final class Processes {
    private Processes() {
    }

    /** SIGTERM, wait up to {@code grace}, then SIGKILL (process and descendants). True if it is gone. */
    static boolean stop(Process process, Duration grace) {
        List<ProcessHandle> descendants = process.descendants().collect(Collectors.toList());
        boolean interrupted = false;
        try {
            process.destroy();
            try {
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    System.err.println("[xmpp-server] pid " + process.pid() + " ignored SIGTERM for " + grace
                            + ", sending SIGKILL");
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                interrupted = true;
                process.destroyForcibly();
            }
            descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            return !process.isAlive();
        } finally {
            Reaper.forget(process);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Kills a process left by an earlier run in this run directory (its command line names the dir). */
    static void killLeftover(Path pidFile, Path runDir) {
        if (!Files.isRegularFile(pidFile)) {
            return;
        }
        try {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .filter(h -> h.info().commandLine().map(c -> c.contains(runDir.toString())).orElse(false))
                    .ifPresent(h -> {
                        System.err.println("[xmpp-server] killing leftover server pid " + pid + " of " + runDir);
                        h.destroyForcibly();
                        try {
                            h.onExit().get(10, TimeUnit.SECONDS);
                        } catch (Exception ignored) {
                            // best effort
                        }
                    });
        } catch (IOException | NumberFormatException ignored) {
            // no usable pid file
        }
    }

    /**
     * Whether {@code pid} holds the TCP listening socket on {@code port} (Linux /proc). Guards against
     * a readiness probe answered by some other process that took a port between choice and bind.
     * Returns true when /proc cannot tell.
     */
    static boolean listens(long pid, int port) {
        // The process's own view: a server in a network namespace lists its sockets there.
        Path net = Path.of("/proc", Long.toString(pid), "net");
        Path tcp = net.resolve("tcp");
        Path fds = Path.of("/proc", Long.toString(pid), "fd");
        if (!Files.isReadable(tcp) || !Files.isDirectory(fds)) {
            return true;
        }
        try {
            String portHex = String.format(Locale.ROOT, ":%04X", port);
            Set<String> inodes = new HashSet<>();
            List<String> lines = new ArrayList<>(Files.readAllLines(tcp));
            Path tcp6 = net.resolve("tcp6");   // a JVM (Openfire) binds IPv4 through an IPv6 socket
            if (Files.isReadable(tcp6)) {
                lines.addAll(Files.readAllLines(tcp6));
            }
            for (String line : lines) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[1].endsWith(portHex) && f[3].equals("0A")) {
                    inodes.add("socket:[" + f[9] + "]");
                }
            }
            if (inodes.isEmpty()) {
                return false;
            }
            try (Stream<Path> list = Files.list(fds)) {
                return list.anyMatch(fd -> {
                    try {
                        return inodes.contains(Files.readSymbolicLink(fd).toString());
                    } catch (IOException e) {
                        return false;
                    }
                });
            }
        } catch (IOException e) {
            return true;
        }
    }
}
