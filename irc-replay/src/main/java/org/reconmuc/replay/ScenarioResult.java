package org.reconmuc.replay;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.reconmuc.replay.meter.Histogram;
import org.reconmuc.replay.meter.RadioTail;
import org.reconmuc.replay.meter.Series;
import org.reconmuc.replay.meter.Series.Metric;
import org.reconmuc.servers.VethLink;

/** The numbers of one finished scenario, and its files: timeseries.csv, bots.csv, latency-cdf.csv, summary.json. */
final class ScenarioResult {
    final String label;
    final Map<String, Object> summary = new LinkedHashMap<>();
    final int seconds;
    final double[][] perSecond; // [metric][second]
    /** The same per world, when the bots were split into worlds. */
    final Map<World, double[][]> perSecondByWorld = new java.util.EnumMap<>(World.class);
    final Map<String, List<double[]>> cdfs = new LinkedHashMap<>();
    /** The processes' samples, one a second (CPU, RSS, heaps). */
    final List<ProcSampler.Sample> samples;
    final long expected;
    final long lost;
    final long duplicated;
    final long outOfOrder;
    /** Deliveries that came after the last message plus the drain (not lost, not in time). */
    final long late;
    private static final int LOST_MESSAGES_SHOWN = 50;
    private static final int LOST_NICKS_SHOWN = 5;

    ScenarioResult(ReplayRun r) {
        Scenario sc = r.scenario();
        this.label = sc.label();
        synchronized (r.samples) {
            this.samples = List.copyOf(r.samples);
        }
        int n = (int) Math.min(ReplayRun.MAX_SECONDS, Math.ceil(r.measuredNanos / 1e9));
        this.seconds = Math.max(1, n);
        perSecond = perSecond(r.series, seconds);
        if (r.run.byWorld.size() > 1) {
            r.run.byWorld.forEach((w, measures) -> perSecondByWorld.put(w, perSecond(measures.series, seconds)));
        }
        int sent = r.sentBits.cardinality();
        Tally tally = new Tally(r);
        this.expected = (long) sent * r.bots.size();
        this.lost = tally.missing;
        this.late = tally.late;
        this.duplicated = tally.duplicates;
        this.outOfOrder = tally.outOfOrder;

        summary.put("scenario", label);
        summary.put("kind", sc.kind().name().toLowerCase(Locale.ROOT));
        if (sc.relaxed()) {
            summary.put("volume", sc.volume());
            summary.put("volume_drawn_from", sc.fixedVolume() ? "fixed" : "[1, " + 2 * sc.volume() + "]");
            summary.put("time_seconds", sc.timeSeconds());
            summary.put("aggregation", sc.aggregation());
        }
        summary.put("room", r.facts.get("room"));
        summary.put("bots", r.bots.size());
        summary.put("messages_scheduled", r.run.msgs.size());
        summary.put("messages_sent", sent);
        summary.put("measured_seconds", r.measuredNanos / 1e9);
        summary.put("completeness", completeness(r, tally));
        Map<String, Object> replies = new LinkedHashMap<>();
        replies.put("sent_as_xep0461_replies", r.repliesSent);
        replies.put("waited_for_parent_stanza_id", r.repliesDeferred);
        replies.put("sent_unlinked_parent_id_unknown", r.repliesUnlinked);
        replies.put("topic_switches", r.topicSwitches);
        replies.put("batches_received", tally.batches);
        summary.put("replies_and_topics", replies);

        VethLink.Counters allLinks = null;
        if (r.realLink()) {
            allLinks = r.linkMeasured[0];
            for (int i = 1; i < r.linkMeasured.length; i++) {
                allLinks = allLinks.plus(r.linkMeasured[i]);
            }
        }
        summary.putAll(received(r, r.bots, r.series, new Histogram[] {r.run.directReplies, r.run.all, r.run.immediate,
                r.run.retained}, allLinks, sent));
        cdfs.put("direct replies", r.run.directReplies.cdf());
        cdfs.put("all deliveries", r.run.all.cdf());
        cdfs.put("immediate", r.run.immediate.cdf());
        cdfs.put("retained", r.run.retained.cdf());
        List<World> worlds = new ArrayList<>(r.run.byWorld.keySet());
        if (worlds.size() == 1) {
            summary.put("world", worlds.get(0).label() + ": " + worlds.get(0).what);
        } else {
            summary.put("worlds", byWorld(r, worlds, sent));
        }
        summary.put("schedule_lag_ms", stats(r.lag));
        summary.put("reply_wait_for_parent_ms", stats(r.replyWait));

        summary.put("processes", processes(r));
        summary.put("facts", r.facts);
    }

