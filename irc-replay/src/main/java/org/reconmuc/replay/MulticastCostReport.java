package org.reconmuc.replay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.reconmuc.servers.ComponentStream;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * What the host server spends delivering a room's broadcast that the component sends as one
 * stanza per recipient, beside the same broadcast sent as XEP-0033 multicast (Prosody:
 * deploy/prosody/plugins/mod_component_multicast.lua; ejabberd: mod_multicast) — issue 28's
 * question of where the server's time goes. A real server, N logged-in Smack clients, a raw
 * component stream; the phases alternate (unicast, multicast, unicast, multicast) and each ends
 * when every client has every message. Then, on Prosody, as the baseline, its own MUC: every client
 * enters one of its rooms (not measured) and one of them says as many messages there (measured
 * the same way). Reports the server's CPU seconds (from /proc), the wall time, and the bytes the
 * component wrote.
 *
 * <pre>java -cp irc-replay/target/irc-replay.jar org.reconmuc.replay.MulticastCostReport prosody 200 100 OUT_DIR</pre>
 */
public final class MulticastCostReport {
    private static final String SERVICE = "multicast.localhost";
    private static final Duration PHASE_LIMIT = Duration.ofMinutes(5);

    private MulticastCostReport() {
    }

    public static void main(String[] args) throws Exception {
        String kind = args.length > 0 ? args[0] : "prosody";
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int messages = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        Path out = Path.of(args.length > 3 ? args[3] : "target/multicast-cost");
        Files.createDirectories(out);
        StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "server %s, %d clients, %d messages per phase, load average before: %s%n",
                kind, clients, messages, loadAverage()));
        try (XmppServer server = XmppServers.start(kind, out.resolve("server"))) {
            AtomicLong received = new AtomicLong();
            List<XMPPTCPConnection> bots = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                XMPPTCPConnection c = server.newClient("r" + i);
                c.addAsyncStanzaListener(s -> received.incrementAndGet(), StanzaTypeFilter.MESSAGE);
                bots.add(c);
            }
            List<String> recipients = bots.stream().map(c -> c.getUser().toString()).toList();
            try (ComponentStream component = ComponentStream.open(server.host(), server.componentPort(),
                    server.componentDomain(), server.componentSecret(), Duration.ofSeconds(10))) {
                report.append("phase       server CPU s  wall s  component bytes  CPU µs per copy\n");
                for (int round = 0; round < 2; round++) {
                    for (boolean multicast : new boolean[] {false, true}) {
                        report.append(phase(server, component, recipients, messages, multicast, received, round));
                    }
                }
                if (kind.equals("prosody")) {
                    // Our module drops a multicast of type 'error' after reading it; ejabberd's routes it.
                    report.append(parsedOnly(server, component, recipients, messages));
                }
            }
            if (kind.equals("prosody")) {
                // ejabberd's own room did not take the clients' raw entries at this pace (not looked
                // into); its own MUC is measured by the replay (benchmarks/capacity/run.sh).
                report.append(nativeMuc(server, bots, messages, received));
            }
        }
        report.append("load average after: ").append(loadAverage()).append('\n');
        Files.writeString(out.resolve("report.txt"), report);
        System.out.print(report);
    }

    private static String phase(XmppServer server, ComponentStream component, List<String> recipients, int messages,
                                boolean multicast, AtomicLong received, int round) throws Exception {
        long expected = received.get() + (long) recipients.size() * messages;
        String addresses = multicast ? bcc(recipients) : null;
        double cpuBefore = ProcSampler.cpuSeconds(server.pid());
        long start = System.nanoTime();
        long bytes = 0;
        String from = "lobby@" + server.componentDomain() + "/Romeo";
        for (int m = 0; m < messages; m++) {
            String body = "<body>message " + m + " of round " + round
                    + ": a line of about the length of an IRC message, said to the whole room</body>";
            if (multicast) {
                String xml = "<message type='groupchat' id='c" + round + "-" + m + "' from='" + from + "' to='" + SERVICE + "'>"
                        + body + addresses + "</message>";
                component.send(xml);
                bytes += xml.length();
            } else {
                StringBuilder burst = new StringBuilder();
                for (String r : recipients) {
                    burst.append("<message type='groupchat' id='c").append(round).append('-').append(m).append("' from='")
                            .append(from).append("' to='").append(r).append("'>").append(body).append("</message>");
                }
                component.send(burst.toString());
                bytes += burst.length();
            }
        }
        long deadline = System.nanoTime() + PHASE_LIMIT.toNanos();
        while (received.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        double wall = (System.nanoTime() - start) / 1e9;
        double cpu = ProcSampler.cpuSeconds(server.pid()) - cpuBefore;
        if (received.get() < expected) {
            throw new IllegalStateException("phase " + (multicast ? "multicast" : "unicast") + " lost "
                    + (expected - received.get()) + " deliveries");
        }
        return String.format(Locale.ROOT, "%-10s  %12.2f  %6.2f  %15d  %15.1f%n", multicast ? "multicast" : "unicast",
                cpu, wall, bytes, cpu * 1e6 / ((double) recipients.size() * messages));
    }

    /**
     * The multicast stanzas alone, without their copies: sent as type 'error', which a multicast
     * service reads and drops (nobody to tell), so the server's CPU here is what reading one
     * stanza of 800 addresses costs. Waits for the server to go quiet (a second without CPU).
     */
    private static String parsedOnly(XmppServer server, ComponentStream component, List<String> recipients, int messages)
            throws Exception {
        String addresses = bcc(recipients);
        double cpuBefore = ProcSampler.cpuSeconds(server.pid());
        for (int m = 0; m < messages; m++) {
            component.send("<message type='error' id='p" + m + "' from='lobby@" + server.componentDomain() + "/Romeo' to='"
                    + SERVICE + "'><body>message " + m + ": a line of about the length of an IRC message, said to the whole room"
                    + "</body>" + addresses + "</message>");
        }
        double last = -1;
        double now = ProcSampler.cpuSeconds(server.pid());
        while (now != last) {
            last = now;
            Thread.sleep(1000);
            now = ProcSampler.cpuSeconds(server.pid());
        }
        double cpu = now - cpuBefore;
        return String.format(Locale.ROOT, "%-10s  %12.2f  %6s  %15s  %15.1f%n", "read only", cpu, "-", "-",
                cpu * 1e6 / ((double) recipients.size() * messages));
    }

    /** The server's own MUC delivering the same number of copies: one of the clients speaks in a room they all entered. */
    private static String nativeMuc(XmppServer server, List<XMPPTCPConnection> bots, int messages, AtomicLong received)
            throws Exception {
        String room = "bench@" + server.nativeMucDomain();
        AtomicLong entered = new AtomicLong();
        for (int i = 0; i < bots.size(); i++) {
            XMPPTCPConnection c = bots.get(i);
            String self = room + "/" + c.getUser().getResourceOrEmpty() + "-" + i;
            c.addAsyncStanzaListener(s -> entered.incrementAndGet(),
                    s -> s instanceof org.jivesoftware.smack.packet.Presence && self.equals(String.valueOf(s.getFrom())));
            c.sendStanza(c.getStanzaFactory().buildPresenceStanza().to(self)
                    .addExtension(new org.jivesoftware.smackx.muc.packet.MUCInitialPresence(null, -1, 0, -1, null)).build());
            if (i == 0) {
                // The creator accepts the instant room (XEP-0045 §10.1.2): ejabberd keeps a new room locked until then.
                while (entered.get() < 1) {
                    Thread.sleep(5);
                }
                InstantRoomIq instant = InstantRoomIq.with("0", null, null);
                instant.setTo(org.jxmpp.jid.impl.JidCreate.entityBareFrom(room));
                c.sendIqRequestAndWaitForResponse(instant);
            }
            // The room's own pace for entries, so the measured phase starts with a quiet server.
            while (entered.get() < i + 1 - 20) {
                Thread.sleep(5);
            }
        }
        long deadline = System.nanoTime() + PHASE_LIMIT.toNanos();
        while (entered.get() < bots.size() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Thread.sleep(2000);
        XMPPTCPConnection speaker = bots.get(0);
        long expected = received.get() + (long) bots.size() * messages;
        double cpuBefore = ProcSampler.cpuSeconds(server.pid());
        long start = System.nanoTime();
        for (int m = 0; m < messages; m++) {
            speaker.sendStanza(speaker.getStanzaFactory().buildMessageStanza().to(room)
                    .ofType(org.jivesoftware.smack.packet.Message.Type.groupchat)
                    .setBody("message " + m + " in the server's own room: a line of about the length of an IRC message, said to all")
                    .build());
        }
        deadline = System.nanoTime() + PHASE_LIMIT.toNanos();
        while (received.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        double wall = (System.nanoTime() - start) / 1e9;
        double cpu = ProcSampler.cpuSeconds(server.pid()) - cpuBefore;
        if (received.get() < expected) {
            throw new IllegalStateException("own MUC lost " + (expected - received.get()) + " deliveries");
        }
        return String.format(Locale.ROOT, "%-10s  %12.2f  %6.2f  %15s  %15.1f%n", "own MUC", cpu, wall, "-",
                cpu * 1e6 / ((double) bots.size() * messages));
    }

    /** XEP-0033 {@code <addresses/>} with one bcc address for each recipient. */
    private static String bcc(List<String> recipients) {
        StringBuilder addresses = new StringBuilder("<addresses xmlns='http://jabber.org/protocol/address'>");
        for (String r : recipients) {
            addresses.append("<address type='bcc' jid='").append(r).append("'/>");
        }
        return addresses.append("</addresses>").toString();
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "?";
        }
    }
}
