package org.reconmuc.servers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A real link between this process and a server: a network namespace for the server, joined to
 * ours by a veth pair with a 1500-byte MTU and segmentation offloads off, so the kernel sends and
 * counts packets as an Ethernet link would (one frame per TCP segment of at most 1448 bytes of
 * payload, with timestamps). Everything stays on this machine; needs root and iproute2/ethtool.
 *
 * <p>Our end's counters ({@link #counters()}) see exactly the traffic between the bots and the
 * server: received = server to bots, sent = bots to server (messages, ACKs). The component talks
 * to the server inside the namespace and is not counted.
 */
public final class VethLink implements AutoCloseable {
    /** Ethernet header bytes the interface counts per frame on top of the IP packet. */
    public static final int ETHERNET_HEADER = 14;
    public static final int MTU = 1500;

    private final String netns;
    private final String hostDevice;
    private final String serverAddress;
    private boolean closed;

    /** Packets and bytes counted by our end of the link since it was made (bytes include Ethernet headers). */
    public record Counters(long rxPackets, long rxBytes, long txPackets, long txBytes) {
        public Counters minus(Counters earlier) {
            return new Counters(rxPackets - earlier.rxPackets, rxBytes - earlier.rxBytes,
                    txPackets - earlier.txPackets, txBytes - earlier.txBytes);
        }

        /** Server-to-bots bytes at the IP layer (headers included, Ethernet's left out). */
        public long rxIpBytes() {
            return rxBytes - (long) ETHERNET_HEADER * rxPackets;
        }

        /** Bots-to-server bytes at the IP layer. */
        public long txIpBytes() {
            return txBytes - (long) ETHERNET_HEADER * txPackets;
        }
    }

    private VethLink(String netns, String hostDevice, String serverAddress) {
        this.netns = netns;
        this.hostDevice = hostDevice;
        this.serverAddress = serverAddress;
    }

    /**
     * Makes a fresh namespace and link: the server's end is 10.231.N.1 in the namespace, ours
     * 10.231.N.2 (a private /30 that nothing routes beyond this machine).
     */
    public static VethLink create() throws IOException, InterruptedException {
        requireTools();
        int n = ThreadLocalRandom.current().nextInt(1, 250);
        String tag = Integer.toString(n) + "x" + Long.toString(ProcessHandle.current().pid() % 10_000);
        String netns = "reconmuc-" + tag;
        String host = "rmh" + tag;
        String peer = "rmp" + tag;
        String server = "10.231." + n + ".1";
        String ours = "10.231." + n + ".2";
        VethLink link = new VethLink(netns, host, server);
        try {
            run("ip", "netns", "add", netns);
            run("ip", "link", "add", host, "type", "veth", "peer", "name", peer);
            run("ip", "link", "set", peer, "netns", netns);
            run("ip", "addr", "add", ours + "/30", "dev", host);
            run("ip", "link", "set", host, "mtu", Integer.toString(MTU), "up");
            run("ip", "-n", netns, "addr", "add", server + "/30", "dev", peer);
            run("ip", "-n", netns, "link", "set", peer, "mtu", Integer.toString(MTU), "up");
            run("ip", "-n", netns, "link", "set", "lo", "up");
            // Without this, TCP hands the device 64 KB super-packets and the counters count those.
            run("ethtool", "-K", host, "tso", "off", "gso", "off", "gro", "off");
            run("ip", "netns", "exec", netns, "ethtool", "-K", peer, "tso", "off", "gso", "off", "gro", "off");
        } catch (IOException | RuntimeException e) {
            link.close();
            throw e;
        }
        return link;
    }

    private static void requireTools() throws IOException {
        if (!EjabberdServer.isRoot()) {
            throw new IOException("a veth link needs root (network namespaces)");
        }
        for (String tool : List.of("/usr/sbin/ip", "/usr/sbin/ethtool")) {
            if (!Files.isExecutable(Path.of(tool)) && !Files.isExecutable(Path.of(tool.replace("/usr/sbin", "/sbin")))) {
                throw new IOException(tool + " is missing: install Debian's iproute2 and ethtool");
            }
        }
    }

    /** Where a server on this link runs: in the namespace, listening on its end. */
    public ServerPlacement placement() {
        return ServerPlacement.inNamespace(netns, serverAddress);
    }

    public String netns() {
        return netns;
    }

    /** The counters of our end, read now. */
    public Counters counters() throws IOException {
        Path stats = Path.of("/sys/class/net", hostDevice, "statistics");
        return new Counters(read(stats, "rx_packets"), read(stats, "rx_bytes"),
                read(stats, "tx_packets"), read(stats, "tx_bytes"));
    }

    private static long read(Path stats, String name) throws IOException {
        return Long.parseLong(Files.readString(stats.resolve(name)).trim());
    }

    /** Deletes the namespace (and with it both ends of the link) once nothing runs in it. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            run("ip", "link", "del", hostDevice);
        } catch (IOException | RuntimeException e) {
            // already gone with the namespace
        }
        try {
            run("ip", "netns", "del", netns);
        } catch (IOException | RuntimeException e) {
            System.err.println("[veth] could not delete network namespace " + netns + ": " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "veth %s <-> %s in %s (MTU %d)", hostDevice, serverAddress, netns, MTU);
    }

    private static void run(String... command) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", cmd));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed (" + p.exitValue() + "): " + output.trim());
        }
    }
}