    /** Each metric's value in each of the first {@code seconds} seconds of {@code series}. */
    private static double[][] perSecond(Series series, int seconds) {
        double[][] values = new double[Metric.values().length][seconds];
        for (Metric m : Metric.values()) {
            for (int s = 0; s < seconds; s++) {
                values[m.ordinal()][s] = series.get(m, s);
            }
        }
        return values;
    }

    /** What the bots counted, added up, and which messages they missed (a message either never left the room or a few bots missed it). */
    private static final class Tally {
        long received;
        long duplicates;
        long outOfOrder;
        long late;
        long unlinkedOvertaken;
        long missing;
        long batchErrors;
        long batches;
        /** By message: how many bots missed it, and the first few of their nicks. */
        final int[] missedBy;
        final List<List<String>> missedByNicks = new ArrayList<>();

        Tally(ReplayRun r) {
            missedBy = new int[r.run.msgs.size()];
            for (int i = 0; i < missedBy.length; i++) {
                missedByNicks.add(new ArrayList<>());
            }
            for (Bot b : r.bots) {
                BitSet missed;
                synchronized (b) {
                    received += b.log.received;
                    duplicates += b.log.duplicates;
                    outOfOrder += b.log.outOfOrder;
                    late += b.log.late;
                    unlinkedOvertaken += b.log.unlinkedOvertaken;
                    batchErrors += b.batchErrors;
                    batches += b.batches;
                    missed = b.missingOf(r.sentBits);
                }
                missing += missed.cardinality();
                for (int seq = missed.nextSetBit(0); seq >= 0; seq = missed.nextSetBit(seq + 1)) {
                    if (missedBy[seq]++ < LOST_NICKS_SHOWN) {
                        missedByNicks.get(seq).add(b.nick());
                    }
                }
            }
        }

