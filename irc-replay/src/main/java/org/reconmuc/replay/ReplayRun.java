package org.reconmuc.replay;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.IQ;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.MessageBuilder;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.muc.packet.MUCInitialPresence;
import org.jivesoftware.smackx.muc.packet.MUCUser;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.EntityFullJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.component.ReconMuc;
import org.reconmuc.component.config.ConfigLoader;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.replay.meter.BotMeter;
import org.reconmuc.replay.meter.BotSocketMeter;
import org.reconmuc.replay.meter.Histogram;
import org.reconmuc.replay.meter.Series;
import org.reconmuc.replay.meter.Series.Metric;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.ServerOptions;
import org.reconmuc.servers.ServerPlacement;
import org.reconmuc.servers.VethLink;
import org.reconmuc.servers.XmppServers;

/**
 * One scenario, end to end: start the server (and the component), log the bots in, join them at
 * the join rate, state requirements (relaxed), replay the schedule, wait until every bot has
 * every message (or the drain bound), and stop everything. Every phase is bounded.
 */
final class ReplayRun {
    static final int MAX_SECONDS = 4 * 3600;
    private static final long JOIN_TIMEOUT_MS = 120_000;
    /** When the first join left, and the server's and the component's CPU seconds then (the fill's start). */
    private long fillStart;
    private double fillServerCpu0;
    private double fillComponentCpu0;
    private static final long PARENT_ID_WAIT_NANOS = 3_000_000_000L;

    private final Scenario scenario;
    private final Workload workload;
    private final ReplayOptions o;
    private final int historySize;
    private final PrintStream log;
    private final Status status;
    final Series series = new Series(MAX_SECONDS);
    final RunState run;
    final List<Bot> bots = new ArrayList<>();
    final Histogram lag = new Histogram();
    /** How long replies waited for their parent to come back from the room (not schedule lag). */
    final Histogram replyWait = new Histogram();
    final AtomicLongArray lagMaxMicrosPerSecond = new AtomicLongArray(MAX_SECONDS);
    final List<ProcSampler.Sample> samples = new ArrayList<>();
    final Map<String, Object> facts = new LinkedHashMap<>();
    final BitSet sentBits = new BitSet();
    private final String[] sentIds;
    int topicSwitches;
    int repliesSent;
    int repliesDeferred;
    int repliesUnlinked;
    int sendErrors;
    int compressedBots;
    long measuredNanos;
    double serverCpuSeconds;
    double componentCpuSeconds = Double.NaN;
    double harnessCpuSeconds;

    private XmppServer server;
    /** The real link to the server's namespace ({@code --link veth}), else null. */
    private VethLink link;
    /** Per link (one per world, in the order of the options' worlds): counters at the start, at the last sample. */
    private VethLink.Counters[] linkAtStart;
    private VethLink.Counters[] linkLastSample;
    /** Per link: its counters over the measurement, once it ended. */
    VethLink.Counters[] linkMeasured;
    private ComponentProcess componentProcess;
    /** The component's heap after full collections at the end of the scenario (bytes), or -1. */
    long componentLiveHeapBytes = -1;
    long componentLiveHeapAtStartBytes = -1;
    /** Over the measurement, from the component to the server: bytes, and the multicast stanzas and the copies they stood for (-1: not measured). */
    long linkBytes = -1;
    long linkMulticastStanzas = -1;
    long linkMulticastCopies = -1;
    private ReconMuc componentInProcess;
    private EntityBareJid room;

    ReplayRun(Scenario scenario, Workload workload, ReplayOptions o, int historySize, PrintStream log, Status status) {
        this.scenario = scenario;
        this.workload = workload;
        this.o = o;
        this.historySize = historySize;
        this.log = log;
        this.status = status;
        this.run = new RunState(workload.messages(), series, o.worlds);
        this.sentIds = new String[workload.messages().size()];
    }

    Workload workload() {
        return workload;
    }

    Scenario scenario() {
        return scenario;
    }

