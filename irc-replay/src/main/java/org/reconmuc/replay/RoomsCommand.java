package org.reconmuc.replay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.io.PrintStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.muc.packet.MUCUser;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.replay.irc.IrcLogs;
import org.reconmuc.servers.PostgresServer;
import org.reconmuc.servers.ServerOptions;
import org.reconmuc.servers.ServerPlacement;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * {@code irc-replay rooms}: many rooms, several instances. The IRC logs replayed into R rooms of B
 * bots each (the same messages in every room, at the same pace), served by N instances of the
 * service behind ejabberd (a bucket per connection) sharing a PostgreSQL; optionally the instance
 * serving the most rooms is killed with SIGKILL part-way, or paused (SIGSTOP, then SIGCONT), or every
 * instance is stopped cleanly and started again in turn (a rolling restart). A bot told that its room moved (110 +
 * 333) joins again and asks for the discussion history since the last message it saw, as a
 * XEP-0410 client with MUC history would. Counted per room: what its senders had acknowledged
 * (their message echoed) and whether every bot of the room got it — live or from the history on
 * rejoin — exactly once; what was bounced (an error came back) or dropped (neither echo nor
 * error); and for the rooms of the killed instance, the seconds from the kill to the next message
 * the room acknowledged.
 */
final class RoomsCommand {
    private static final Pattern ID = Pattern.compile("^\\[r(\\d+)m(\\d+)\\] ");
    private static final Pattern SENT_ID = Pattern.compile("r(\\d+)m(\\d+)");

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
                || (c.killAt >= 0 ? 1 : 0) + (c.pauseAt >= 0 ? 1 : 0) + (c.rollingAt >= 0 ? 1 : 0) > 1) {
            err.println("rooms: --out DIR is required; rooms >= 1, bots-per-room >= 2, instances >= 1,"
                    + " messages 1..100 (the rooms' history must hold them), rate > 0, pause-seconds > 0;"
                    + " at most one of --kill-at, --pause-at, --rolling-restart-at");
            return 2;
        }
        if (c.logs == null) {
            c.logs = IrcLogs.defaultDir();
        }
        return c.execute(out);
    }

    /** One bot: its connection, its room, and what it saw. */
    private final class Bot {
        final int room;
        final String nick;
        final XMPPTCPConnection connection;
        final MultiUserChat muc;
        /** seq to live deliveries of this room's messages. */
        final Map<Integer, Integer> got = new ConcurrentHashMap<>();
        /** seqs that came in the discussion history on a rejoin (a client's catch-up: they overlap what came live). */
        final Set<Integer> fromHistory = ConcurrentHashMap.newKeySet();
        final List<Integer> liveOrder = java.util.Collections.synchronizedList(new ArrayList<>());
        volatile long lastSeenMillis;
        final AtomicLong rejoins = new AtomicLong();

        Bot(int room, String nick, XMPPTCPConnection connection, MultiUserChat muc) {
            this.room = room;
            this.nick = nick;
            this.connection = connection;
            this.muc = muc;
        }
    }

    private record Sent(int room, int seq, long atNanos) {
    }

    private int execute(PrintStream console) throws Exception {
        Files.createDirectories(out);
        try (var old = Files.list(out)) {   // the instances append to their logs: start them anew
            for (Path log : old.filter(f -> f.getFileName().toString().startsWith("instance-")).toList()) {
                Files.delete(log);
            }
        }
        Workload w = Workload.build(IrcLogs.load(logs), messages, rate, 0, messages / rate + 5, botsPerRoom,
                Workload.Replies.NONE);
        console.printf("rooms: %d rooms x %d bots, %d instances x %d connections, %d messages per room at %.2f/s%s%n",
                rooms, botsPerRoom, instances, connections, w.messages().size(), rate,
                killAt >= 0 ? ", the busiest instance killed at " + killAt + " s"
                        : pauseAt >= 0 ? ", the busiest instance paused at " + pauseAt + " s for " + pauseSeconds + " s"
                        : rollingAt >= 0 ? ", every instance restarted in turn from " + rollingAt + " s" : "");
        String load0 = Files.readString(Path.of("/proc/loadavg")).trim();
        Map<String, Object> summary = new LinkedHashMap<>();
        try (PostgresServer db = PostgresServer.start();
             XmppServer server = XmppServers.start("ejabberd", Files.createDirectories(out.resolve("ejabberd")),
                     ServerOptions.DEFAULT.withComponentBuckets(Math.max(2, instances * connections)))) {
            List<ComponentProcess> procs = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int n = 1; n <= instances; n++) {
                procs.add(startInstance(server, db, n, out.resolve("instance-" + n + ".log")));
            }
            // Joins, eight at a time.
            List<Bot> bots = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<Bot>> joining = new ArrayList<>();
            for (int r = 0; r < rooms; r++) {
                for (int b = 0; b < botsPerRoom; b++) {
                    int room = r;
                    String nick = "b" + b;
                    joining.add(pool.submit(() -> join(server, room, nick)));
                }
            }
            for (Future<Bot> f : joining) {
                bots.add(f.get(120, TimeUnit.SECONDS));
            }
            console.printf("rooms: %d bots joined%n", bots.size());
            Map<Integer, List<Bot>> byRoom = new HashMap<>();
            for (Bot b : bots) {
                byRoom.computeIfAbsent(b.room, k -> new ArrayList<>()).add(b);
            }
            Map<String, Integer> ownersBefore = roomCounts(owners(db));

            // The replay: each message goes to every room at its time, from that room's bot.
            Map<String, Long> acksLive = new ConcurrentHashMap<>();   // "r:seq" -> nanos
            Set<String> bouncesLive = ConcurrentHashMap.newKeySet();
            for (Bot b : bots) {
                b.connection.addSyncStanzaListener(s -> {
                    Message m = (Message) s;
                    if (m.getType() == Message.Type.error) {
                        Matcher sentId = SENT_ID.matcher(String.valueOf(m.getStanzaId()));
                        if (sentId.matches()) {
                            bouncesLive.add(sentId.group(1) + ":" + sentId.group(2));
                        }
                        return;
                    }
                    Matcher id = m.getBody() == null ? null : ID.matcher(m.getBody());
                    if (id == null || !id.find()) {
                        return;
                    }
                    String key = id.group(1) + ":" + id.group(2);
                    if (m.getFrom() != null && b.nick.equals(String.valueOf(m.getFrom().getResourceOrNull()))) {
                        acksLive.putIfAbsent(key, System.nanoTime());
                    }
                }, s -> s instanceof Message);
            }
            long start = System.nanoTime();
            long killNanos = -1;
            double faultAt = killAt >= 0 ? killAt : pauseAt >= 0 ? pauseAt : rollingAt;
            Thread faultThread = null;
            List<Map<String, Object>> restarts = java.util.Collections.synchronizedList(new ArrayList<>());
            java.util.concurrent.CompletableFuture<Double> adoptedAfter = null;
            String killed = null;
            Set<String> killedRooms = Set.of();
            List<Sent> sent = new ArrayList<>();
            List<Workload.Msg> schedule = w.messages();
            for (int i = 0; i < schedule.size(); i++) {
                Workload.Msg m = schedule.get(i);
                long due = start + m.offsetNanos();
                if (faultAt >= 0 && killNanos < 0 && due >= start + (long) (faultAt * 1e9)) {
                    long faultDue = start + (long) (faultAt * 1e9) - System.nanoTime();
                    if (faultDue > 0) {
                        TimeUnit.NANOSECONDS.sleep(faultDue);   // at its time, not with the message before
                    }
                    if (rollingAt >= 0) {
                        killNanos = System.nanoTime();
                        faultThread = new Thread(() -> restartInTurn(server, db, procs, restarts, console, start),
                                "rolling-restart");
                        faultThread.setDaemon(true);
                        faultThread.start();
                    } else {
                        Map<String, String> owners = owners(db);
                        killed = busiest(owners);
                        String victim = killed;
                        killedRooms = new java.util.HashSet<>(owners.entrySet().stream()
                                .filter(e -> victim.equals(e.getValue())).map(Map.Entry::getKey).toList());
                        ComponentProcess p = procs.get(Integer.parseInt(killed.substring(1)) - 1);
                        killNanos = System.nanoTime();
                        if (killAt >= 0) {
                            ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly);
                            adoptedAfter = watchAdoption(db, killed, killNanos);
                        } else {
                            signal("STOP", p.pid());
                            faultThread = new Thread(() -> {
                                pause((long) (pauseSeconds * 1000));
                                signal("CONT", p.pid());
                            }, "pause-" + victim);
                            faultThread.setDaemon(true);
                            faultThread.start();
                        }
                        console.printf("rooms: %s instance %s (%d rooms) at %.1f s%n", killAt >= 0 ? "killed" : "paused",
                                killed, killedRooms.size(), (killNanos - start) / 1e9);
                    }
                }
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                for (int r = 0; r < rooms; r++) {
                    Bot speaker = byRoom.get(r).get(m.bot() % botsPerRoom);
                    String body = "[r" + r + "m" + i + "] " + m.text();
                    sent.add(new Sent(r, i, System.nanoTime()));
                    try {
                        Message msg = speaker.connection.getStanzaFactory().buildMessageStanza()
                                .to(speaker.muc.getRoom()).ofType(Message.Type.groupchat).setBody(body).build();
                        msg.setStanzaId("r" + r + "m" + i);   // an error comes back with it
                        speaker.connection.sendStanza(msg);
                    } catch (Exception e) {
                        bouncesLive.add(r + ":" + i);
                    }
                }
            }
            if (faultThread != null) {
                faultThread.join(TimeUnit.SECONDS.toMillis(60L * instances + 60));   // the fault is over before the drain
            }
            // Drain: until every message sent was answered (echoed or bounced) and every acknowledged one
            // reached every bot of its room, or the drain is over.
            long drainEnd = System.nanoTime() + (long) (drain * 1e9);
            while (System.nanoTime() < drainEnd
                    && (acksLive.size() + bouncesLive.stream().filter(k -> !acksLive.containsKey(k)).count() < sent.size()
                        || !allDelivered(acksLive, byRoom))) {
                Thread.sleep(200);
            }
            double waited = (System.nanoTime() - start) / 1e9;
            // What counts from here: the acknowledgements and bounces in by the end of the drain.
            Map<String, Long> acknowledged = new HashMap<>(acksLive);
            Set<String> bounced = Set.copyOf(bouncesLive);

            // Counting, room by room (RoomTally).
            long expected = 0;
            long lost = 0;
            long duplicated = 0;
            long caughtUp = 0;
            long outOfOrder = 0;
            long rejoins = 0;
            List<String> orderExamples = new ArrayList<>();
            StringBuilder dump = new StringBuilder();
            for (Map.Entry<Integer, List<Bot>> room : new TreeMap<>(byRoom).entrySet()) {
                List<RoomTally.BotView> views = new ArrayList<>();
                for (Bot b : room.getValue()) {
                    rejoins += b.rejoins.get();
                    List<Integer> live;
                    synchronized (b.liveOrder) {
                        live = new ArrayList<>(b.liveOrder);
                    }
                    views.add(new RoomTally.BotView(b.nick, live, Set.copyOf(b.fromHistory)));
                    dump.append("replay").append(room.getKey()).append('/').append(b.nick).append(' ').append(live).append('\n');
                }
                List<Integer> acked = new ArrayList<>();
                for (String key : acknowledged.keySet()) {
                    String[] rs = key.split(":");
                    if (Integer.parseInt(rs[0]) == room.getKey()) {
                        acked.add(Integer.parseInt(rs[1]));
                    }
                }
                RoomTally t = RoomTally.of("replay" + room.getKey(), views, acked,
                        seq -> schedule.get(seq).bot() % botsPerRoom);
                expected += t.expected;
                lost += t.lost;
                duplicated += t.duplicated;
                caughtUp += t.caughtUp;
                outOfOrder += t.outOfOrder;
                for (String e : t.examples) {
                    if (orderExamples.size() < 5) {
                        orderExamples.add(e);
                    }
                }
            }
            Files.writeString(out.resolve("live-order.txt"), dump);
            long unacknowledged = sent.size() - acknowledged.size();
            long bouncedUnacked = bounced.stream().filter(k -> !acknowledged.containsKey(k)).count();
            // Per room of the killed instance: the kill to the first message acknowledged after it.
            Map<String, Object> failover = new TreeMap<>();
            if (adoptedAfter != null) {
                summary.put("killed_instance_adopted_after_seconds", adoptedAfter.getNow(null));
            }
            if (!restarts.isEmpty()) {
                summary.put("restarts", List.copyOf(restarts));
            }
            summary.put("logged", loggedFailover(out));
            summary.put("slowest_acknowledgement_after_fault_seconds", killNanos > 0
                    ? slowestAcks(sent, acknowledged, rooms, killNanos) : null);
            if (killNanos > 0) {
                for (String room : killedRooms) {
                    int r = Integer.parseInt(room.substring("replay".length(), room.indexOf('@')));
                    long first = Long.MAX_VALUE;
                    long firstSentAt = 0;
                    int lostHere = 0;
                    int bouncedHere = 0;
                    for (Sent s : sent) {
                        if (s.room() != r || s.atNanos() < killNanos) {
                            continue;
                        }
                        Long ack = acknowledged.get(r + ":" + s.seq());
                        if (ack != null) {
                            if (ack < first) {
                                first = ack;
                                firstSentAt = s.atNanos();
                            }
                        } else if (bounced.contains(r + ":" + s.seq())) {
                            bouncedHere++;
                        } else {
                            lostHere++;
                        }
                    }
                    Map<String, Object> one = new LinkedHashMap<>();
                    one.put("seconds_without_service", first == Long.MAX_VALUE ? null : (first - killNanos) / 1e9);
                    // Apart: how long after the fault the log's schedule sent that message, and how
                    // long it then waited for its echo (the room's own share of the gap).
                    one.put("first_acknowledged_sent_after_seconds",
                            first == Long.MAX_VALUE ? null : (firstSentAt - killNanos) / 1e9);
                    one.put("first_acknowledged_waited_seconds",
                            first == Long.MAX_VALUE ? null : (first - firstSentAt) / 1e9);
                    one.put("sent_after_kill_bounced", bouncedHere);
                    one.put("sent_after_kill_dropped", lostHere);
                    failover.put(room, one);
                }
            }
            Map<String, Object> perInstance = new LinkedHashMap<>();
            for (int n = 0; n < procs.size(); n++) {
                ComponentProcess p = procs.get(n);
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("rooms_at_start", ownersBefore.getOrDefault("i" + (n + 1), 0));
                one.put(killAt >= 0 ? "killed" : "paused", ("i" + (n + 1)).equals(killed));
                if (p.isAlive()) {
                    one.put("cpu_seconds", ProcSampler.cpuSeconds(p.pid()));
                    one.put("rss_mb", ProcSampler.rssBytes(p.pid()) / 1e6);
                    one.put("live_heap_mb_at_end", p.liveHeap() / 1e6);
                }
                perInstance.put("i" + (n + 1), one);
            }
            Map<String, Object> parameters = new LinkedHashMap<>();
            parameters.put("rooms", rooms);
            parameters.put("bots_per_room", botsPerRoom);
            parameters.put("instances", instances);
            parameters.put("connections_per_instance", connections);
            parameters.put("ejabberd_buckets", Math.max(2, instances * connections));
            parameters.put("messages_per_room", schedule.size());
            parameters.put("rate_per_room", rate);
            parameters.put("kill_at_seconds", killAt >= 0 ? killAt : null);
            parameters.put("pause_at_seconds", pauseAt >= 0 ? pauseAt : null);
            parameters.put("pause_seconds", pauseAt >= 0 ? pauseSeconds : null);
            parameters.put("rolling_restart_at_seconds", rollingAt >= 0 ? rollingAt : null);
            parameters.put("lease_seconds", 3);
            summary.put("parameters", parameters);
            Map<String, Object> totals = new LinkedHashMap<>();
            totals.put("sent", sent.size());
            totals.put("acknowledged", acknowledged.size());
            totals.put("unacknowledged_bounced", bouncedUnacked);
            totals.put("unacknowledged_dropped", unacknowledged - bouncedUnacked);
            List<String> unackedExamples = new ArrayList<>();
            for (Sent x : sent) {
                String key = x.room() + ":" + x.seq();
                if (!acknowledged.containsKey(key) && unackedExamples.size() < 10) {
                    unackedExamples.add("replay" + x.room() + " m" + x.seq() + " sent at "
                            + Math.round((x.atNanos() - start) / 1e8) / 10.0 + " s" + (bounced.contains(key) ? " (bounced)" : ""));
                }
            }
            totals.put("unacknowledged_examples", unackedExamples);
            totals.put("deliveries_expected", expected);
            totals.put("lost", lost);
            totals.put("delivered_from_history_on_rejoin", caughtUp);
            totals.put("duplicated", duplicated);
            totals.put("out_of_order", outOfOrder);
            totals.put("examples", orderExamples);
            totals.put("rejoins", rejoins);
            totals.put("seconds_until_drained", waited);
            summary.put("acknowledged_messages", totals);
            summary.put("failover", failover);
            summary.put("instances", perInstance);
            summary.put("load_before", load0);
            summary.put("load_after", Files.readString(Path.of("/proc/loadavg")).trim());
            String json = Json.write(summary);
            Files.writeString(out.resolve("summary.json"), json);
            console.print(json);
            pool.shutdownNow();
            for (ComponentProcess p : procs) {
                p.close();
            }
            return lost == 0 && duplicated == 0 && outOfOrder == 0 ? 0 : 1;
        }
    }

    private ComponentProcess startInstance(XmppServer server, PostgresServer db, int n, Path log) throws Exception {
        List<String> extra = List.of("--store", db.jdbcUrl(), "--room-default-persistent", "true",
                "--lock-new-rooms", "false", "--instance", "i" + n, "--connections", Integer.toString(connections),
                "--lease-seconds", "3");
        return ComponentProcess.start(server, ServerPlacement.LOOPBACK, 100, "512m", extra, log);
    }

    /**
     * A rolling restart: each instance in turn stopped cleanly (its standard input closed, as an
     * operator's stop), started again, and given {@value #SETTLE_SECONDS} s before the next.
     */
    private void restartInTurn(XmppServer server, PostgresServer db, List<ComponentProcess> procs,
                               List<Map<String, Object>> restarts, PrintStream console, long start) {
        for (int n = 1; n <= procs.size(); n++) {
            try {
                long stopAt = System.nanoTime();
                procs.get(n - 1).close();
                long stopped = System.nanoTime();
                procs.set(n - 1, startInstance(server, db, n, out.resolve("instance-" + n + "-restarted.log")));
                long started = System.nanoTime();
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("instance", "i" + n);
                one.put("stop_at_seconds", (stopAt - start) / 1e9);
                one.put("stop_took_seconds", (stopped - stopAt) / 1e9);
                one.put("start_took_seconds", (started - stopped) / 1e9);
                restarts.add(one);
                console.printf("rooms: restarted instance i%d at %.1f s (stop %.1f s, start %.1f s)%n", n,
                        (stopAt - start) / 1e9, (stopped - stopAt) / 1e9, (started - stopped) / 1e9);
            } catch (Exception e) {
                console.printf("rooms: restarting instance i%d failed: %s%n", n, e);
                return;
            }
            if (!pause(SETTLE_SECONDS * 1000L)) {
                return;
            }
        }
    }

    private static final int SETTLE_SECONDS = 5;

    private static void signal(String signal, long pid) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed", e);
        }
    }

    /** What the instances logged of failover: adoptions of an instance taken for dead, rooms lost to another. */
    private static Map<String, Object> loggedFailover(Path out) throws java.io.IOException {
        long adoptions = 0;
        long roomsLost = 0;
        long gateHeld = 0;
        try (var logs = Files.list(out)) {
            for (Path log : logs.filter(f -> f.getFileName().toString().startsWith("instance-")).toList()) {
                for (String line : Files.readAllLines(log)) {
                    if (line.contains("an instance is gone")) {
                        adoptions++;
                    } else if (line.contains("lost its lease")) {
                        roomsLost++;
                    } else if (line.contains("leases are unconfirmed")) {
                        gateHeld++;
                    }
                }
            }
        }
        Map<String, Object> logged = new LinkedHashMap<>();
        logged.put("adoptions", adoptions);
        logged.put("rooms_lost_to_another_instance", roomsLost);
        logged.put("stanzas_held_for_unconfirmed_leases", gateHeld);
        return logged;
    }

    /**
     * Per room, the slowest acknowledgement of a message sent from the fault on (its echo's time
     * after its sending; the room's own pace does not count): the median and the largest over the rooms.
     */
    private static Map<String, Object> slowestAcks(List<Sent> sent, Map<String, Long> acknowledged, int rooms, long fromNanos) {
        double[] slowest = new double[rooms];
        for (Sent x : sent) {
            Long ack = acknowledged.get(x.room() + ":" + x.seq());
            if (ack != null && x.atNanos() >= fromNanos) {
                slowest[x.room()] = Math.max(slowest[x.room()], (ack - x.atNanos()) / 1e9);
            }
        }
        double[] sorted = slowest.clone();
        java.util.Arrays.sort(sorted);
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("median", sorted.length == 0 ? null : sorted[sorted.length / 2]);
        g.put("max", sorted.length == 0 ? null : sorted[sorted.length - 1]);
        return g;
    }

    private Bot join(XmppServer server, int room, String nick) throws Exception {
        XMPPTCPConnection c = server.newClient("r" + room + nick);
        c.setReplyTimeout(5_000);
        EntityBareJid jid = JidCreate.entityBareFrom("replay" + room + "@" + server.componentDomain());
        MultiUserChat muc = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(jid);
        Bot bot = new Bot(room, nick, c, muc);
        // Sync listeners: called in the order the stanzas arrived (async ones run concurrently).
        c.addSyncStanzaListener(s -> {
            Message m = (Message) s;
            if (m.getType() != Message.Type.groupchat || m.getBody() == null) {
                return;
            }
            Matcher id = ID.matcher(m.getBody());
            if (!id.find()) {
                return;
            }
            int seq = Integer.parseInt(id.group(2));
            if (m.hasExtension("delay", "urn:xmpp:delay")) {
                bot.fromHistory.add(seq);
            } else {
                bot.got.merge(seq, 1, Integer::sum);
                bot.liveOrder.add(seq);
                bot.lastSeenMillis = System.currentTimeMillis();
            }
        }, s -> s instanceof Message);
        c.addSyncStanzaListener(s -> {
            Presence p = (Presence) s;
            MUCUser user = MUCUser.from(p);
            if (p.getType() == Presence.Type.unavailable && user != null
                    && user.getStatus().contains(MUCUser.Status.create(333))
                    && user.getStatus().contains(MUCUser.Status.create(110))) {
                Thread t = new Thread(() -> rejoin(bot), "rejoin-" + room + nick);
                t.setDaemon(true);
                t.start();
            }
        }, s -> s instanceof Presence && s.getFrom() != null && s.getFrom().asBareJid().equals(jid));
        muc.join(muc.getEnterConfigurationBuilder(Resourcepart.from(nick)).requestNoHistory().build());
        return bot;
    }

    /** Told the room moved: join again, with the history since the last message seen live (a second early). */
    private void rejoin(Bot bot) {
        bot.rejoins.incrementAndGet();
        for (int i = 0; i < 20 && bot.muc.isJoined(); i++) {   // Smack takes the 110 presence as having left
            if (!pause(50)) {
                return;
            }
        }
        for (int attempt = 0; attempt < 10; attempt++) {
            try {
                long since = bot.lastSeenMillis == 0 ? System.currentTimeMillis() - 600_000 : bot.lastSeenMillis - 1_000;
                bot.muc.join(bot.muc.getEnterConfigurationBuilder(Resourcepart.from(bot.nick))
                        .requestHistorySince(new Date(since)).build());
                return;
            } catch (Exception e) {
                if (!pause(500)) {
                    return;
                }
            }
        }
    }

    /** Sleeps; false if interrupted (the flag is kept). */
    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean allDelivered(Map<String, Long> acknowledged, Map<Integer, List<Bot>> byRoom) {
        for (String key : acknowledged.keySet()) {
            String[] rs = key.split(":");
            for (Bot b : byRoom.get(Integer.parseInt(rs[0]))) {
                int seq = Integer.parseInt(rs[1]);
                if (!b.got.containsKey(seq) && !b.fromHistory.contains(seq)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Seconds from the kill until a survivor adopted the killed instance (its heartbeat row gone:
     * the survivor opens as many connections, and the empty buckets are claimed).
     */
    private static java.util.concurrent.CompletableFuture<Double> watchAdoption(PostgresServer db, String instance,
                                                                             long killNanos) {
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            long deadline = killNanos + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                try (Connection c = DriverManager.getConnection(db.jdbcUrl());
                     Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM reconmuc_instance WHERE id LIKE '"
                             + instance + "-%'")) {
                    rs.next();
                    if (rs.getInt(1) == 0) {
                        return (System.nanoTime() - killNanos) / 1e9;
                    }
                    Thread.sleep(100);
                } catch (Exception e) {
                    return null;
                }
            }
            return null;
        });
    }

    private static Map<String, String> owners(PostgresServer db) throws Exception {
        Map<String, String> owners = new HashMap<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT room, owner FROM reconmuc_lease WHERE owner IS NOT NULL")) {
            while (rs.next()) {
                String owner = rs.getString(2);
                owners.put(rs.getString(1), owner.substring(0, owner.lastIndexOf('-')));
            }
        }
        return owners;
    }

    /** Rooms per instance, by instance name. */
    private static Map<String, Integer> roomCounts(Map<String, String> owners) {
        Map<String, Integer> counts = new TreeMap<>();
        owners.values().forEach(o -> counts.merge(o, 1, Integer::sum));
        return counts;
    }

    private static String busiest(Map<String, String> owners) {
        return roomCounts(owners).entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }
}
