package org.reconmuc.servers;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for what a harness starts, and may restart, on a port it chose. A port the kernel handed
 * out ({@code bind} to 0) lies in its ephemeral range, which every {@code connect} and {@code bind(0)}
 * on the machine draws from: between the choice and the server's bind — or, for a server restarted
 * on the same port, for the whole run — another socket can take it, and the server fails with
 * "address in use". So the ports are drawn at random from below that range and checked free.
 */
public final class FreePorts {
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LOWEST = 10_000;

    private FreePorts() {
    }

    /** {@code count} distinct ports free on 127.0.0.1 a moment ago (all held at once, then released). */
    public static int[] onLoopback(int count) throws IOException {
        InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        int below = ephemeralStart();
        List<Integer> ports = new ArrayList<>();
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int attempt = 0; ports.size() < count; attempt++) {
                if (attempt == 1000) {
                    throw new IOException("no " + count + " ports free on 127.0.0.1 below " + below);
                }
                int port = candidate(below);
                if (!ports.contains(port) && tryBind(loopback, port, held)) {
                    ports.add(port);
                }
            }
            return ports.stream().mapToInt(Integer::intValue).toArray();
        } finally {
            closeAll(held);
        }
    }

    /** A port free on every one of {@code addresses} a moment ago (all held at once, then released). */
    public static int onAll(List<InetAddress> addresses) throws IOException {
        int below = ephemeralStart();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = candidate(below);
            List<ServerSocket> held = new ArrayList<>();
            try {
                boolean freeOnAll = true;
                for (InetAddress a : addresses) {
                    if (!tryBind(a, port, held)) {
                        freeOnAll = false;
                        break;
                    }
                }
                if (freeOnAll) {
                    return port;
                }
            } finally {
                closeAll(held);
            }
        }
        throw new IOException("no port free on all of " + addresses);
    }

    private static int candidate(int below) {
        return ThreadLocalRandom.current().nextInt(LOWEST, below);
    }

    /** The first port of the kernel's ephemeral range (32768 where it cannot be read). */
    static int ephemeralStart() throws IOException {
        int start = 32_768;
        if (Files.isReadable(EPHEMERAL_RANGE)) {
            // not readString: on this procfs file it returns the first character only (JDK 17)
            start = Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
        }
        if (start <= LOWEST + 1_000) {
            throw new IOException("the ephemeral port range starts at " + start + ": no room below it for fixed ports");
        }
        return start;
    }

    private static boolean tryBind(InetAddress address, int port, List<ServerSocket> held) throws IOException {
        ServerSocket s = new ServerSocket();
        held.add(s);
        try {
            s.bind(new InetSocketAddress(address, port));
            return true;
        } catch (BindException taken) {
            return false;
        }
    }

    private static void closeAll(List<ServerSocket> sockets) {
        for (ServerSocket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // a socket that cannot be closed was never bound
            }
        }
    }
}
