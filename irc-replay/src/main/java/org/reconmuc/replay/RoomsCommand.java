package org.reconmuc.replay;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jivesoftware.smack.packet.Message;
import org.reconmuc.replay.irc.IrcLogs;
import org.reconmuc.servers.InstancesBehindEjabberd;
import org.reconmuc.servers.ServerPlacement;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.smack.element.ConsistencyRequirements;

/**
 * {@code irc-replay rooms}: many rooms, several instances. The IRC logs replayed into R rooms of B
 * bots each (the same messages in every room, at the same pace), served by N instances of the
 * service behind ejabberd (a bucket per connection) sharing a PostgreSQL; optionally the instance
 * serving the most rooms is killed with SIGKILL part-way, or paused (SIGSTOP, then SIGCONT), or every
 * instance is stopped cleanly and started again in turn (a rolling restart). A bot told that its room moved (110 +
 * 333) joins again and asks for the discussion history since the last message it saw, as a
 * XEP-0410 client with MUC history would. Counted per room: what its senders had acknowledged
 * (their message echoed) and whether every bot of the room got it — live or from the history on
 * rejoin — exactly once (with {@code --relaxed-bots}, also each relaxed listener, live or retained); what was bounced (an error came back) or dropped (neither echo nor
 * error); and for the rooms of the killed instance, the seconds from the kill to the next message
 * the room acknowledged.
 */
final class RoomsCommand {
    /** The service's flags for every instance (besides ComponentProcess's own: server, history, rates). */
    private static final List<String> SETTINGS = List.of("--room-default-persistent", "true", "--lock-new-rooms", "false",
            "--lease-seconds", "3");
    private static final int HISTORY_SIZE = 100;

    private int rooms = 40;
    private int botsPerRoom = 20;
    private int instances = 3;
    private int connections = 2;
    private int messages = 60;
    private double rate = 1.0;
    private double killAt = -1;
    private double pauseAt = -1;
    private double pauseSeconds = 10;
    private double rollingAt = -1;
    private double drain = 20;
    /** Extra occupants per room that state requirements (volume, time bound) and never speak. */
    private int relaxedBots = 0;
    private int relaxedVolume = 2;
    private int relaxedSeconds = 3;
    private Path out;
    private Path logs;

