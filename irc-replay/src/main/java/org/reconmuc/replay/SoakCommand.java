package org.reconmuc.replay;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.disco.ServiceDiscoveryManager;
import org.jivesoftware.smackx.disco.packet.DiscoverItems;
import org.jivesoftware.smackx.rsm.packet.RSMSet;
import org.jxmpp.jid.impl.JidCreate;
import org.reconmuc.replay.irc.IrcLogs;
import org.reconmuc.servers.InstancesBehindEjabberd;
import org.reconmuc.smack.element.ConsistencyRequirements;

/**
 * {@code irc-replay soak --minutes N}: what a service sees for hours, bounded. Three instances (as
 * {@code rooms}) behind ejabberd on a shared PostgreSQL serve many small persistent rooms and one big one, with
 * archives; in each, speakers replay the IRC logs in a loop and listeners (standard and relaxed)
 * churn — leave and come back, drop their connection and come back, change nick, status and
 * requirements — catching up from the archive as real clients do ({@link SoakBot}). Faults come on
 * a schedule ({@link SoakFaults}); a hostile client trickles abuse ({@link SoakHostile}). Every minute a
 * line and a row of minutes.jsonl: traffic, the at-once p99, what is still missing, each instance's
 * live heap after GC, RSS, file descriptors and threads, ejabberd's RSS, unhandled exceptions in
 * the instances' logs. At the end summary.json and summary.md: acknowledged messages lost,
 * duplicated, out of order or late, archive gaps, ghost occupants, the memory figures' slopes, and
 * charts against time.
 */
final class SoakCommand {
    private static final List<String> SETTINGS = List.of("--room-default-persistent", "true", "--lock-new-rooms", "false",
            "--lease-seconds", "3");
    /** An ERROR line of the instances' logs (logback's pattern) and the JVM's own last word. */
    private static final Pattern ERROR_LINE = Pattern.compile("^\\S+ ERROR |^Exception in thread ");

    double minutes = 10;
    int rooms = 16;
    int speakers = 3;
    int listeners = 2;
    int relaxedListeners = 1;
    /** Listeners of one more room, the big one, a third of them relaxed, beside the same speakers (0: none). */
    int bigRoom = 120;
    int instances = 3;
    int connections = 2;
    double rate = 0.5;
    double killEveryMinutes = 10;
    double churnSeconds = 2;
    /** A room made and destroyed every so many seconds ({@link SoakRoomChurn}); 0: none. */
    double roomChurnSeconds = 10;
    boolean hostile = true;
    double drain = 30;
    double lateWait = 60;
    Path out;
    Path logs;

    /** Every bot by room; the churn's picks. */
    private final Map<Integer, List<SoakBot>> byRoom = new TreeMap<>();
    private final SoakLedger ledger = new SoakLedger();
    private final Random random = new Random(1);
    private final List<Map<String, Object>> minuteRows = new ArrayList<>();
    /** Each instance process's first minute row, by pid: its native memory baseline is taken once it has warmed up. */
    private final Map<Long, Integer> firstMinuteOfProcess = new ConcurrentHashMap<>();
    private SoakNativeMemory nativeMemory;
    /** The Prometheus scraping the instances (null without one): the minute rows' queue high-water marks. */
    private volatile SoakPrometheus scraper;
    /** The instances' queues whose highest value of each minute (from the 2-s scrapes) goes in its row. */
    private static final List<String> QUEUES = List.of("reconmuc_mailbox_pending_stanzas", "reconmuc_outgoing_queue_stanzas",
            "reconmuc_store_queue_writes", "reconmuc_store_held_stanzas");

    SoakCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        SoakCommand c = new SoakCommand();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                out.print(Help.TEXT);
                return 0;
            }
            if (a.equals("--no-hostile")) {
                c.hostile = false;
                continue;
            }
            if (i + 1 >= args.length) {
                err.println("soak: " + a + " needs a value");
                return 2;
            }
            String v = args[++i];
            switch (a) {
                case "--minutes" -> c.minutes = Double.parseDouble(v);
                case "--rooms" -> c.rooms = Integer.parseInt(v);
                case "--speakers" -> c.speakers = Integer.parseInt(v);
                case "--listeners" -> c.listeners = Integer.parseInt(v);
                case "--relaxed-listeners" -> c.relaxedListeners = Integer.parseInt(v);
                case "--big-room" -> c.bigRoom = Integer.parseInt(v);
                case "--instances" -> c.instances = Integer.parseInt(v);
                case "--connections" -> c.connections = Integer.parseInt(v);
                case "--rate" -> c.rate = Double.parseDouble(v);
                case "--kill-every" -> c.killEveryMinutes = Double.parseDouble(v);
                case "--churn-every" -> c.churnSeconds = Double.parseDouble(v);
                case "--room-churn-every" -> c.roomChurnSeconds = Double.parseDouble(v);
                case "--drain" -> c.drain = Double.parseDouble(v);
                case "--late-wait" -> c.lateWait = Double.parseDouble(v);
                case "--out" -> c.out = Path.of(v);
                case "--logs" -> c.logs = Path.of(v);
                default -> {
                    err.println("soak: unknown option " + a);
                    return 2;
                }
            }
        }
        if (c.out == null || c.minutes <= 0 || c.rooms < 1 || c.speakers < 1 || c.listeners < 0 || c.relaxedListeners < 0
                || c.bigRoom < 0 || c.instances < 2 || c.rate <= 0 || c.killEveryMinutes <= 0 || c.churnSeconds <= 0 || c.roomChurnSeconds < 0) {
            err.println("soak: --out DIR is required; minutes > 0, rooms >= 1, speakers >= 1, listeners,"
                    + " relaxed-listeners and big-room >= 0, instances >= 2 (a kill needs a survivor), rate > 0, kill-every > 0,"
                    + " churn-every > 0, room-churn-every >= 0");
            return 2;
        }
        if (c.logs == null) {
            c.logs = IrcLogs.defaultDir();
        }
        return c.execute(out).clean() ? 0 : 1;
    }

    /** The run; its summary. */
    SoakSummary execute(PrintStream console) throws Exception {
        Files.createDirectories(out);
        try (var old = Files.list(out)) {
            for (Path f : old.filter(f -> f.getFileName().toString().startsWith("instance-")
                    || f.getFileName().toString().equals("minutes.jsonl")).toList()) {
                Files.delete(f);
            }
        }
        List<String> texts = Workload.build(IrcLogs.load(logs), 100, 1, 0, 1_000, speakers, Workload.Replies.NONE)
                .messages().stream().map(Workload.Msg::text).toList();
        double seconds = minutes * 60;
        List<SoakFaults.Due> schedule = SoakFaults.schedule(seconds, killEveryMinutes * 60, Math.min(60, seconds * 0.1));
        console.printf("soak: %.1f minutes, %d rooms x (%d speakers + %d listeners + %d relaxed)%s, %d instances x %d"
                        + " connections, %.2f messages/s per room, faults %s%s%n", minutes, rooms, speakers, listeners,
                relaxedListeners, bigRoom > 0 ? String.format(java.util.Locale.ROOT, " and one of %d speakers + %d listeners + %d"
                        + " relaxed", speakers, bigRoom - bigRoomRelaxed(), bigRoomRelaxed()) : "",
                instances, connections, rate, schedule, hostile ? ", hostile trickle" : "");
        String loadBefore = PaperCommand.loadAverage();
        Map<String, List<ComponentProcess>> processes = new ConcurrentHashMap<>();
        List<String> names = new ArrayList<>();
        for (int n = 1; n <= instances; n++) {
            names.add("i" + n);
        }
        SoakPrometheus prometheus = SoakPrometheus.start(out.resolve("prometheus"), names);
        if (prometheus == null) {
            console.println("soak: no Prometheus (" + SoakPrometheus.BINARY + "): the metrics are not scraped");
        }
        scraper = prometheus;
        nativeMemory = new SoakNativeMemory(out);
        try (AutoCloseable stopPrometheus = prometheus == null ? () -> { } : prometheus;
             InstancesBehindEjabberd<ComponentProcess> cluster = RoomsCommand.startInstances(out, instances, connections,
                     "256m", SoakNativeMemory.JVM_FLAGS, SETTINGS, name -> prometheus == null ? List.of() : prometheus.flags(name),
                     processes)) {
            joinBots(cluster, console);
            SoakHostile trickle = hostile ? new SoakHostile(cluster.server(), allRooms(),
                    () -> ledger.sentAt.size() + ledger.deliveries.get()) : null;
            SoakRoomChurn roomChurn = roomChurnSeconds > 0 ? new SoakRoomChurn(cluster.server()) : null;
            ExecutorService roomChurnPool = Executors.newSingleThreadExecutor();
            SoakFaults faults = new SoakFaults(schedule, cluster, ledger, console);
            long start = System.nanoTime();
            faults.start(start);
            ExecutorService churnPool = Executors.newFixedThreadPool(4);
            int[] seq = new int[allRooms()];
            long tick = 0;
            long tickNanos = (long) (1e9 / (rate * allRooms()));
            long end = start + (long) (seconds * 1e9);
            long nextChurn = start;
            long nextMinute = start + 60_000_000_000L;
            long nextHostile = start + 5_000_000_000L;
            long nextRoomChurn = roomChurn == null ? Long.MAX_VALUE : start + 3_000_000_000L;
            int minute = 0;
            while (System.nanoTime() < end) {
                long due = start + tick * tickNanos;
                RoomsCommand.sleepUntil(Math.min(Math.min(due, nextRoomChurn), Math.min(nextChurn, Math.min(nextMinute, nextHostile))));
                long now = System.nanoTime();
                if (now >= due) {
                    int r = (int) (tick % allRooms());
                    int s = seq[r]++;
                    SoakBot speaker = byRoom.get(r).get(s % speakers);
                    ledger.sent(r, s);
                    if (!speaker.send(s, texts.get(s % texts.size()))) {
                        ledger.acks.bounced.add(RoomAcks.key(r, s));
                    }
                    tick++;
                }
                if (now >= nextChurn) {
                    churnPool.submit(this::churnOne);
                    nextChurn += (long) (churnSeconds * 1e9);
                }
                if (now >= nextRoomChurn) {
                    roomChurnPool.submit(roomChurn::tick);
                    nextRoomChurn += (long) (roomChurnSeconds * 1e9);
                }
                if (trickle != null && now >= nextHostile) {
                    churnPool.submit(trickle::tick);
                    nextHostile += 5_000_000_000L;
                }
                if (now >= nextMinute) {
                    minute++;
                    int m = minute;
                    Thread t = new Thread(() -> minute(m, cluster, console), "soak-minute");   // a slow GC reading holds no send
                    t.setDaemon(true);
                    t.start();
                    nextMinute += 60_000_000_000L;
                }
            }
            churnPool.shutdown();
            churnPool.awaitTermination(2, TimeUnit.MINUTES);
            roomChurnPool.shutdown();
            roomChurnPool.awaitTermination(2, TimeUnit.MINUTES);
            faults.stop();
            if (roomChurn != null) {
                roomChurn.close();
            }
            if (trickle != null) {
                trickle.close();
            }
            console.printf("soak: sending over at %.0f s; waiting for every bot to be back and every message delivered%n",
                    (System.nanoTime() - start) / 1e9);
            long notBack = awaitBotsBack();
            long[] missing = drainAndWait();
            console.printf("soak: %d bots not back, %d deliveries missing after the drain, %d at the end (%.0f s)%n", notBack,
                    missing[0], missing[1], (System.nanoTime() - start) / 1e9);
            minute(minute + 1, cluster, console);
            SoakSummary summary = new SoakSummary(out, byRoom, ledger, speakers);
            summary.put("parameters", parameters());
            summary.put("faults", List.copyOf(faults.done));
            summary.put("bots_not_back_at_end", notBack);
            summary.deliveries(missing[0], missing[1]);
            summary.archive(cluster.store(), cluster.server().componentDomain());
            XMPPTCPConnection observer = cluster.server().newClient("observer");   // after the server's restart
            summary.ghosts(observer, cluster.server().componentDomain(), this::occupants);
            summary.put("unhandled_exceptions", unhandledExceptions(cluster));
            if (roomChurn != null) {
                Map<String, Object> churned = roomChurn.report();
                if (prometheus != null) {   // a destroyed room kept in memory shows here: the soak's rooms are all in use
                    churned.put("rooms_in_memory_at_end", prometheus.query("sum(reconmuc_rooms)"));
                    churned.put("soak_rooms", allRooms());
                }
                churned.put("rooms_listed_at_end_besides_the_soaks", roomsListedBesides(
                        ServiceDiscoveryManager.getInstanceFor(observer), cluster.server().componentDomain()));
                summary.put("rooms_made_and_destroyed", churned);
            }
            if (trickle != null) {
                Map<String, Object> h = new LinkedHashMap<>();
                h.put("stanzas", trickle.sent.get());
                h.put("share_of_honest_stanzas", trickle.sent.get() / (double) Math.max(1, ledger.sentAt.size() + ledger.deliveries.get()));
                h.put("by_kind", new TreeMap<>(trickle.byKind));
                h.put("reconnects", trickle.reconnects.get());
                summary.put("hostile", h);
            }
            summary.put("processes_started", processes.entrySet().stream().collect(
                    java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size(), (a, b) -> a, TreeMap::new)));
            summary.memory(minuteRows);
            summary.put("native_memory", nativeMemory.report(cluster.instances().entrySet().stream().collect(
                    java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> e.getValue().pid(), (a, b) -> a, TreeMap::new))));
            if (prometheus != null) {
                summary.put("prometheus", prometheus.compare(prometheusFigures(cluster)));
            }
            summary.put("load_before", loadBefore);
            summary.put("load_after", PaperCommand.loadAverage());
            summary.write(console);
            byRoom.values().forEach(bots -> bots.forEach(SoakBot::close));
            return summary;
        }
    }

    /**
     * What the soak counts that Prometheus also has, at the quiet end: occupants (the bots in rooms),
     * relaxed ones, the instances' connections to the server, and the bytes their processes wrote to it.
     */
    private Map<String, Object[]> prometheusFigures(InstancesBehindEjabberd<ComponentProcess> cluster) {
        Map<String, Object[]> f = new LinkedHashMap<>();
        List<SoakBot> bots = byRoom.values().stream().flatMap(List::stream).filter(SoakBot::joined).toList();
        f.put("occupants", new Object[] {bots.size(), "sum(reconmuc_occupants)"});
        f.put("relaxed_occupants", new Object[] {bots.stream().filter(SoakBot::relaxed).count(),
                "sum(reconmuc_occupants{mode=\"relaxed\"})"});
        f.put("connections_to_the_server", new Object[] {instances * connections, "sum(reconmuc_connected)"});
        f.put("bytes_to_the_server_by_running_processes", new Object[] {cluster.instances().values().stream()
                .mapToLong(p -> p.linkBytes).sum(), "sum(reconmuc_out_bytes_total)"});
        return f;
    }

    /** Every room's bots, eight joining at a time: speakers s0.., standard listeners l0.., relaxed ones x0... */
    private void joinBots(InstancesBehindEjabberd<ComponentProcess> cluster, PrintStream console) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            Map<Integer, List<Future<SoakBot>>> joining = new TreeMap<>();
            for (int r = 0; r < allRooms(); r++) {
                int room = r;
                boolean big = r == rooms;
                int standard = big ? bigRoom - bigRoomRelaxed() : listeners;
                int relaxedOnes = big ? bigRoomRelaxed() : relaxedListeners;
                List<Future<SoakBot>> bots = joining.computeIfAbsent(r, k -> new ArrayList<>());
                for (int b = 0; b < speakers + standard + relaxedOnes; b++) {
                    boolean speaker = b < speakers;
                    boolean relaxed = b >= speakers + standard;
                    String nick = speaker ? "s" + b : relaxed ? "x" + (b - speakers - standard) : "l" + (b - speakers);
                    bots.add(pool.submit(() -> SoakBot.join(cluster.server(), room, speaker, nick,
                            relaxed ? relaxedRequirements(0) : null, ledger)));
                }
            }
            int joined = 0;
            for (Map.Entry<Integer, List<Future<SoakBot>>> room : joining.entrySet()) {
                List<SoakBot> bots = new ArrayList<>();
                for (Future<SoakBot> f : room.getValue()) {
                    bots.add(f.get(120, TimeUnit.SECONDS));
                    joined++;
                }
                byRoom.put(room.getKey(), bots);
            }
            console.printf("soak: %d bots joined%n", joined);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The small rooms and the big one (the last), if any. */
    private int allRooms() {
        return rooms + (bigRoom > 0 ? 1 : 0);
    }

    private int bigRoomRelaxed() {
        return bigRoom / 3;
    }

    /** Two requirement sets a relaxed listener moves between. */
    private static ConsistencyRequirements relaxedRequirements(int which) {
        return ConsistencyRequirements.builder().setVolume(which % 2 == 0 ? 3 : 5).setTimeSeconds(which % 2 == 0 ? 3 : 5).build();
    }

    /** One churn step on a listener picked at random. */
    private void churnOne() {
        List<SoakBot> room = byRoom.get(random.nextInt(allRooms()));
        List<SoakBot> churners = room.stream().filter(b -> !b.speaker).toList();
        if (churners.isEmpty()) {
            return;
        }
        SoakBot bot = churners.get(random.nextInt(churners.size()));
        int what = random.nextInt(bot.relaxed() ? 5 : 4);
        long away = 500 + random.nextInt(2_500);
        int n = random.nextInt(1000);
        bot.churn(List.of("leave", "drop", "nick", "status", "requirements").get(what), () -> {
            switch (what) {
                case 0 -> bot.leaveAndReturn(away);
                case 1 -> bot.dropAndReturn(away);
                case 2 -> bot.changeNick(n);
                case 3 -> bot.changeStatus(n % 2 == 0);
                default -> bot.changeRequirements(relaxedRequirements(n));
            }
        });
    }

    /** Every bot back in its room (none mid-rejoin); how many are not. */
    private long awaitBotsBack() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        long notBack = 0;
        for (List<SoakBot> bots : byRoom.values()) {
            for (SoakBot b : bots) {
                while (!b.joined() && System.nanoTime() < deadline) {
                    Thread.sleep(200);
                }
                b.awaitIdle(Math.max(0, (deadline - System.nanoTime()) / 1_000_000));
                if (!b.joined()) {
                    notBack++;
                }
            }
        }
        return notBack;
    }

    /**
     * The drain (until every acknowledged message is at every bot, at most {@code drain} s), then the
     * late wait (while deliveries still come, 15 s at most without one, {@code lateWait} s in all):
     * {missing after the drain, missing after the late wait}.
     */
    private long[] drainAndWait() throws InterruptedException {
        long drainEnd = System.nanoTime() + (long) (drain * 1e9);
        while (System.nanoTime() < drainEnd && missing() > 0) {
            Thread.sleep(500);
        }
        long afterDrain = missing();
        long lateEnd = System.nanoTime() + (long) (lateWait * 1e9);
        long last = ledger.deliveries.get();
        long quietSince = System.nanoTime();
        while (missing() > 0 && System.nanoTime() < lateEnd && System.nanoTime() - quietSince < 15_000_000_000L) {
            Thread.sleep(500);
            if (ledger.deliveries.get() != last) {
                last = ledger.deliveries.get();
                quietSince = System.nanoTime();
            }
        }
        return new long[] {afterDrain, missing()};
    }

    /** (bot, acknowledged message) pairs not at the bot, live, retained or caught up. */
    private long missing() {
        long missing = 0;
        for (String key : ledger.acks.acknowledged.keySet()) {
            String[] rs = key.split(":");
            int seq = Integer.parseInt(rs[1]);
            for (SoakBot b : byRoom.get(Integer.parseInt(rs[0]))) {
                if (!b.has(seq)) {
                    missing++;
                }
            }
        }
        return missing;
    }

    /** The nicks of room {@code r}'s bots that are in it now. */
    private Set<String> occupants(int r) {
        Set<String> nicks = new java.util.TreeSet<>();
        for (SoakBot b : byRoom.get(r)) {
            if (b.joined()) {
                nicks.add(b.nick);
            }
        }
        return nicks;
    }

    /** One minute's line and row: traffic, what is missing, and each process's figures. */
    private synchronized void minute(int minute, InstancesBehindEjabberd<ComponentProcess> cluster, PrintStream console) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("minute", minute);
        row.put("sent", ledger.sentAt.size());
        row.put("acknowledged", ledger.acks.acknowledged.size());
        row.put("bounced", ledger.acks.bounced.size());
        row.put("deliveries", ledger.deliveries.get());
        double[] p99 = ledger.takeMinute();
        row.put("at_once_p99_ms", Double.isNaN(p99[0]) ? null : p99[0]);
        row.put("missing_now", missing());
        row.put("bots_in_rooms", byRoom.values().stream().flatMap(List::stream).filter(SoakBot::joined).count());
        row.put("unhandled_exceptions", unhandledExceptions(cluster));
        Map<String, Object> perInstance = new TreeMap<>();
        for (Map.Entry<String, ComponentProcess> i : cluster.instances().entrySet()) {
            ComponentProcess p = i.getValue();
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("pid", p.pid());
            long live = p.liveHeap();
            one.put("live_heap_mb", live < 0 ? null : live / 1e6);
            one.put("rss_mb", ProcSampler.rssBytes(p.pid()) / 1e6);
            one.put("fds", openFiles(p.pid()));
            one.put("threads", ProcSampler.threads(p.pid()));
            if (minute - firstMinuteOfProcess.computeIfAbsent(p.pid(), pid -> minute) >= SoakSummary.warmUpMinutes((int) minutes)) {
                nativeMemory.baseline(p.pid());
            }
            perInstance.put(i.getKey(), one);
        }
        row.put("instances", perInstance);
        row.put("ejabberd_rss_mb", treeRss(cluster.server().pid()) / 1e6);
        Map<String, Object> highWater = highWater();
        if (highWater != null) {
            row.put("high_water", highWater);
        }
        minuteRows.add(row);
        try {
            Files.writeString(out.resolve("minutes.jsonl"), Json.write(row).replace("\n", "") + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            console.println("soak: minutes.jsonl: " + e);
        }
        StringBuilder line = new StringBuilder(String.format(java.util.Locale.ROOT,
                "soak: minute %d: sent %d, acked %d, delivered %d, missing %s, p99 %s ms, exceptions %s, ejabberd %.0f MB;",
                minute, row.get("sent"), row.get("acknowledged"), row.get("deliveries"), row.get("missing_now"),
                row.get("at_once_p99_ms") == null ? "-" : String.format(java.util.Locale.ROOT, "%.0f", p99[0]),
                row.get("unhandled_exceptions"), (Double) row.get("ejabberd_rss_mb")));
        perInstance.forEach((name, v) -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> one = (Map<String, Object>) v;
            line.append(String.format(java.util.Locale.ROOT, " %s heap %s MB rss %.0f MB fds %s threads %s;", name,
                    one.get("live_heap_mb") == null ? "-" : String.format(java.util.Locale.ROOT, "%.1f", (Double) one.get("live_heap_mb")),
                    (Double) one.get("rss_mb"), one.get("fds"), one.get("threads")));
        });
        if (highWater != null) {
            line.append(" high water (any instance): mailbox ").append(highWater.get("mailbox_pending_stanzas"))
                    .append(", outgoing ").append(highWater.get("outgoing_queue_stanzas"))
                    .append(", store writes ").append(highWater.get("store_queue_writes"))
                    .append(", held ").append(highWater.get("store_held_stanzas"));
        }
        console.println(line);
    }

    /** The last minute's highest value of each of {@link #QUEUES} on any instance (null without Prometheus). */
    private Map<String, Object> highWater() {
        SoakPrometheus p = scraper;
        if (p == null) {
            return null;
        }
        Map<String, Object> marks = new LinkedHashMap<>();
        for (String queue : QUEUES) {
            double v;
            try {
                v = p.query("max(max_over_time(" + queue + "[1m]))");
            } catch (IOException e) {
                v = Double.NaN;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return marks;
            }
            marks.put(queue.substring("reconmuc_".length()), Double.isNaN(v) ? null : v);
        }
        return marks;
    }

    static long openFiles(long pid) {
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.count();
        } catch (IOException e) {
            return -1;
        }
    }

    /** RSS of a process and its descendants (ejabberd's start script and its Erlang VM). */
    static long treeRss(long pid) {
        long rss = Math.max(0, ProcSampler.rssBytes(pid));
        for (ProcessHandle child : ProcessHandle.of(pid).map(h -> h.descendants().toList()).orElse(List.of())) {
            rss += Math.max(0, ProcSampler.rssBytes(child.pid()));
        }
        return rss;
    }

    /** ERROR lines (and the JVM's uncaught exceptions) followed by a stack trace, in every instance's log. */
    static long unhandledExceptions(InstancesBehindEjabberd<ComponentProcess> cluster) {
        long n = 0;
        for (String name : List.of("i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9")) {
            Path log = cluster.log(name);
            if (!Files.exists(log)) {
                continue;
            }
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = ERROR_LINE.matcher(lines.get(i));
                    if (m.find() && withTrace(lines, i + 1)) {
                        n++;
                    }
                }
            } catch (IOException e) {
                n++;
            }
        }
        return n;
    }

    private static boolean withTrace(List<String> lines, int from) {
        for (int i = from; i < Math.min(lines.size(), from + 3); i++) {
            if (lines.get(i).startsWith("\tat ")) {
                return true;
            }
        }
        return false;
    }

    private Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("minutes", minutes);
        p.put("rooms", rooms);
        p.put("speakers_per_room", speakers);
        p.put("listeners_per_room", listeners);
        p.put("relaxed_listeners_per_room", relaxedListeners);
        p.put("big_room_listeners", bigRoom);
        p.put("big_room_relaxed_listeners", bigRoomRelaxed());
        p.put("instances", instances);
        p.put("connections_per_instance", connections);
        p.put("rate_per_room", rate);
        p.put("kill_every_minutes", killEveryMinutes);
        p.put("churn_every_seconds", churnSeconds);
        p.put("room_churn_every_seconds", roomChurnSeconds);
        p.put("hostile", hostile);
        return p;
    }

    /** The service's public rooms (disco#items) other than the soak's: a room left in memory, named. */
    private List<String> roomsListedBesides(ServiceDiscoveryManager disco, String domain) throws Exception {
        Set<String> soakRooms = new java.util.HashSet<>();
        for (int r = 0; r < allRooms(); r++) {
            soakRooms.add(SoakLedger.roomName(r) + "@" + domain);
        }
        List<String> others = new ArrayList<>();
        for (DiscoverItems.Item item : disco.discoverItems(JidCreate.from(domain)).getItems()) {
            if (!soakRooms.contains(item.getEntityID().toString())) {
                others.add(item.getEntityID().toString());
            }
        }
        return others;
    }

    /**
     * For {@link SoakSummary#ghosts}: the room's occupants by disco#items (XEP-0045 §6.5), page after
     * page (XEP-0059: the service lists a big room's occupants a page at a time, each page after the
     * last nick of the one before) until a page brings no one new.
     */
    static List<String> listedNicks(XMPPTCPConnection connection, String roomJid) throws Exception {
        List<String> nicks = new ArrayList<>();
        String after = null;
        while (true) {
            DiscoverItems ask = new DiscoverItems();
            ask.setTo(JidCreate.from(roomJid));
            if (after != null) {
                ask.addExtension(RSMSet.newAfter(after));
            }
            DiscoverItems page = connection.sendIqRequestAndWaitForResponse(ask);
            List<String> onPage = new ArrayList<>();
            for (DiscoverItems.Item item : page.getItems()) {
                String jid = item.getEntityID().toString();
                onPage.add(jid.substring(jid.indexOf('/') + 1));
            }
            if (onPage.isEmpty() || nicks.contains(onPage.get(0))) {   // the end, or a page that did not move on
                return nicks;
            }
            nicks.addAll(onPage);
            after = onPage.get(onPage.size() - 1);
        }
    }
}
