package org.reconmuc.replay.light;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.reconmuc.replay.MessageIds;
import org.reconmuc.replay.Workload;

/**
 * One process of light bots: a share of the room's bots ({@code --first}, {@code --count}) on one
 * thread and one {@link Selector}, driven by a coordinator ({@link ScaleCommand}) through lines on
 * standard input, and answering with lines on standard output:
 * <ul>
 * <li>{@code login}: every bot logs in (at most {@code --max-in-flight} at a time); then
 *     {@code done login ok=K failed=F}.</li>
 * <li>{@code create}: bot 0 joins first, and configures the room if it made it (a server's own MUC:
 *     no occupant limit, presences broadcast for moderators only); {@code done create}.</li>
 * <li>{@code join RATE}: the others join, RATE a second; {@code done join ok=K failed=F}.</li>
 * <li>{@code require}: the relaxed bots state their requirements; {@code done require ok=K failed=F}.</li>
 * <li>{@code start T0}: the measurement starts at T0 (System.nanoTime: CLOCK_MONOTONIC, shared by the
 *     processes of one machine); each of this process's speakers sends its lines at T0 + their offset,
 *     a reply once its parent has come back, and each is announced as {@code sent SEQ LINKED}; then
 *     {@code done send}.</li>
 * <li>{@code sent SEQ LINKED}: another process sent message SEQ (linked: with its XEP-0461 reply).</li>
 * <li>{@code cutoff NANOS}: deliveries after it are late. {@code status}: {@code status missing=M}.</li>
 * <li>{@code report}: the measures ({@link LightMeters}) as {@code report …} lines, then {@code done report}.</li>
 * <li>{@code quit}, the end of input, or {@code --max-seconds}: every socket closed, the process ends.</li>
 * </ul>
 */
public final class LightWorker {
    private static final long PARENT_WAIT_NANOS = 3_000_000_000L;

    final LightPlan plan;
    final LightMeters meters = new LightMeters();
    private final Workload workload;
    private final int first;
    private final List<LightSession> sessions = new ArrayList<>();
    private final int maxInFlight;
    private final PrintStream out;
    private final Selector selector;
    private final ConcurrentLinkedQueue<String> commands = new ConcurrentLinkedQueue<>();
    private final byte[] readBuffer = new byte[256 * 1024];
    private final InetSocketAddress[] endpoints;
    private final InetSocketAddress[] sources;
    private final int[] parents;
    private final int[] authors;
    private final String runTag;

    private final PriorityQueue<Timer> timers = new PriorityQueue<>((a, b) -> Long.compare(a.due, b.due));
    private record Timer(long due, Runnable task) {
    }

    // What every process of the run learns: sent, linked, and what this process's bots saw.
    private final BitSet sent = new BitSet();
    private final BitSet linked = new BitSet();
    private final String[] stanzaIds;
    private final String[] messageIds;
    private long t0;
    private volatile boolean measuring;
    private long cutoff = Long.MAX_VALUE;

    // The phase under way.
    private String phase = "";
    private final ArrayDeque<LightSession> queue = new ArrayDeque<>();
    private int inFlight;
    private int phaseOk;
    private int phaseFailed;
    private int phaseTotal;
    private long joinIntervalNanos;
    private long nextJoinAt;
    /** The join pacer's wake-up already set. */
    private long wakeAt;
    private final List<Workload.Msg> mine = new ArrayList<>();
    private int nextToSend;
    private final List<Workload.Msg> deferred = new ArrayList<>();
    private final Map<String, Integer> notes = new LinkedHashMap<>();
    private boolean quit;