        /** The first messages some bot missed, with how many missed each and who. */
        List<Map<String, Object>> lostMessages(ReplayRun r) {
            List<Map<String, Object>> lostMessages = new ArrayList<>();
            for (int seq = 0; seq < missedBy.length && lostMessages.size() < LOST_MESSAGES_SHOWN; seq++) {
                if (missedBy[seq] > 0) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("seq", seq);
                    m.put("id", r.sentIdOf(seq));
                    m.put("stanza_id", r.run.stanzaIds.get(seq));
                    m.put("bots_missing", missedBy[seq]);
                    m.put("some_of_them", missedByNicks.get(seq));
                    lostMessages.add(m);
                }
            }
            return lostMessages;
        }
    }

    private Map<String, Object> completeness(ReplayRun r, Tally tally) {
        Map<String, Object> completeness = new LinkedHashMap<>();
        completeness.put("expected_deliveries", expected);
        completeness.put("received", tally.received);
        completeness.put("lost", lost);
        completeness.put("late", late);
        completeness.put("late_wait_seconds", r.facts.get("late_wait_seconds"));
        completeness.put("duplicated", duplicated);
        completeness.put("out_of_causal_order", outOfOrder);
        completeness.put("unlinked_replies_before_parent", tally.unlinkedOvertaken);
        completeness.put("lost_messages", tally.lostMessages(r));
        completeness.put("error_stanzas_received", r.run.errorsReceived.get());
        completeness.put("batch_decode_errors", tally.batchErrors);
        completeness.put("send_errors", r.sendErrors);
        return completeness;
    }

    /** What each world's bots received, when the bots were split into worlds. */
    private static Map<String, Object> byWorld(ReplayRun r, List<World> worlds, int sent) {
        Scenario sc = r.scenario();
        Map<String, Object> byWorld = new LinkedHashMap<>();
        for (int i = 0; i < worlds.size(); i++) {
            World w = worlds.get(i);
            RunState.WorldMeasures wm = r.run.byWorld.get(w);
            List<Bot> bots = r.bots.stream().filter(b -> b.world == w).toList();
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("what", w.what);
            g.put("bots", bots.size());
            if (sc.relaxed()) {
                g.put("aggregation", sc.aggregationFor(w));
            }
            g.putAll(received(r, bots, wm.series, new Histogram[] {wm.directReplies, wm.all, wm.immediate, wm.retained},
                    r.realLink() ? r.linkMeasured[i] : null, sent));
            byWorld.put(w.label(), g);
        }
        return byWorld;
    }

    /**
     * What a group of bots received: bytes by every measure, latencies (direct replies, all,
     * immediate, retained), their radios, and what the kernel counted on their link.
     */
    private static Map<String, Object> received(ReplayRun r, List<Bot> bots, Series series, Histogram[] latencies,
            VethLink.Counters link, int sent) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> bytes = new LinkedHashMap<>();
        for (Metric m : Metric.values()) {
            if (m.name().endsWith("BYTES") && (link != null || !m.realLink())) {
                Map<String, Object> b = new LinkedHashMap<>();
                long total = series.total(m);
                b.put("total", total);
                b.put("per_bot", (double) total / bots.size());
                b.put("per_bot_per_second", total / (double) bots.size() / (r.measuredNanos / 1e9));
                b.put("per_message_per_bot", sent == 0 ? 0 : (double) total / bots.size() / sent);
                b.put("what", m.help);
                bytes.put(m.name().toLowerCase(Locale.ROOT), b);
            }
        }
        bytes.put("stanzas_received", series.total(Metric.STANZAS));
        bytes.put("bots_with_xep0138_compression", bots.stream().filter(b -> b.meter.compressedStream()).count());
        out.put("received_by_bots", bytes);
        if (link != null) {
            out.put("real_link", realLink(link, series.total(Metric.STANZAS), bots.size(), sent));
        }
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("direct_replies_at_parent_author", stats(latencies[0]));
        latency.put("all_deliveries", stats(latencies[1]));
        latency.put("immediate_deliveries", stats(latencies[2]));
        latency.put("retained_deliveries", stats(latencies[3]));
        out.put("latency_ms", latency);
        out.put("radio_xep0286", radio(r, bots));
        return out;
    }

    /** What the kernel counted on a veth link, beside the model's segment count. */
    private static Map<String, Object> realLink(VethLink.Counters c, long stanzas, int bots, int sent) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("what", "veth pair, MTU " + VethLink.MTU + ", segmentation offloads off; IP bytes = interface bytes - "
                + VethLink.ETHERNET_HEADER + " B Ethernet header per frame");
        m.put("server_to_bots_packets", c.rxPackets());
        m.put("server_to_bots_ip_bytes", c.rxIpBytes());
        m.put("server_to_bots_mean_packet_bytes", c.rxPackets() == 0 ? 0 : (double) c.rxIpBytes() / c.rxPackets());
        m.put("bots_to_server_packets", c.txPackets());
        m.put("bots_to_server_ip_bytes", c.txIpBytes());
        m.put("stanzas_received", stanzas);
        m.put("server_to_bots_packets_per_stanza", (double) c.rxPackets() / Math.max(1, stanzas));
        m.put("server_to_bots_ip_bytes_per_message_per_bot", sent == 0 ? 0 : (double) c.rxIpBytes() / bots / sent);
        return m;
    }

    /**
     * Each bot's radio under XEP-0286's 11-s tail, as if it were a phone: the share of the
     * measurement it was on, and its wake-ups. Listeners (bots that never speak) are the
     * background occupants; a speaker's own sends would wake its radio too and are not counted.
     * For listeners also the radio their own topic alone would keep on, each of its messages
     * arriving when it was sent: what a relaxed listener's filter asks to get at once, so no time
     * bound or volume can take its radio below it.
     */
    private static Map<String, Object> radio(ReplayRun r, List<Bot> group) {
        long end = r.series.startNanos() + r.measuredNanos;
        double seconds = r.measuredNanos / 1e9;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tail_seconds", RadioTail.LTE_TAIL_NANOS / 1e9);
        for (boolean listeners : new boolean[] {true, false}) {
            double on = 0;
            double wakeups = 0;
            int n = 0;
            for (Bot b : group) {
                if (listeners && !b.spec.listener()) {
                    continue;
                }
                on += b.meter.radioOnNanos(end) / 1e9;
                wakeups += b.meter.radioWakeups();
                n++;
            }
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("bots", n);
            g.put("radio_on_share_mean", n == 0 ? 0 : on / n / seconds);
            g.put("radio_on_seconds_mean", n == 0 ? 0 : on / n);
            g.put("wakeups_per_hour_mean", n == 0 ? 0 : wakeups / n / seconds * 3600);
            if (listeners && r.scenario().relaxed()) {
                double ownOn = 0;
                double ownWakeups = 0;
                for (Bot b : group) {
                    if (b.spec.listener() && b.topic != null) {
                        RadioTail own = ownTopicRadio(r, b.topic);
                        ownOn += own.onNanos(r.measuredNanos) / 1e9;
                        ownWakeups += own.wakeups();
                    }
                }
                g.put("own_topic_radio_on_share_mean", n == 0 ? 0 : ownOn / n / seconds);
                g.put("own_topic_wakeups_per_hour_mean", n == 0 ? 0 : ownWakeups / n / seconds * 3600);
            }
            m.put(listeners ? "listeners" : "all_bots", g);
        }
        return m;
    }

    /** A radio fed only {@code topic}'s messages, at their send times in the measurement (its start at 0). */
    private static RadioTail ownTopicRadio(ReplayRun r, String topic) {
        RadioTail radio = new RadioTail(RadioTail.LTE_TAIL_NANOS);
        for (Workload.Msg m : r.workload().messages()) {
            if (m.offsetNanos() <= r.measuredNanos && topic.equals(m.channel()) && r.run.sent.get(m.seq()) == 1) {
                radio.activity(m.offsetNanos());
            }
        }
        return radio;
    }

    private static Map<String, Object> stats(Histogram h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", h.count());
        m.put("mean", h.mean());
        m.put("p50", h.quantile(0.5));
        m.put("p90", h.quantile(0.9));
        m.put("p99", h.quantile(0.99));
        m.put("max", h.quantile(1.0));
        return m;
    }

    private Map<String, Object> processes(ReplayRun r) {
        Map<String, Object> p = new LinkedHashMap<>();
        List<ProcSampler.Sample> samples;
        synchronized (r.samples) {
            samples = new ArrayList<>(r.samples);
        }
        double secs = r.measuredNanos / 1e9;
        long serverRssMax = 0;
        long componentRssMax = 0;
        long componentHeapMax = 0;
        long componentHeapAfterGcMax = 0;
        long harnessHeapAfterGcMax = 0;
        long harnessRssMax = 0;
        long harnessHeapMax = 0;
        double serverRssSum = 0;
        double componentRssSum = 0;
        for (ProcSampler.Sample s : samples) {
            serverRssMax = Math.max(serverRssMax, s.serverRss());
            serverRssSum += s.serverRss();
            componentRssMax = Math.max(componentRssMax, s.componentRss());
            componentRssSum += Math.max(0, s.componentRss());
            componentHeapMax = Math.max(componentHeapMax, s.componentHeap());
            componentHeapAfterGcMax = Math.max(componentHeapAfterGcMax, s.componentHeapAfterGc());
            harnessHeapAfterGcMax = Math.max(harnessHeapAfterGcMax, s.harnessHeapAfterGc());
            harnessRssMax = Math.max(harnessRssMax, s.harnessRss());
            harnessHeapMax = Math.max(harnessHeapMax, s.harnessHeap());
        }
        int k = Math.max(1, samples.size());
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("cpu_seconds", r.serverCpuSeconds);
        server.put("cpu_percent_mean", 100 * r.serverCpuSeconds / secs);
        server.put("rss_mb_max", serverRssMax / 1e6);
        server.put("rss_mb_mean", serverRssSum / k / 1e6);
        p.put("xmpp_server", server);
        Map<String, Object> comp = new LinkedHashMap<>();
        if (r.componentPid() > 0) {
            comp.put("cpu_seconds", r.componentCpuSeconds);
            comp.put("cpu_percent_mean", 100 * r.componentCpuSeconds / secs);
            comp.put("rss_mb_max", componentRssMax / 1e6);
            comp.put("rss_mb_mean", componentRssSum / k / 1e6);
            comp.put("heap_used_mb_max", componentHeapMax / 1e6);
            comp.put("heap_after_gc_mb_max", componentHeapAfterGcMax / 1e6);
            comp.put("live_heap_mb_at_start", r.componentLiveHeapAtStartBytes < 0 ? null : r.componentLiveHeapAtStartBytes / 1e6);
            comp.put("live_heap_mb_at_end", r.componentLiveHeapBytes < 0 ? null : r.componentLiveHeapBytes / 1e6);
            comp.put("link_bytes_to_server", r.linkBytes < 0 ? null : r.linkBytes);
            comp.put("multicast_stanzas", r.linkMulticastStanzas < 0 ? null : r.linkMulticastStanzas);
            comp.put("multicast_copies", r.linkMulticastCopies < 0 ? null : r.linkMulticastCopies);
        } else {
            comp.put("note", r.scenario().usesComponent() ? "in-process: not separable from the harness" : "not used");
        }
        p.put("component", comp);
        Map<String, Object> harness = new LinkedHashMap<>();
        harness.put("cpu_seconds", r.harnessCpuSeconds);
        harness.put("cpu_percent_mean", 100 * r.harnessCpuSeconds / secs);
        harness.put("rss_mb_max", harnessRssMax / 1e6);
        harness.put("heap_used_mb_max", harnessHeapMax / 1e6);
        harness.put("heap_after_gc_mb_max", harnessHeapAfterGcMax / 1e6);
        p.put("harness_bots", harness);
        return p;
    }

    void write(ReplayRun r, Path dir, boolean perBotSeries) throws IOException {
        Files.createDirectories(dir);
        List<ProcSampler.Sample> samples;
        synchronized (r.samples) {
            samples = new ArrayList<>(r.samples);
        }
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve("timeseries.csv"), StandardCharsets.UTF_8))) {
            StringBuilder h = new StringBuilder("second");
            for (Metric m : Metric.values()) {
                h.append(',').append(m.name().toLowerCase(Locale.ROOT));
            }
            h.append(",schedule_lag_max_ms,server_cpu_pct,server_rss_mb,component_cpu_pct,component_rss_mb,"
                    + "component_heap_mb,component_heap_after_gc_mb,harness_cpu_pct,harness_rss_mb,harness_heap_mb,harness_heap_after_gc_mb");
            w.println(h);
            for (int s = 0; s < seconds; s++) {
                StringBuilder b = new StringBuilder().append(s);
                for (Metric m : Metric.values()) {
                    b.append(',').append((long) perSecond[m.ordinal()][s]);
                }
                b.append(',').append(fmt(r.lagMaxMicrosPerSecond.get(s) / 1000.0));
                ProcSampler.Sample cur = s < samples.size() ? samples.get(s) : null;
                ProcSampler.Sample prev = s > 0 && s - 1 < samples.size() ? samples.get(s - 1) : null;
                if (cur != null) {
                    b.append(',').append(prev == null ? "" : fmt(100 * (cur.serverCpu() - prev.serverCpu())));
                    b.append(',').append(fmt(cur.serverRss() / 1e6));
                    b.append(',').append(prev == null || Double.isNaN(cur.componentCpu()) ? ""
                            : fmt(100 * (cur.componentCpu() - prev.componentCpu())));
                    b.append(',').append(cur.componentRss() < 0 ? "" : fmt(cur.componentRss() / 1e6));
                    b.append(',').append(cur.componentHeap() < 0 ? "" : fmt(cur.componentHeap() / 1e6));
                    b.append(',').append(cur.componentHeapAfterGc() < 0 ? "" : fmt(cur.componentHeapAfterGc() / 1e6));
                    b.append(',').append(prev == null ? "" : fmt(100 * (cur.harnessCpu() - prev.harnessCpu())));
                    b.append(',').append(fmt(cur.harnessRss() / 1e6));
                    b.append(',').append(fmt(cur.harnessHeap() / 1e6));
                    b.append(',').append(fmt(cur.harnessHeapAfterGc() / 1e6));
                } else {
                    b.append(",,,,,,,,,,");
                }
                w.println(b);
            }
        }
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve("bots.csv"), StandardCharsets.UTF_8))) {
            w.println("bot,nick,listener,messages_in_log,final_topic,volume,received,missing,late,duplicated,out_of_order,"
                    + "batches,retained_deliveries,stanzas,socket_bytes,xml_bytes,zlib_model_bytes,wire_xml_bytes,"
                    + "wire_zlib_model_bytes,wire_socket_bytes,xep0138,radio_on_seconds,radio_wakeups");
            for (Bot b : r.bots) {
                synchronized (b) {
                    w.println(String.join(",", Integer.toString(b.spec.index()), csv(b.nick()),
                            Boolean.toString(b.spec.listener()), Integer.toString(b.spec.messages()), csv(b.topic),
                            Integer.toString(b.volume), Integer.toString(b.log.received),
                            Integer.toString(b.missing(r.sentBits)), Integer.toString(b.log.late),
                            Integer.toString(b.log.duplicates), Integer.toString(b.log.outOfOrder), Integer.toString(b.batches),
                            Integer.toString(b.retainedDeliveries), Long.toString(b.meter.stanzas),
                            Long.toString(b.meter.socketBytes), Long.toString(b.meter.xmlBytes),
                            Long.toString(b.meter.zlibModelBytes), Long.toString(b.meter.wireXmlBytes),
                            Long.toString(b.meter.wireZlibBytes), Long.toString(b.meter.wireSocketBytes),
                            Boolean.toString(b.meter.compressedStream()),
                            fmt(b.meter.radioOnNanos(r.series.startNanos() + r.measuredNanos) / 1e9),
                            Long.toString(b.meter.radioWakeups())));
                }
            }
        }
        if (perBotSeries) {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve("bots-socket-bytes-per-second.csv"),
                    StandardCharsets.UTF_8))) {
                w.println("bot,second,socket_bytes");
                for (Bot b : r.bots) {
                    long[] ps = b.meter.perSecond();
                    for (int s = 0; s < seconds && ps != null; s++) {
                        if (ps[s] != 0) {
                            w.println(b.spec.index() + "," + s + "," + ps[s]);
                        }
                    }
                }
            }
        }
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve("latency-cdf.csv"), StandardCharsets.UTF_8))) {
            w.println("deliveries,latency_ms_at_most,fraction");
            for (Map.Entry<String, List<double[]>> e : cdfs.entrySet()) {
                // At most ~2,000 points per curve: a point whenever the fraction rose by 0.0005, and the last.
                double last = -1;
                List<double[]> pts = e.getValue();
                for (int i = 0; i < pts.size(); i++) {
                    double[] p = pts.get(i);
                    if (p[1] - last >= 0.0005 || i == pts.size() - 1) {
                        w.println(e.getKey() + "," + fmt(p[0]) + "," + String.format(Locale.ROOT, "%.6f", p[1]));
                        last = p[1];
                    }
                }
            }
        }
        Files.writeString(dir.resolve("summary.json"), Json.write(summary));
    }

    private static String csv(String s) {
        if (s == null) {
            return "";
        }
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    static String fmt(double d) {
        if (Double.isNaN(d)) {
            return "";
        }
        return String.format(Locale.ROOT, "%.3f", d);
    }

    /** Bytes all bots received, by one measure. */
    long bytes(Metric m) {
        return ((Number) get("received_by_bots", m.name().toLowerCase(Locale.ROOT), "total")).longValue();
    }

    /** Bytes the bots of one world received ({@code null}: all bots). */
    long bytes(World w, Metric m) {
        return ((Number) get(w, "received_by_bots", m.name().toLowerCase(Locale.ROOT), "total")).longValue();
    }

    /** A value of the summary of one world's bots ({@code null}: all bots). */
    Object get(World w, String... path) {
        if (w == null) {
            return get(path);
        }
        String[] full = new String[path.length + 2];
        full[0] = "worlds";
        full[1] = w.label();
        System.arraycopy(path, 0, full, 2, path.length);
        return get(full);
    }

    /** The worlds whose bots were counted apart (none when all bots were in one). */
    @SuppressWarnings("unchecked")
    List<World> worlds() {
        Object byWorld = summary.get("worlds");
        if (byWorld == null) {
            return List.of();
        }
        return ((Map<String, Object>) byWorld).keySet().stream().map(k -> World.valueOf(k.toUpperCase(Locale.ROOT))).toList();
    }

    @SuppressWarnings("unchecked")
    Object get(String... path) {
        Object o = summary;
        for (String p : path) {
            o = ((Map<String, Object>) o).get(p);
            if (o == null) {
                return null;
            }
        }
        return o;
    }
}