    /** Runs the scenario; everything it started is stopped when it returns or throws. */
    void execute() throws Exception {
        Path runDir = o.runDir.resolve(scenario.label()).toAbsolutePath();
        Files.createDirectories(runDir.getParent());
        try {
            status.phase(scenario.label() + ": starting " + o.server);
            if (o.link.equals("veth")) {
                link = VethLink.create(o.worlds.size());
                facts.put("link", link.toString());
            }
            server = XmppServers.start(o.server, runDir, new ServerOptions(placement(),
                    scenario.kind() == Scenario.Kind.STANDARD_MAM));
            facts.put("server_pid", server.pid());
            String domain;
            if (scenario.usesComponent()) {
                domain = server.componentDomain();
                startComponent(runDir);
            } else {
                domain = server.nativeMucDomain();
            }
            room = JidCreate.entityBareFrom("replay@" + domain);
            facts.put("room", room.toString());
            loginAndJoin();
            if (scenario.relaxed()) {
                stateRequirements();
            } else {
                for (Bot b : bots) {
                    b.topic = b.spec.firstChannel();
                }
            }
            settle();
            replay();
        } finally {
            stopAll();
        }
    }

    private ServerPlacement placement() {
        return link == null ? ServerPlacement.LOOPBACK : link.placement();
    }

    boolean realLink() {
        return link != null;
    }

    /** Adds what each link counted since the last sample to this second of its world's series and the run's. */
    private void sampleLinks(int second) {
        if (link == null) {
            return;
        }
        try {
            for (int i = 0; i < o.worlds.size(); i++) {
                VethLink.Counters now = link.counters(i);
                VethLink.Counters d = now.minus(linkLastSample[i]);
                linkLastSample[i] = now;
                for (Series target : List.of(series, run.byWorld.get(o.worlds.get(i)).series)) {
                    target.add(Metric.WIRE_REAL_BYTES, second, d.rxIpBytes());
                    target.add(Metric.WIRE_REAL_PACKETS, second, d.rxPackets());
                    target.add(Metric.WIRE_REAL_UP_BYTES, second, d.txIpBytes());
                    target.add(Metric.WIRE_REAL_UP_PACKETS, second, d.txPackets());
                }
            }
        } catch (java.io.IOException e) {
            log.println("[replay] cannot read the link's counters: " + e.getMessage());
        }
    }

    private VethLink.Counters[] linkCounters() throws java.io.IOException {
        VethLink.Counters[] c = new VethLink.Counters[link.links()];
        for (int i = 0; i < c.length; i++) {
            c[i] = link.counters(i);
        }
        return c;
    }

    private void startComponent(Path runDir) throws Exception {
        status.phase(scenario.label() + ": starting the component (" + o.componentMode + ", history " + historySize + ")");
        if (o.componentMode.equals("process")) {
            componentProcess = ComponentProcess.start(server, placement(), historySize, o.componentHeap,
                    extraComponentArgs(runDir), runDir.resolve("component.log"));
            facts.put("component_pid", componentProcess.pid());
        } else {
            List<String> args = new ArrayList<>(ComponentProcess.args(server, historySize));
            args.addAll(extraComponentArgs(runDir));
            ServiceConfig config = ConfigLoader.load(args.toArray(new String[0]), ComponentProcess.environment(server));
            componentInProcess = ReconMuc.start(config);
            if (!componentInProcess.awaitConnected(Duration.ofSeconds(30))) {
                throw new IllegalStateException("the component did not attach within 30 s");
            }
        }
    }

    /** The component's flags beyond the replay's own: its store, and whatever --component-option gave. */
    private List<String> extraComponentArgs(Path runDir) throws java.io.IOException {
        List<String> args = new ArrayList<>(ComponentProcess.storeArgs(o.componentStore, runDir));
        args.addAll(o.componentOptions);
        return args;
    }

    // ---- logins and joins ---------------------------------------------------------------------

