package org.reconmuc.servers;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a server's processes run and which address they listen on: the machine's loopback
 * (tests, the run script), or inside a network namespace reached over a veth pair (the replay's
 * real-link measurement, where the kernel counts every packet between the server and the bots).
 *
 * @param netns         the network namespace the processes run in, or null for the caller's own
 * @param listenAddress the IPv4 address every listener binds ({@code 0.0.0.0} only inside a
 *                      namespace of the server's own, where it means its links and loopback)
 * @param address       the IPv4 address clients connect to
 */
public record ServerPlacement(String netns, String listenAddress, String address) {
    /** Every listener on 127.0.0.1 of the caller's own namespace. */
    public static final ServerPlacement LOOPBACK = new ServerPlacement(null, "127.0.0.1", "127.0.0.1");

    public ServerPlacement {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(listenAddress, "listenAddress");
        if (netns == null && !listenAddress.startsWith("127.")) {
            throw new IllegalArgumentException("outside a namespace of its own a server listens on loopback only");
        }
        if (netns != null && !netns.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new IllegalArgumentException("not a network namespace name: '" + netns + "'");
        }
    }

    /**
     * Processes in {@code netns}, listening on every address there (its ends of the veth pairs and
     * its own loopback), reached at {@code address}.
     */
    public static ServerPlacement inNamespace(String netns, String address) {
        return new ServerPlacement(Objects.requireNonNull(netns, "netns"), "0.0.0.0", address);
    }

    /** The command, run inside the namespace when there is one ({@code ip netns exec} keeps the PID). */
    public List<String> wrap(List<String> command) {
        if (netns == null) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("ip", "netns", "exec", netns));
        wrapped.addAll(command);
        return wrapped;
    }
}