    private RoomsCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        RoomsCommand c = new RoomsCommand();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                out.print(Help.TEXT);
                return 0;
            }
            if (i + 1 >= args.length) {
                err.println("rooms: " + a + " needs a value");
                return 2;
            }
            String v = args[++i];
            switch (a) {
                case "--rooms" -> c.rooms = Integer.parseInt(v);
                case "--bots-per-room" -> c.botsPerRoom = Integer.parseInt(v);
                case "--instances" -> c.instances = Integer.parseInt(v);
                case "--connections" -> c.connections = Integer.parseInt(v);
                case "--messages" -> c.messages = Integer.parseInt(v);
                case "--rate" -> c.rate = Double.parseDouble(v);
                case "--kill-at" -> c.killAt = Double.parseDouble(v);
                case "--pause-at" -> c.pauseAt = Double.parseDouble(v);
                case "--pause-seconds" -> c.pauseSeconds = Double.parseDouble(v);
                case "--rolling-restart-at" -> c.rollingAt = Double.parseDouble(v);
                case "--drain" -> c.drain = Double.parseDouble(v);
                case "--relaxed-bots" -> c.relaxedBots = Integer.parseInt(v);
                case "--relaxed-volume" -> c.relaxedVolume = Integer.parseInt(v);
                case "--relaxed-time" -> c.relaxedSeconds = Integer.parseInt(v);
                case "--out" -> c.out = Path.of(v);
                case "--logs" -> c.logs = Path.of(v);
                default -> {
                    err.println("rooms: unknown option " + a);
                    return 2;
                }
            }
        }
        if (c.out == null || c.rooms < 1 || c.botsPerRoom < 2 || c.instances < 1 || c.connections < 1
                || c.messages < 1 || c.messages > 100 || c.rate <= 0 || c.pauseSeconds <= 0
                || c.relaxedBots < 0 || c.relaxedVolume < 1 || c.relaxedSeconds < 1
                || (c.killAt >= 0 ? 1 : 0) + (c.pauseAt >= 0 ? 1 : 0) + (c.rollingAt >= 0 ? 1 : 0) > 1) {
            err.println("rooms: --out DIR is required; rooms >= 1, bots-per-room >= 2, instances >= 1,"
                    + " messages 1..100 (the rooms' history must hold them), rate > 0, pause-seconds > 0,"
                    + " relaxed-bots >= 0, relaxed-volume and relaxed-time >= 1;"
                    + " at most one of --kill-at, --pause-at, --rolling-restart-at");
            return 2;
        }
        if (c.logs == null) {
            c.logs = IrcLogs.defaultDir();
        }
        return c.execute(out);
    }

    /** A message sent into a room: when, for the failover figures. */
    record Sent(int room, int seq, long atNanos) {
    }

    private int execute(PrintStream console) throws Exception {
        startAnew();
        Workload w = Workload.build(IrcLogs.load(logs), messages, rate, 0, messages / rate + 5, botsPerRoom,
                Workload.Replies.NONE);
        console.printf("rooms: %d rooms x %d bots%s, %d instances x %d connections, %d messages per room at %.2f/s%s%n",
                rooms, botsPerRoom, relaxedBots > 0 ? " + " + relaxedBots + " relaxed (volume " + relaxedVolume + ", "
                        + relaxedSeconds + " s)" : "", instances, connections, w.messages().size(), rate,
                killAt >= 0 ? ", the busiest instance killed at " + killAt + " s"
                        : pauseAt >= 0 ? ", the busiest instance paused at " + pauseAt + " s for " + pauseSeconds + " s"
                        : rollingAt >= 0 ? ", every instance restarted in turn from " + rollingAt + " s" : "");
        String loadBefore = PaperCommand.loadAverage();
        Map<String, List<ComponentProcess>> processes = new ConcurrentHashMap<>();
        try (InstancesBehindEjabberd<ComponentProcess> cluster = startInstances(processes)) {
            Map<Integer, List<RoomBot>> byRoom = joinBots(cluster.server(), console);
            Map<String, Integer> roomsAtStart = cluster.store().roomsByInstance();
            RoomAcks acks = new RoomAcks();
            byRoom.values().forEach(bots -> bots.forEach(acks::listen));
            RoomsFault fault = killAt >= 0 ? new RoomsFault(RoomsFault.Kind.KILL, 0, cluster, console)
                    : pauseAt >= 0 ? new RoomsFault(RoomsFault.Kind.PAUSE, pauseSeconds, cluster, console)
                    : rollingAt >= 0 ? new RoomsFault(RoomsFault.Kind.ROLLING_RESTART, 0, cluster, console) : null;
            long start = System.nanoTime();
            List<Sent> sent = replay(w.messages(), byRoom, acks, fault, start);
            if (fault != null) {
                fault.awaitEnd(TimeUnit.SECONDS.toMillis(60L * instances + 60));   // the fault is over before the drain
            }
            double drained = drain(sent.size(), acks, byRoom, start);
            RoomsReport report = new RoomsReport(byRoom, sent, acks, fault, start, botsPerRoom,
                    seq -> w.messages().get(seq).bot() % botsPerRoom);
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("parameters", parameters(w.messages().size()));
            report.writeLiveOrder(out.resolve("live-order.txt"));
            summary.putAll(report.summary(drained, out));
            summary.put("instances", report.perInstance(processes, roomsAtStart));
            summary.put("load_before", loadBefore);
            summary.put("load_after", PaperCommand.loadAverage());
            String json = Json.write(summary);
            Files.writeString(out.resolve("summary.json"), json);
            console.print(json);
            return report.clean() ? 0 : 1;
        }
    }

    /** The output folder, without the instances' logs of an earlier run (they append to them). */
    private void startAnew() throws java.io.IOException {
        Files.createDirectories(out);
        try (var old = Files.list(out)) {
            for (Path log : old.filter(f -> f.getFileName().toString().startsWith("instance-")).toList()) {
                Files.delete(log);
            }
        }
    }

    /**
     * PostgreSQL, ejabberd and the instances i1..iN, each a {@link ComponentProcess} (its CPU, heap
     * and link counted); every process started for an instance, restarts included, is kept in
     * {@code processes} by instance name.
     */
    private InstancesBehindEjabberd<ComponentProcess> startInstances(Map<String, List<ComponentProcess>> processes)
            throws Exception {
        return startInstances(out, instances, connections, "512m", SETTINGS, name -> List.of(), processes);
    }

    /**
     * As above for any command: {@code instances} instances of {@code heap} with {@code settings} and
     * each its own {@code flagsOf} (by name), files in {@code out}.
     */
    static InstancesBehindEjabberd<ComponentProcess> startInstances(Path out, int instances, int connections, String heap,
            List<String> settings, java.util.function.Function<String, List<String>> flagsOf,
            Map<String, List<ComponentProcess>> processes) throws Exception {
        return startInstances(out, instances, connections, heap, List.of(), settings, flagsOf, processes);
    }

    /** As above, each instance's JVM also given {@code jvmFlags}. */
    static InstancesBehindEjabberd<ComponentProcess> startInstances(Path out, int instances, int connections, String heap,
            List<String> jvmFlags, List<String> settings, java.util.function.Function<String, List<String>> flagsOf,
            Map<String, List<ComponentProcess>> processes) throws Exception {
        List<String> names = new ArrayList<>();
        for (int n = 1; n <= instances; n++) {
            names.add("i" + n);
        }
        return InstancesBehindEjabberd.start(out, names, connections, (name, server, flags, log) -> {
            List<String> own = new ArrayList<>(flags);
            own.addAll(flagsOf.apply(name));
            ComponentProcess p = ComponentProcess.start(server, ServerPlacement.LOOPBACK, HISTORY_SIZE, heap, jvmFlags, own, log);
            processes.computeIfAbsent(name, k -> new CopyOnWriteArrayList<>()).add(p);
            return p;
        }, settings);
    }

    /**
     * Every room's bots, joined eight at a time: b0..b(B-1), the speakers, in that order, then the
     * relaxed listeners.
     */
    private Map<Integer, List<RoomBot>> joinBots(XmppServer server, PrintStream console) throws Exception {
        ConsistencyRequirements relaxed = ConsistencyRequirements.builder()
                .setVolume(relaxedVolume).setTimeSeconds(relaxedSeconds).build();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            Map<Integer, List<Future<RoomBot>>> joining = new TreeMap<>();
            for (int r = 0; r < rooms; r++) {
                int room = r;
                List<Future<RoomBot>> bots = joining.computeIfAbsent(r, k -> new ArrayList<>());
                for (int b = 0; b < botsPerRoom; b++) {
                    String nick = "b" + b;
                    bots.add(pool.submit(() -> RoomBot.join(server, room, nick, null)));
                }
                for (int b = 0; b < relaxedBots; b++) {
                    String nick = "relaxed" + b;
                    bots.add(pool.submit(() -> RoomBot.join(server, room, nick, relaxed)));
                }
            }
            Map<Integer, List<RoomBot>> byRoom = new TreeMap<>();
            int joined = 0;
            for (Map.Entry<Integer, List<Future<RoomBot>>> room : joining.entrySet()) {
                List<RoomBot> bots = new ArrayList<>();
                for (Future<RoomBot> f : room.getValue()) {
                    bots.add(f.get(120, TimeUnit.SECONDS));
                    joined++;
                }
                byRoom.put(room.getKey(), bots);
            }
            console.printf("rooms: %d bots joined%n", joined);
            return byRoom;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The replay: each message goes to every room at its time, from that room's bot; the fault, if
     * any, at its own time (not with the message before it).
     */
    private List<Sent> replay(List<Workload.Msg> schedule, Map<Integer, List<RoomBot>> byRoom, RoomAcks acks,
                              RoomsFault fault, long start) throws Exception {
        double faultAt = killAt >= 0 ? killAt : pauseAt >= 0 ? pauseAt : rollingAt;
        List<Sent> sent = new ArrayList<>();
        for (int i = 0; i < schedule.size(); i++) {
            Workload.Msg m = schedule.get(i);
            long due = start + m.offsetNanos();
            if (fault != null && !fault.happened() && due >= start + (long) (faultAt * 1e9)) {
                sleepUntil(start + (long) (faultAt * 1e9));
                fault.fire(start);
            }
            sleepUntil(due);
            for (int r = 0; r < rooms; r++) {
                RoomBot speaker = byRoom.get(r).get(m.bot() % botsPerRoom);
                sent.add(new Sent(r, i, System.nanoTime()));
                try {
                    Message msg = speaker.connection.getStanzaFactory().buildMessageStanza()
                            .to(speaker.muc.getRoom()).ofType(Message.Type.groupchat)
                            .setBody("[r" + r + "m" + i + "] " + m.text()).build();
                    msg.setStanzaId(RoomAcks.stanzaId(r, i));   // an error comes back with it
                    speaker.connection.sendStanza(msg);
                } catch (Exception e) {
                    acks.bounced.add(RoomAcks.key(r, i));
                }
            }
        }
        return sent;
    }

    static void sleepUntil(long nanos) throws InterruptedException {
        long wait = nanos - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    /**
     * Until every message sent was answered (echoed or bounced) and every acknowledged one reached
     * every bot of its room, or the drain is over; returns the seconds from the replay's start.
     */
    private double drain(int sent, RoomAcks acks, Map<Integer, List<RoomBot>> byRoom, long start)
            throws InterruptedException {
        long drainEnd = System.nanoTime() + (long) (drain * 1e9);
        while (System.nanoTime() < drainEnd && (!acks.allAnswered(sent) || !allDelivered(acks, byRoom))) {
            Thread.sleep(200);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static boolean allDelivered(RoomAcks acks, Map<Integer, List<RoomBot>> byRoom) {
        for (String key : acks.acknowledged.keySet()) {
            String[] rs = key.split(":");
            int seq = Integer.parseInt(rs[1]);
            for (RoomBot b : byRoom.get(Integer.parseInt(rs[0]))) {
                if (!b.has(seq)) {
                    return false;
                }
            }
        }
        return true;
    }

    private Map<String, Object> parameters(int messagesPerRoom) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("rooms", rooms);
        parameters.put("bots_per_room", botsPerRoom);
        parameters.put("relaxed_bots_per_room", relaxedBots);
        parameters.put("relaxed_volume", relaxedBots > 0 ? relaxedVolume : null);
        parameters.put("relaxed_time_seconds", relaxedBots > 0 ? relaxedSeconds : null);
        parameters.put("instances", instances);
        parameters.put("connections_per_instance", connections);
        parameters.put("ejabberd_buckets", Math.max(2, instances * connections));
        parameters.put("messages_per_room", messagesPerRoom);
        parameters.put("rate_per_room", rate);
        parameters.put("kill_at_seconds", killAt >= 0 ? killAt : null);
        parameters.put("pause_at_seconds", pauseAt >= 0 ? pauseAt : null);
        parameters.put("pause_seconds", pauseAt >= 0 ? pauseSeconds : null);
        parameters.put("rolling_restart_at_seconds", rollingAt >= 0 ? rollingAt : null);
        parameters.put("lease_seconds", 3);
        return parameters;
    }
}