    private void loginAndJoin() throws Exception {
        long self = ProcessHandle.current().pid();
        System.gc();
        Thread.sleep(300);
        long heapBefore = usedHeap();
        long rssBefore = ProcSampler.rssBytes(self);
        int threadsBefore = ProcSampler.threads(self);

        status.phase(scenario.label() + ": logging in " + workload.bots().size() + " bots");
        for (Workload.BotSpec spec : workload.bots()) {
            World world = World.of(spec.index(), o.worlds);
            bots.add(new Bot(spec, world, new BotMeter(series, run.byWorld.get(world).series, 6, o.perBotSeries), run));
        }
        ExecutorService pool = Executors.newFixedThreadPool(o.loginThreads);
        try {
            AtomicInteger done = new AtomicInteger();
            List<Future<?>> logins = new ArrayList<>();
            for (Bot b : bots) {
                logins.add(pool.submit(() -> {
                    login(b);
                    status.progress(done.incrementAndGet(), bots.size());
                    return null;
                }));
            }
            for (Future<?> f : logins) {
                f.get(120, TimeUnit.SECONDS);
            }
            for (Bot b : bots) {
                if (b.meter.compressedStream()) {
                    compressedBots++;
                }
            }
            status.phase(scenario.label() + ": joining " + room + " at " + o.joinRate + "/s");
            fillStart = System.nanoTime();
            fillServerCpu0 = ProcSampler.cpuSeconds(server.pid());
            fillComponentCpu0 = componentPid() > 0 ? ProcSampler.cpuSeconds(componentPid()) : Double.NaN;
            join(bots.get(0), true);
            AtomicInteger joined = new AtomicInteger(1);
            List<Future<?>> joins = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 1; i < bots.size(); i++) {
                long due = start + (long) (i / o.joinRate * 1e9);
                sleepUntil(due);
                Bot b = bots.get(i);
                joins.add(pool.submit(() -> {
                    join(b, false);
                    status.progress(joined.incrementAndGet(), bots.size());
                    return null;
                }));
            }
            for (Future<?> f : joins) {
                f.get(JOIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        System.gc();
        Thread.sleep(300);
        long heapAfter = usedHeap();
        long rssAfter = ProcSampler.rssBytes(self);
        int threadsAfter = ProcSampler.threads(self);
        facts.put("bots_heap_bytes_per_connection", (heapAfter - heapBefore) / bots.size());
        facts.put("bots_rss_bytes_per_connection", (rssAfter - rssBefore) / bots.size());
        facts.put("bots_threads_per_connection", (double) (threadsAfter - threadsBefore) / bots.size());
        facts.put("bots_compressed_xep0138", compressedBots);
    }

    private void login(Bot b) throws Exception {
        XMPPTCPConnectionConfiguration.Builder builder = server.clientConfig("bot" + b.spec.index());
        if (link != null) {
            // Each world's bots cross a link of their own, so the kernel counts them apart.
            builder.setHostAddress(java.net.InetAddress.getByName(link.serverAddress(o.worlds.indexOf(b.world))));
        }
        builder.setSocketFactory(BotSocketMeter.socketFactory(b.meter))
                .setCompressionEnabled(b.world.streamCompression)
                .setSendPresence(false);
        XMPPTCPConnection c = new XMPPTCPConnection(builder.build());
        c.setReplyTimeout(60_000);
        c.createStanzaCollector(StanzaCollector.newConfiguration().setStanzaFilter(b).setSize(1));
        b.connection = c;
        c.connect().login();
    }

    private void join(Bot b, boolean first) throws Exception {
        XMPPTCPConnection c = b.connection;
        EntityFullJid occupant = JidCreate.entityFullFrom(room, Resourcepart.from(b.nick()));
        StanzaCollector self = c.createStanzaCollector(new AndFilter(StanzaTypeFilter.PRESENCE,
                FromMatchesFilter.createFull(occupant)));
        try {
            var joinBuilder = c.getStanzaFactory().buildPresenceStanza().to(occupant)
                    .addExtension(new MUCInitialPresence(null, -1, 0, -1, null));
            if (scenario.usesComponent() && o.presenceLevel != null) {
                joinBuilder.addExtension(StandardExtensionElement.builder("presences", "urn:reconmuc:0")
                        .addAttribute("level", o.presenceLevel).build());
            }
            Presence join = joinBuilder.build();
            c.sendStanza(join);
            Presence p = self.nextResult(JOIN_TIMEOUT_MS);
            if (p == null) {
                throw new IllegalStateException(b.nick() + " got no self-presence from " + room);
            }
            if (p.getType() == Presence.Type.error) {
                throw new IllegalStateException(b.nick() + " could not join " + room + ": " + p.getError());
            }
            MUCUser user = MUCUser.from(p);
            if (first && user != null && user.getStatus().contains(MUCUser.Status.ROOM_CREATED_201)) {
                // Unlocks the room (XEP-0045 §10.1). Openfire's own MUC would cap it at 30 occupants, ejabberd's at
                // the template's 1,000.
                String maxUsers = scenario.usesComponent() ? null
                        : server.kind().equals("openfire") ? "0" : o.bots > 1000 ? "5000" : null;
                // Logging is the component's room option: ejabberd offers the field only with mod_muc_log.
                List<String> broadcast = !scenario.usesComponent() && o.ownMucPresenceBroadcast != null
                        ? o.ownMucPresenceBroadcast : o.presenceBroadcast;
                InstantRoomIq form = InstantRoomIq.with(maxUsers, broadcast,
                        scenario.usesComponent() ? o.roomLogging : null);
                form.setTo(room);
                c.createStanzaCollectorAndSend(form).nextResultOrThrow(30_000);
            }
        } finally {
            self.cancel();
        }
    }

    private void stateRequirements() throws Exception {
        status.phase(scenario.label() + ": stating requirements (volume " + (scenario.fixedVolume() ? scenario.volume()
                : "1.." + 2 * scenario.volume()) + ", time "
                + scenario.timeSeconds() + " s, " + scenario.aggregation() + ")");
        Random random = new Random(o.seed);
        List<String> channels = new ArrayList<>(workload.perChannel().keySet());
        int totalMsgs = workload.messages().size();
        List<StanzaCollector> pending = new ArrayList<>();
        for (Bot b : bots) {
            String topic = b.spec.firstChannel();
            if (topic == null) {
                // A listener follows a channel picked with probability proportional to its messages.
                int r = random.nextInt(Math.max(1, totalMsgs));
                for (String ch : channels) {
                    r -= workload.perChannel().get(ch);
                    if (r < 0) {
                        topic = ch;
                        break;
                    }
                }
                if (topic == null) {
                    topic = channels.get(0);
                }
            }
            b.topic = topic;
            int drawn = 1 + random.nextInt(2 * scenario.volume());   // drawn either way: same topics in every scenario
            b.volume = scenario.fixedVolume() ? scenario.volume() : drawn;
            RequirementsIq iq = RequirementsIq.initial(topic, scenario.timeSeconds(), b.volume,
                    scenario.aggregationFor(b.world));
            iq.setTo(room);
            pending.add(b.connection.createStanzaCollectorAndSend(iq));
        }
        int i = 0;
        for (StanzaCollector c : pending) {
            IQ result = c.nextResultOrThrow(60_000);
            if (result.getType() != IQ.Type.result) {
                throw new IllegalStateException("requirements refused: " + result.toXML());
            }
            status.progress(++i, pending.size());
        }
    }

    /** Waits (at most 60 s) until the joins' presence storm is over: no presence for 2 s. */
    private void settle() throws InterruptedException {
        status.phase(scenario.label() + ": waiting for the join presences to settle");
        long last = -1;
        int quiet = 0;
        long end = System.nanoTime() + 60_000_000_000L;
        long lastChange = System.nanoTime();
        while (quiet < 4 && System.nanoTime() < end) {
            Thread.sleep(500);
            long now = run.presencesReceived.get();
            quiet = now == last ? quiet + 1 : 0;
            if (now != last) {
                lastChange = System.nanoTime();
            }
            last = now;
        }
        facts.put("presences_received_in_joins", last);
        // The fill: from the first join until the last presence it caused (requirements IQs included, relaxed).
        facts.put("fill_seconds", (lastChange - fillStart) / 1e9);
        facts.put("fill_server_cpu_seconds", ProcSampler.cpuSeconds(server.pid()) - fillServerCpu0);
        if (componentPid() > 0) {
            facts.put("fill_component_cpu_seconds", ProcSampler.cpuSeconds(componentPid()) - fillComponentCpu0);
        }
    }

    // ---- the replay -------------------------------------------------------------------------------

    private record Deferred(Workload.Msg msg, long due) {
    }

    private void replay() throws Exception {
        List<Workload.Msg> msgs = workload.messages();
        long self = ProcessHandle.current().pid();
        // Everyone is in, nothing sent yet: what the service holds before the first message, the
        // baseline of the live heap at the end. ("Heap after GC" during the window is after young
        // collections only and still counts whatever garbage gets tenured meanwhile.)
        componentLiveHeapAtStartBytes = componentProcess != null ? componentProcess.liveHeap() : -1;
        Sampler sampler = new Sampler(self);
        if (link != null) {
            linkAtStart = linkCounters();
            linkLastSample = linkAtStart.clone();
        }
        long start = System.nanoTime();
        series.start(start);
        run.measuring = true;
        sampler.start();
        double cpu0Server = ProcSampler.cpuSeconds(server.pid());
        double cpu0Component = componentPid() > 0 ? ProcSampler.cpuSeconds(componentPid()) : Double.NaN;
        double cpu0Harness = ProcSampler.cpuSeconds(self);
        long[] link0 = componentProcess == null ? null
                : new long[] {componentProcess.linkBytes, componentProcess.multicastStanzas, componentProcess.multicastCopies};
        long deadline = start + (long) (o.durationSeconds * 1e9);
        status.phase(scenario.label() + ": replaying " + msgs.size() + " messages");
        Visitors visitors = o.visitorsEverySeconds > 0 ? Visitors.start(server, room, o.visitorsEverySeconds, deadline) : null;
        List<Deferred> deferred = new ArrayList<>();
        int sentCount = 0;
        for (Workload.Msg m : msgs) {
            long due = start + m.offsetNanos();
            if (due > deadline) {
                break;
            }
            while (true) {
                long now = System.nanoTime();
                sentCount += sendDeferred(deferred, now);
                if (now >= due) {
                    break;
                }
                long wait = Math.min(due - now, 5_000_000L);
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            if (needsParent(m)) {
                deferred.add(new Deferred(m, due));
                repliesDeferred++;
                // Schedule lag of a reply that waits is how late the harness came to it, not the wait.
                recordLag(System.nanoTime(), due);
            } else {
                send(m, due, true);
                sentCount++;
            }
            status.sending(sentCount, msgs.size(), lag, series);
        }
        long waitEnd = System.nanoTime() + 2 * PARENT_ID_WAIT_NANOS;
        while (!deferred.isEmpty() && System.nanoTime() < waitEnd) {
            sentCount += sendDeferred(deferred, System.nanoTime());
            Thread.sleep(5);
        }
        if (visitors != null) {
            visitors.close();
            facts.put("visitor_entries", visitors.entries());
        }
        // Drain: until every bot has every message, or the bound. What arrives after it is late, not
        // lost: the harness waits on (bounded by --late-wait) while deliveries still come.
        double drain = o.drainSeconds >= 0 ? o.drainSeconds
                : scenario.relaxed() ? scenario.timeSeconds() + 15 : 15;
        DrainWait wait = new DrainWait(System.nanoTime(), (long) (drain * 1e9), (long) (o.lateWaitSeconds * 1e9),
                missingTotal());
        long drainEnd = wait.drainEnd();
        run.cutoffNanos = drainEnd;
        status.phase(scenario.label() + ": draining (up to " + (int) drain + " s, then while messages still arrive, up to "
                + (int) o.lateWaitSeconds + " s more)");
        while (!wait.over(System.nanoTime(), lastRetainedDue())) {
            Thread.sleep(250);
            long missing = missingTotal();
            wait.missing(System.nanoTime(), missing);
            status.draining(missing);
        }
        facts.put("late_wait_seconds", Math.max(0, System.nanoTime() - drainEnd) / 1e9);
        long end = System.nanoTime();
        measuredNanos = end - start;
        sampler.stopAndJoin();
        if (link != null) {
            sampleLinks(series.second(end));
            linkMeasured = new VethLink.Counters[linkAtStart.length];
            for (int i = 0; i < linkMeasured.length; i++) {
                linkMeasured[i] = linkLastSample[i].minus(linkAtStart[i]);
            }
        }
        series.stop();
        run.measuring = false;
        serverCpuSeconds = ProcSampler.cpuSeconds(server.pid()) - cpu0Server;
        if (componentPid() > 0) {
            componentCpuSeconds = ProcSampler.cpuSeconds(componentPid()) - cpu0Component;
        }
        harnessCpuSeconds = ProcSampler.cpuSeconds(self) - cpu0Harness;
        if (link0 != null) {
            Thread.sleep(1100);   // the component reports its link counters every second
            linkBytes = componentProcess.linkBytes - link0[0];
            linkMulticastStanzas = componentProcess.multicastStanzas - link0[1];
            linkMulticastCopies = componentProcess.multicastCopies - link0[2];
        }
        facts.put("missing_at_end", missingTotal());
        // Everyone is still in and everything delivered: what the service holds for them.
        componentLiveHeapBytes = componentProcess != null ? componentProcess.liveHeap() : -1;
    }

    /**
     * A reply goes out only once its parent has come back from the room (some bot received it,
     * and with the component its stanza-id is known): people answer what they have read, and a
     * reply racing its parent through two connections is the harness's doing, not the service's.
     */
    private boolean needsParent(Workload.Msg m) {
        if (m.parent() < 0) {
            return false;
        }
        return !run.seen(m.parent()) || (scenario.roomStampsStanzaIds() && run.stanzaIds.get(m.parent()) == null);
    }

    private int sendDeferred(List<Deferred> deferred, long now) {
        int n = 0;
        for (Iterator<Deferred> it = deferred.iterator(); it.hasNext();) {
            Deferred d = it.next();
            boolean known = !needsParent(d.msg());
            if (known || now - d.due() > PARENT_ID_WAIT_NANOS) {
                if (!known) {
                    repliesUnlinked++;
                }
                replyWait.record((now - d.due()) / 1e6);
                send(d.msg(), d.due(), false);
                it.remove();
                n++;
            }
        }
        return n;
    }

    private void recordLag(long now, long due) {
        double lagMs = (now - due) / 1e6;
        lag.record(lagMs);
        int s = series.second(now);
        if (s >= 0) {
            lagMaxMicrosPerSecond.accumulateAndGet(s, (long) (lagMs * 1000), Math::max);
        }
    }

    private void send(Workload.Msg m, long due, boolean onSchedule) {
        Bot b = bots.get(m.bot());
        XMPPTCPConnection c = b.connection;
        try {
            if (scenario.relaxed() && !m.channel().equals(b.topic)) {
                RequirementsIq iq = RequirementsIq.switchTopic(b.topic, m.channel());
                iq.setTo(room);
                c.sendStanza(iq);
                b.topic = m.channel();
                topicSwitches++;
            } else if (!scenario.relaxed()) {
                b.topic = m.channel();
            }
            long now = System.nanoTime();
            String id = MessageIds.make(m.seq(), (now - series.startNanos()) / 1000);
            MessageBuilder mb = c.getStanzaFactory().buildMessageStanza().to(room).ofType(Message.Type.groupchat)
                    .setBody(m.body())
                    .addExtension(StandardExtensionElement.builder("topic", RequirementsIq.NS).setText(m.channel()).build());
            if (m.parent() >= 0 && run.seen(m.parent())) {
                String parentId = scenario.roomStampsStanzaIds() ? run.stanzaIds.get(m.parent()) : sentIds[m.parent()];
                if (parentId != null) {
                    mb.addExtension(StandardExtensionElement.builder("reply", "urn:xmpp:reply:0")
                            .addAttribute("to", room + "/" + bots.get(run.author[m.parent()]).nick())
                            .addAttribute("id", parentId).build());
                    repliesSent++;
                    run.linked.set(m.seq(), 1);
                }
            }
            sentIds[m.seq()] = id;
            run.sent.set(m.seq(), 1);
            sentBits.set(m.seq());
            Message stanza = mb.build();
            stanza.setStanzaId(id);
            c.sendStanza(stanza);
            int s = series.second(now);
            series.add(Metric.SENT, s, 1);
            if (onSchedule) {
                recordLag(now, due);
            }
        } catch (Exception e) {
            sendErrors++;
        }
    }

    /** The id the harness gave message {@code seq} when it sent it, or null. */
    String sentIdOf(int seq) {
        return seq >= 0 && seq < sentIds.length ? sentIds[seq] : null;
    }

    /** When the room's last retained copy is due: a time bound after the last message reached a bot. */
    private long lastRetainedDue() {
        if (!scenario.relaxed()) {
            return Long.MIN_VALUE;
        }
        long lastSeen = Long.MIN_VALUE;
        for (int seq = 0; seq < run.firstSeenNanos.length(); seq++) {
            long seen = run.firstSeenNanos.get(seq);
            if (seen != 0) {
                lastSeen = Math.max(lastSeen, seen);
            }
        }
        return lastSeen == Long.MIN_VALUE ? lastSeen : lastSeen + (long) (scenario.timeSeconds() * 1e9);
    }

    private long missingTotal() {
        long missing = 0;
        for (Bot b : bots) {
            missing += b.missing(sentBits);
        }
        return missing;
    }

    long componentPid() {
        return componentProcess != null ? componentProcess.pid() : -1;
    }

    private static long usedHeap() {
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    private static void sleepUntil(long due) throws InterruptedException {
        long wait;
        while ((wait = due - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(Math.min(wait, 50_000_000L));
        }
    }

    /** /proc samples of the server, the component and the harness, once a second. */
    private final class Sampler extends Thread {
        private final long self;
        private volatile boolean stop;

        Sampler(long self) {
            super("proc-sampler");
            setDaemon(true);
            this.self = self;
        }

        @Override
        public void run() {
            int second = 0;
            while (!stop) {
                long due = series.startNanos() + (second + 1) * 1_000_000_000L;
                try {
                    sleepUntil(due);
                } catch (InterruptedException e) {
                    return;
                }
                long cpid = componentPid();
                Runtime r = Runtime.getRuntime();
                ProcSampler.Sample s = new ProcSampler.Sample(second,
                        ProcSampler.cpuSeconds(server.pid()), ProcSampler.rssBytes(server.pid()),
                        cpid > 0 ? ProcSampler.cpuSeconds(cpid) : Double.NaN, cpid > 0 ? ProcSampler.rssBytes(cpid) : -1,
                        componentProcess != null ? componentProcess.heapUsed : -1,
                        componentProcess != null ? componentProcess.heapAfterGc : -1,
                        ProcSampler.cpuSeconds(self), ProcSampler.rssBytes(self), r.totalMemory() - r.freeMemory(),
                        ProcSampler.heapAfterLastGc());
                synchronized (samples) {
                    samples.add(s);
                }
                status.sample(s);
                sampleLinks(second);
                second++;
            }
        }

        void stopAndJoin() throws InterruptedException {
            stop = true;
            interrupt();
            join(5000);
        }
    }

    // ---- stop -------------------------------------------------------------------------------------

    private void stopAll() {
        status.phase(scenario.label() + ": stopping");
        ExecutorService closer = Executors.newFixedThreadPool(4);
        for (Bot b : bots) {
            closer.submit(() -> {
                XMPPTCPConnection c = b.connection;
                if (c != null) {
                    try {
                        c.instantShutdown();
                    } catch (RuntimeException ignored) {
                        // closing anyway
                    }
                }
                b.meter.close();
            });
        }
        closer.shutdown();
        try {
            closer.awaitTermination(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (componentProcess != null) {
            componentProcess.close();
        }
        if (componentInProcess != null) {
            componentInProcess.close();
        }
        if (server != null) {
            server.close();
        }
        if (link != null) {
            link.close();
        }
    }
}