    private LightWorker(LightPlan plan, Map<String, String> options, PrintStream out) throws IOException {
        this.plan = plan;
        this.out = out;
        this.workload = plan.workload();
        this.first = Integer.parseInt(options.getOrDefault("first", "0"));
        int count = Integer.parseInt(options.getOrDefault("count", Integer.toString(plan.bots())));
        this.maxInFlight = Integer.parseInt(options.getOrDefault("max-in-flight", "200"));
        this.runTag = options.getOrDefault("run-tag", Long.toString(System.currentTimeMillis() % 1_000_000, 36));
        this.selector = Selector.open();
        this.endpoints = plan.endpoints().stream().map(LightWorker::address).toArray(InetSocketAddress[]::new);
        this.sources = plan.sources().stream().map(s -> new InetSocketAddress(s, 0)).toArray(InetSocketAddress[]::new);
        int n = workload.messages().size();
        this.parents = new int[n];
        this.authors = new int[n];
        for (Workload.Msg m : workload.messages()) {
            parents[m.seq()] = m.parent();
            authors[m.seq()] = m.bot();
        }
        this.stanzaIds = new String[n];
        this.messageIds = new String[n];
        for (int i = first; i < first + count && i < plan.bots(); i++) {
            sessions.add(new LightSession(this, i, workload.bots().get(i).nick(), plan.relaxed(workload, i), parents));
        }
        for (Workload.Msg m : workload.messages()) {
            if (m.bot() >= first && m.bot() < first + count) {
                mine.add(m);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        LightPlan plan = LightPlan.parse(List.of(args), options);
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        LightWorker worker = new LightWorker(plan, options, out);
        long maxSeconds = Long.parseLong(options.getOrDefault("max-seconds", "10800"));
        Thread input = new Thread(() -> worker.readCommands(System.in), "commands");
        input.setDaemon(true);
        input.start();
        worker.run(System.nanoTime() + maxSeconds * 1_000_000_000L);
        System.exit(0);
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    private void readCommands(java.io.InputStream in) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                commands.add(line);
                selector.wakeup();
            }
        } catch (IOException ignored) {
            // the coordinator is gone: quit below
        }
        commands.add("quit");
        selector.wakeup();
    }

    /** Every sixty-fourth batch of this process is also read by the codec, to check the light reading of compact batches. */
    boolean checkWithCodec() {
        return batchesRead++ % 64 == 0;
    }

    private long batchesRead;

    boolean measuring() {
        return measuring;
    }

    /** The user a bot logs in as: unique per run, so two runs on one server never share a session. */
    String userOf(int index) {
        return "b" + runTag + "-" + index;
    }

    // ---- the loop ----------------------------------------------------------------------------

