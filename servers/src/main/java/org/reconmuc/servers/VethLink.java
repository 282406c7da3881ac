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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real link between this process and a server: a network namespace for the server, joined to
 * ours by a veth pair (or several, to count groups of clients apart) with a 1500-byte MTU and segmentation offloads off, so the kernel sends and
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
    private final List<End> ends;
    private boolean closed;

    /** One veth pair: our device, and the server's address at its other end. */
    private record End(String hostDevice, String serverAddress) {
    }

    /** Packets and bytes counted by our end of the link since it was made (bytes include Ethernet headers). */
    public record Counters(long rxPackets, long rxBytes, long txPackets, long txBytes) {
        public Counters minus(Counters earlier) {
            return new Counters(rxPackets - earlier.rxPackets, rxBytes - earlier.rxBytes,
                    txPackets - earlier.txPackets, txBytes - earlier.txBytes);
        }

        public Counters plus(Counters other) {
            return new Counters(rxPackets + other.rxPackets, rxBytes + other.rxBytes,
                    txPackets + other.txPackets, txBytes + other.txBytes);
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

    private VethLink(String netns, List<End> ends) {
        this.netns = netns;
        this.ends = ends;
    }

    private static final AtomicInteger NEXT = new AtomicInteger(ThreadLocalRandom.current().nextInt(250));

    /** A namespace with one link: see {@link #create(int)}. */
    public static VethLink create() throws IOException, InterruptedException {
        return create(1);
    }

    /**
     * Makes a fresh namespace and {@code pairs} links into it: link i's server end is 10.23x.N.1 in
     * the namespace, ours 10.23x.N.2 (private /30s that nothing routes beyond this machine). Several
     * links let groups of clients be counted apart.
     */
    public static VethLink create(int pairs) throws IOException, InterruptedException {
        requireTools();
        if (pairs < 1 || pairs > 4) {
            throw new IllegalArgumentException("1 to 4 links, not " + pairs);
        }
        int n = 1 + Math.floorMod(NEXT.getAndIncrement(), 250);
        String tag = n + "x" + ProcessHandle.current().pid() % 10_000;
        String netns = "reconmuc-" + tag;
        List<End> ends = new ArrayList<>();
        for (int i = 0; i < pairs; i++) {
            ends.add(new End("rmh" + i + tag, "10." + (231 + i) + "." + n + ".1"));
        }
        VethLink link = new VethLink(netns, ends);
        try {
            run("ip", "netns", "add", netns);
            run("ip", "-n", netns, "link", "set", "lo", "up");
            for (int i = 0; i < pairs; i++) {
                String host = ends.get(i).hostDevice();
                String peer = "rmp" + i + tag;
                String server = ends.get(i).serverAddress();
                String ours = server.substring(0, server.length() - 1) + "2";
                run("ip", "link", "add", host, "type", "veth", "peer", "name", peer);
                run("ip", "link", "set", peer, "netns", netns);
                run("ip", "addr", "add", ours + "/30", "dev", host);
                run("ip", "link", "set", host, "mtu", Integer.toString(MTU), "up");
                run("ip", "-n", netns, "addr", "add", server + "/30", "dev", peer);
                run("ip", "-n", netns, "link", "set", peer, "mtu", Integer.toString(MTU), "up");
                // Without this, TCP hands the device 64 KB super-packets and the counters count those.
                run("ethtool", "-K", host, "tso", "off", "gso", "off", "gro", "off");
                run("ip", "netns", "exec", netns, "ethtool", "-K", peer, "tso", "off", "gso", "off", "gro", "off");
            }
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

    /** Where a server on this link runs: in the namespace, listening on all its ends, reached at the first. */
    public ServerPlacement placement() {
        return ServerPlacement.inNamespace(netns, serverAddress(0));
    }

    public String netns() {
        return netns;
    }

    public int links() {
        return ends.size();
    }

    /** The server's address at the other end of link {@code i}: clients connecting there use that link. */
    public String serverAddress(int i) {
        return ends.get(i).serverAddress();
    }

    /** The counters of our end of the first link, read now. */
    public Counters counters() throws IOException {
        return counters(0);
    }

    /** The counters of our end of link {@code i}, read now. */
    public Counters counters(int i) throws IOException {
        Path stats = Path.of("/sys/class/net", ends.get(i).hostDevice(), "statistics");
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
        for (End end : ends) {
            try {
                run("ip", "link", "del", end.hostDevice());
            } catch (IOException | RuntimeException e) {
                // never made, or already gone with the namespace
            }
        }
        try {
            run("ip", "netns", "del", netns);
        } catch (IOException | RuntimeException e) {
            System.err.println("[veth] could not delete network namespace " + netns + ": " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (End end : ends) {
            b.append(b.length() == 0 ? "" : ", ").append("veth ").append(end.hostDevice()).append(" <-> ")
                    .append(end.serverAddress());
        }
        return String.format(Locale.ROOT, "%s in %s (MTU %d)", b, netns, MTU);
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