    private void run(long deadline) {
        while (!quit && System.nanoTime() < deadline) {
            long now = System.nanoTime();
            long wait = timers.isEmpty() ? 200 : Math.max(1, Math.min(200, (timers.peek().due - now) / 1_000_000));
            try {
                selector.select(wait);
            } catch (IOException e) {
                note("select: " + e);
            }
            for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext();) {
                SelectionKey k = it.next();
                it.remove();
                io(k);
            }
            String c;
            while ((c = commands.poll()) != null) {
                command(c);
            }
            now = System.nanoTime();
            while (!timers.isEmpty() && timers.peek().due <= now) {
                timers.poll().task.run();
            }
            pump();
        }
        for (LightSession s : sessions) {
            s.close();
        }
        flushNotes();
    }

    private void at(long due, Runnable task) {
        timers.add(new Timer(due, task));
    }

    private void io(SelectionKey k) {
        LightSession s = (LightSession) k.attachment();
        try {
            if (!k.isValid()) {
                return;
            }
            if (k.isConnectable()) {
                if (s.channel.finishConnect()) {
                    k.interestOps(SelectionKey.OP_READ);
                    s.connected();
                }
                return;
            }
            if (k.isWritable()) {
                s.writable();
            }
            if (k.isValid() && k.isReadable()) {
                read(s);
            }
        } catch (IOException | RuntimeException e) {
            s.fail(e.toString());
        }
    }

    private void read(LightSession s) throws IOException {
        byte[] buf = readBuffer;
        int kept = s.pending == null ? 0 : s.pending.length;
        if (kept > buf.length / 2) {
            buf = new byte[kept * 2 + 65536];
        }
        if (kept > 0) {
            System.arraycopy(s.pending, 0, buf, 0, kept);
        }
        int n = s.channel.read(ByteBuffer.wrap(buf, kept, buf.length - kept));
        if (n < 0) {
            s.fail("the server closed the connection");
            return;
        }
        if (n == 0) {
            return;
        }
        meters.count(measuring ? "bytes-received" : s.state.ordinal() < LightSession.State.READY.ordinal()
                ? "login-bytes-received" : "fill-bytes-received", n);
        int end = kept + n;
        long scan = StreamFrames.scan(buf, 0, end, s.streamOpen, s);
        int rest = StreamFrames.rest(scan);
        s.streamOpen = StreamFrames.open(scan);
        s.pending = rest < end && s.state != LightSession.State.FAILED ? Arrays.copyOfRange(buf, rest, end) : null;
    }

    // ---- commands ----------------------------------------------------------------------------

    private void command(String line) {
        String[] p = line.trim().split(" ");
        switch (p[0]) {
            case "login" -> startPhase("login", sessions);
            case "create" -> {
                LightSession creator = sessions.get(0);
                phase = "create";
                creator.join();
            }
            case "join" -> {
                List<LightSession> joining = sessions.stream()
                        .filter(s -> s.state == LightSession.State.READY).toList();
                joinIntervalNanos = (long) (1e9 / Double.parseDouble(p[1]));
                nextJoinAt = System.nanoTime();
                startPhase("join", joining);
            }
            case "require" -> startPhase("require", sessions.stream()
                    .filter(s -> s.relaxed && s.state == LightSession.State.JOINED).toList());
            case "start" -> start(Long.parseLong(p[1]));
            case "sent" -> {
                int seq = Integer.parseInt(p[1]);
                sent.set(seq);
                if (p.length > 2 && p[2].equals("1")) {
                    linked.set(seq);
                }
            }
            case "cutoff" -> cutoff = Long.parseLong(p[1]);
            case "status" -> out.println("status missing=" + missing() + " joined=" + joinedCount());
            case "report" -> report();
            case "quit" -> quit = true;
            default -> note("unknown command '" + line + "'");
        }
    }

    private void startPhase(String name, List<LightSession> members) {
        phase = name;
        queue.clear();
        queue.addAll(members);
        phaseTotal = members.size();
        phaseOk = 0;
        phaseFailed = 0;
        inFlight = 0;
        progressEvery();
        pump();
    }

    /** Starts what the phase may start now: logins and requirements up to the in-flight bound, joins at their rate too. */
    private void pump() {
        long now = System.nanoTime();
        while (!queue.isEmpty() && inFlight < maxInFlight) {
            if (phase.equals("join")) {
                if (now < nextJoinAt) {
                    if (wakeAt != nextJoinAt) {
                        wakeAt = nextJoinAt;
                        at(nextJoinAt, () -> { });
                    }
                    return;
                }
                nextJoinAt += joinIntervalNanos;
            }
            LightSession s = queue.poll();
            inFlight++;
            switch (phase) {
                case "login" -> connect(s);
                case "join" -> s.join();
                case "require" -> s.stateRequirements();
                default -> inFlight--;
            }
        }
        if (queue.isEmpty() && inFlight == 0 && !phase.isEmpty() && !phase.equals("create") && !phase.equals("send")) {
            out.println("done " + phase + " ok=" + phaseOk + " failed=" + phaseFailed);
            phase = "";
        }
    }

    private void progressEvery() {
        String current = phase;
        at(System.nanoTime() + 1_000_000_000L, () -> {
            if (phase.equals(current) && !phase.isEmpty()) {
                out.println("progress " + phase + " " + (phaseOk + phaseFailed) + "/" + phaseTotal);
                flushNotes();
                progressEvery();
            }
        });
    }

    private void connect(LightSession s) {
        s.phaseStart = System.nanoTime();
        try {
            SocketChannel ch = SocketChannel.open();
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.bind(sources[s.index % sources.length]);
            s.channel = ch;
            s.key = ch.register(selector, SelectionKey.OP_CONNECT, s);
            if (ch.connect(endpoints[s.index % endpoints.length])) {
                s.key.interestOps(SelectionKey.OP_READ);
                s.connected();
            }
        } catch (IOException e) {
            s.fail("connect: " + e.getMessage());
        }
    }

    // ---- what sessions report ----------------------------------------------------------------

    void loggedIn(LightSession s) {
        meters.login.record((System.nanoTime() - s.phaseStart) / 1e6);
        settle(true);
    }

    void joined(LightSession s, boolean created) {
        meters.join.record((System.nanoTime() - s.phaseStart) / 1e6);
        if (phase.equals("create")) {
            if (created) {
                configure(s);
            } else {
                out.println("done create");
                phase = "";
            }
            return;
        }
        settle(true);
    }

    /** The room's creator unlocks it (XEP-0045 §10.1.2) with what a big room needs of the server's own MUC. */
    private void configure(LightSession s) {
        String fields = !plan.ownMuc() ? "" : "<field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>"
                + "<field var='muc#roomconfig_maxusers'><value>" + Math.max(plan.bots(), 200) + "</value></field>"
                + "<field var='muc#roomconfig_presencebroadcast'><value>moderator</value></field>";
        s.send("<iq type='set' id='config' to='" + plan.room() + "'><query xmlns='http://jabber.org/protocol/muc#owner'>"
                + "<x xmlns='jabber:x:data' type='submit'>" + fields + "</x></query></iq>");
    }

    void configured(LightSession s, String error) {
        if (error != null) {
            out.println("failed create " + error.replace('\n', ' '));
        } else {
            out.println("done create");
        }
        phase = "";
    }

    void requirementsStated(LightSession s) {
        settle(true);
    }

    void failed(LightSession s, LightSession.State was, String why) {
        meters.count("failed-" + was.name().toLowerCase(java.util.Locale.ROOT), 1);
        note("bot " + s.index + " failed (" + was + "): " + why);
        if (phase.equals("create")) {
            out.println("failed create " + why.replace('\n', ' '));
            phase = "";
            return;
        }
        boolean inPhase = switch (phase) {
            case "login" -> was.ordinal() < LightSession.State.READY.ordinal();
            case "join" -> was == LightSession.State.JOINING;
            case "require" -> was == LightSession.State.JOINED && s.relaxed && !s.requirementsStated;
            default -> false;
        };
        if (inPhase) {
            settle(false);
        }
    }

    private void settle(boolean ok) {
        if (ok) {
            phaseOk++;
        } else {
            phaseFailed++;
        }
        inFlight--;
    }

    /** Message {@code seq} reached bot {@code s} (at once, or retained: {@code delayed}). */
    void delivered(LightSession s, int seq, long sentMicros, boolean delayed, String id, String stanzaId, long now) {
        if (seq < 0 || seq >= parents.length) {
            return;
        }
        if (messageIds[seq] == null) {
            messageIds[seq] = id;
        }
        if (stanzaId != null && stanzaIds[seq] == null) {
            stanzaIds[seq] = stanzaId;
        }
        if (!s.log.deliver(seq, linked.get(seq), now > cutoff)) {
            meters.count("duplicates", 1);
            return;
        }
        if (!measuring) {
            meters.count("before-start", 1);
            return;
        }
        double ms = ((now - t0) / 1000 - sentMicros) / 1000.0;
        meters.all.record(ms);
        meters.count("deliveries", 1);
        if (delayed) {
            meters.retained.record(ms);
            meters.count("retained-deliveries", 1);
        } else {
            meters.immediate.record(ms);
            if (seq < meters.immediateMaxByMessage.length) {
                meters.immediateMaxByMessage[seq] = Math.max(meters.immediateMaxByMessage[seq], (long) Math.ceil(ms));
            }
        }
        int parent = parents[seq];
        if (parent >= 0 && authors[parent] == s.index && authors[seq] != s.index) {
            meters.directReplies.record(ms);
        }
        int second = (int) ((now - t0) / 1_000_000_000L);
        if (second >= 0 && second < meters.deliveriesPerSecond.length) {
            meters.deliveriesPerSecond[second]++;
        }
    }

    // ---- the replay --------------------------------------------------------------------------

    private void start(long startNanos) {
        t0 = startNanos;
        measuring = true;
        phase = "send";
        nextToSend = 0;
        at(t0, this::sendDue);
    }

    private void sendDue() {
        long now = System.nanoTime();
        for (Iterator<Workload.Msg> it = deferred.iterator(); it.hasNext();) {
            Workload.Msg m = it.next();
            boolean known = parentKnown(m);
            if (known || now - (t0 + m.offsetNanos()) > PARENT_WAIT_NANOS) {
                if (!known) {
                    meters.count("replies-unlinked", 1);
                }
                send(m, now);
                it.remove();
            }
        }
        while (nextToSend < mine.size() && t0 + mine.get(nextToSend).offsetNanos() <= now) {
            Workload.Msg m = mine.get(nextToSend++);
            if (m.parent() >= 0 && !parentKnown(m)) {
                meters.count("replies-deferred", 1);
                deferred.add(m);
            } else {
                send(m, now);
            }
        }
        if (nextToSend < mine.size() || !deferred.isEmpty()) {
            long next = nextToSend < mine.size() ? t0 + mine.get(nextToSend).offsetNanos() : Long.MAX_VALUE;
            at(deferred.isEmpty() ? next : Math.min(next, now + 5_000_000L), this::sendDue);
        } else {
            out.println("done send");
            phase = "";
        }
    }

    /** A reply goes once its parent has come back from the room to one of this process's bots, with its id. */
    private boolean parentKnown(Workload.Msg m) {
        return parentId(m) != null;
    }

    private String parentId(Workload.Msg m) {
        if (m.parent() < 0) {
            return null;
        }
        return plan.ownMuc() ? messageIds[m.parent()] : stanzaIds[m.parent()];
    }

    private void send(Workload.Msg m, long now) {
        LightSession s = sessions.get(m.bot() - first);
        String id = MessageIds.make(m.seq(), (now - t0) / 1000);
        String parentId = parentId(m);
        if (s.state != LightSession.State.JOINED) {
            meters.count("send-failures", 1);
            return;
        }
        s.say(id, m.body(), m.channel(), parentId == null ? null : workload.bots().get(authors[m.parent()]).nick(), parentId);
        sent.set(m.seq());
        meters.count("sent", 1);
        if (parentId != null) {
            linked.set(m.seq());
            meters.count("replies-sent", 1);
        }
        out.println("sent " + m.seq() + " " + (parentId != null ? 1 : 0));
    }

    // ---- the end -----------------------------------------------------------------------------

    private long missing() {
        long missing = 0;
        for (LightSession s : sessions) {
            if (s.state == LightSession.State.JOINED || s.state == LightSession.State.FAILED && s.log.received > 0) {
                missing += s.log.missing(sent);
            }
        }
        return missing;
    }

    private int joinedCount() {
        int n = 0;
        for (LightSession s : sessions) {
            if (s.state == LightSession.State.JOINED) {
                n++;
            }
        }
        return n;
    }

    private void report() {
        long lost = 0;
        long lostLive = 0;
        long lostRelaxed = 0;
        for (LightSession s : sessions) {
            meters.count("received", s.log.received);
            meters.count("out-of-order", s.log.outOfOrder);
            meters.count("unlinked-overtaken", s.log.unlinkedOvertaken);
            meters.count("late", s.log.late);
            int m = s.log.missing(sent);
            lost += m;
            if (s.relaxed) {
                lostRelaxed += m;
            } else {
                lostLive += m;
            }
            meters.count(s.relaxed ? "bots-relaxed" : "bots-live", 1);
            meters.count("bots-joined-at-end", s.state == LightSession.State.JOINED ? 1 : 0);
        }
        meters.count("lost", lost);
        meters.count("lost-live", lostLive);
        meters.count("lost-relaxed", lostRelaxed);
        meters.count("messages-sent-in-run", sent.cardinality());
        meters.write(out, "report ");
        flushNotes();
        out.println("done report");
    }

    /** A line worth the coordinator's log; the same kind of line (its first 40 characters) at most 5 times. */
    void note(String line) {
        String kind = line.replaceAll("[0-9]+", "N");
        kind = kind.substring(0, Math.min(40, kind.length()));
        int n = notes.merge(kind, 1, Integer::sum);
        if (n <= 5) {
            out.println("note " + line.replace('\n', ' '));
        }
    }

    private void flushNotes() {
        notes.forEach((k, n) -> {
            if (n > 5) {
                out.println("note (" + (n - 5) + " more like: " + k + ")");
            }
        });
        notes.replaceAll((k, n) -> Math.min(n, 5));
    }
}
