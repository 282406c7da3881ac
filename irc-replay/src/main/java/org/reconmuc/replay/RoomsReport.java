package org.reconmuc.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

/**
 * What {@code irc-replay rooms} found, for its summary.json: per room, through {@link RoomTally},
 * whether every acknowledged message reached every bot exactly once and in order (the relaxed
 * listeners apart: their retained messages come later than the standard bots' live ones); what
 * was bounced or dropped; the fault's figures; and per instance its CPU, memory and what crossed
 * its link to the server, multicast included.
 */
final class RoomsReport {
    private final Map<Integer, List<RoomBot>> byRoom;
    private final List<RoomsCommand.Sent> sent;
    private final RoomsFault fault;
    private final long start;
    private final int rooms;
    /** What counts: the acknowledgements and bounces in by the end of the drain. */
    private final Map<String, Long> acknowledged;
    private final Set<String> bounced;
    private final Totals standard;
    private final Totals relaxed;

    /** Counts of one kind of bot, over the rooms. */
    private static final class Totals {
        long expected;
        long lost;
        long duplicated;
        long caughtUp;
        long outOfOrder;
        long rejoins;
        /** Deliveries live or retained (not from the history), duplicates included. */
        long copies;
        final List<String> examples = new ArrayList<>();

        void add(RoomTally t) {
            expected += t.expected;
            lost += t.lost;
            duplicated += t.duplicated;
            caughtUp += t.caughtUp;
            outOfOrder += t.outOfOrder;
            for (String e : t.examples) {
                if (examples.size() < 5) {
                    examples.add(e);
                }
            }
        }

        boolean clean() {
            return lost == 0 && duplicated == 0 && outOfOrder == 0;
        }

        /** The deliveries' figures in {@code out}, in the summary's order. */
        void putInto(Map<String, Object> out) {
            out.put("deliveries_expected", expected);
            out.put("lost", lost);
            out.put("delivered_from_history_on_rejoin", caughtUp);
            out.put("duplicated", duplicated);
            out.put("out_of_order", outOfOrder);
            out.put("examples", examples);
            out.put("rejoins", rejoins);
        }
    }

    RoomsReport(Map<Integer, List<RoomBot>> byRoom, List<RoomsCommand.Sent> sent, RoomAcks acks, RoomsFault fault,
                long start, int botsPerRoom, IntUnaryOperator speaker) {
        this.byRoom = byRoom;
        this.sent = sent;
        this.fault = fault;
        this.start = start;
        this.rooms = byRoom.size();
        this.acknowledged = new HashMap<>(acks.acknowledged);
        this.bounced = Set.copyOf(acks.bounced);
        this.standard = new Totals();
        this.relaxed = new Totals();
        for (Map.Entry<Integer, List<RoomBot>> room : new TreeMap<>(byRoom).entrySet()) {
            List<Integer> acked = new ArrayList<>();
            for (String key : acknowledged.keySet()) {
                String[] rs = key.split(":");
                if (Integer.parseInt(rs[0]) == room.getKey()) {
                    acked.add(Integer.parseInt(rs[1]));
                }
            }
            for (boolean ofRelaxed : new boolean[] {false, true}) {
                Totals totals = ofRelaxed ? relaxed : standard;
                List<RoomTally.BotView> views = new ArrayList<>();
                for (RoomBot b : room.getValue()) {
                    if (b.relaxed() == ofRelaxed) {
                        views.add(b.view());
                        totals.rejoins += b.rejoins.get();
                        totals.copies += b.got.values().stream().mapToLong(Integer::longValue).sum();
                    }
                }
                if (!views.isEmpty()) {
                    totals.add(RoomTally.of("replay" + room.getKey(), views, acked, speaker));
                }
            }
        }
    }

    /** No acknowledged message lost, duplicated or out of order, for any bot. */
    boolean clean() {
        return standard.clean() && relaxed.clean();
    }

    /** Every bot's live (and retained) deliveries in order, a line each. */
    void writeLiveOrder(Path file) throws IOException {
        StringBuilder dump = new StringBuilder();
        for (Map.Entry<Integer, List<RoomBot>> room : new TreeMap<>(byRoom).entrySet()) {
            for (RoomBot b : room.getValue()) {
                dump.append("replay").append(room.getKey()).append('/').append(b.nick).append(' ')
                        .append(b.view().live()).append('\n');
            }
        }
        Files.writeString(file, dump);
    }

    /** The fault's figures and the acknowledged messages' fate; {@code out} holds the instances' logs. */
    Map<String, Object> summary(double secondsUntilDrained, Path out) throws IOException {
        Map<String, Object> summary = new LinkedHashMap<>();
        if (fault != null && fault.adoptedAfter != null) {
            summary.put("killed_instance_adopted_after_seconds", fault.adoptedAfter.getNow(null));
        }
        if (fault != null && !fault.restarts.isEmpty()) {
            summary.put("restarts", List.copyOf(fault.restarts));
        }
        summary.put("logged", loggedFailover(out));
        boolean faulted = fault != null && fault.happened();
        summary.put("slowest_acknowledgement_after_fault_seconds", faulted ? slowestAcks(fault.atNanos) : null);
        Map<String, Object> totals = new LinkedHashMap<>();
        totals.put("sent", sent.size());
        totals.put("acknowledged", acknowledged.size());
        long bouncedUnacked = bounced.stream().filter(k -> !acknowledged.containsKey(k)).count();
        totals.put("unacknowledged_bounced", bouncedUnacked);
        totals.put("unacknowledged_dropped", sent.size() - acknowledged.size() - bouncedUnacked);
        List<String> unackedExamples = new ArrayList<>();
        for (RoomsCommand.Sent x : sent) {
            String key = RoomAcks.key(x.room(), x.seq());
            if (!acknowledged.containsKey(key) && unackedExamples.size() < 10) {
                unackedExamples.add("replay" + x.room() + " m" + x.seq() + " sent at "
                        + Math.round((x.atNanos() - start) / 1e8) / 10.0 + " s" + (bounced.contains(key) ? " (bounced)" : ""));
            }
        }
        totals.put("unacknowledged_examples", unackedExamples);
        standard.putInto(totals);
        totals.put("seconds_until_drained", secondsUntilDrained);
        summary.put("acknowledged_messages", totals);
        if (relaxed.expected > 0) {
            Map<String, Object> r = new LinkedHashMap<>();
            relaxed.putInto(r);
            summary.put("relaxed_bots", r);
        }
        summary.put("failover", failover());
        return summary;
    }

    /** Per room of the killed or paused instance: the fault to the first message acknowledged after it. */
    private Map<String, Object> failover() {
        Map<String, Object> failover = new TreeMap<>();
        if (fault == null || !fault.happened()) {
            return failover;
        }
        long faultNanos = fault.atNanos;
        for (String room : fault.victimRooms) {
            int r = Integer.parseInt(room.substring("replay".length(), room.indexOf('@')));
            long first = Long.MAX_VALUE;
            long firstSentAt = 0;
            int lostHere = 0;
            int bouncedHere = 0;
            for (RoomsCommand.Sent s : sent) {
                if (s.room() != r || s.atNanos() < faultNanos) {
                    continue;
                }
                Long ack = acknowledged.get(RoomAcks.key(r, s.seq()));
                if (ack != null) {
                    if (ack < first) {
                        first = ack;
                        firstSentAt = s.atNanos();
                    }
                } else if (bounced.contains(RoomAcks.key(r, s.seq()))) {
                    bouncedHere++;
                } else {
                    lostHere++;
                }
            }
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("seconds_without_service", first == Long.MAX_VALUE ? null : (first - faultNanos) / 1e9);
            // Apart: how long after the fault the log's schedule sent that message, and how
            // long it then waited for its echo (the room's own share of the gap).
            one.put("first_acknowledged_sent_after_seconds", first == Long.MAX_VALUE ? null : (firstSentAt - faultNanos) / 1e9);
            one.put("first_acknowledged_waited_seconds", first == Long.MAX_VALUE ? null : (first - firstSentAt) / 1e9);
            one.put("sent_after_kill_bounced", bouncedHere);
            one.put("sent_after_kill_dropped", lostHere);
            failover.put(room, one);
        }
        return failover;
    }

    /**
     * Per instance: rooms at the start, whether it was the fault's victim, CPU/RSS/heap of its
     * process now, and what its processes (restarts included) wrote to the server over all their
     * connections — bytes, and the stanzas and copies that went through the server's XEP-0033
     * multicast. Totals: link bytes per copy delivered to a bot (live or retained).
     */
    Map<String, Object> perInstance(Map<String, List<ComponentProcess>> processes, Map<String, Integer> roomsAtStart) {
        Map<String, Object> perInstance = new LinkedHashMap<>();
        long linkBytes = 0;
        long multicastStanzas = 0;
        long multicastCopies = 0;
        for (Map.Entry<String, List<ComponentProcess>> instance : new TreeMap<>(processes).entrySet()) {
            String name = instance.getKey();
            List<ComponentProcess> started = instance.getValue();
            ComponentProcess last = started.get(started.size() - 1);
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("rooms_at_start", roomsAtStart.getOrDefault(name, 0));
            if (fault != null && fault.kind() != RoomsFault.Kind.ROLLING_RESTART) {
                one.put(fault.kind() == RoomsFault.Kind.KILL ? "killed" : "paused", name.equals(fault.victim));
            }
            if (last.isAlive()) {
                one.put("cpu_seconds", ProcSampler.cpuSeconds(last.pid()));
                one.put("rss_mb", ProcSampler.rssBytes(last.pid()) / 1e6);
                one.put("live_heap_mb_at_end", last.liveHeap() / 1e6);
            }
            long bytes = started.stream().mapToLong(p -> p.linkBytes).sum();
            long stanzas = started.stream().mapToLong(p -> p.multicastStanzas).sum();
            long copies = started.stream().mapToLong(p -> p.multicastCopies).sum();
            one.put("processes", started.size());
            one.put("link_bytes", bytes);
            one.put("multicast_stanzas", stanzas);
            one.put("multicast_copies", copies);
            one.put("multicast_stanzas_by_connection_now", last.multicastStanzasByConnection);
            perInstance.put(name, one);
            linkBytes += bytes;
            multicastStanzas += stanzas;
            multicastCopies += copies;
        }
        long delivered = standard.copies + relaxed.copies;
        Map<String, Object> total = new LinkedHashMap<>();
        total.put("link_bytes", linkBytes);
        total.put("multicast_stanzas", multicastStanzas);
        total.put("multicast_copies", multicastCopies);
        total.put("connections_of_last_processes_with_multicast", processes.values().stream()
                .map(started -> started.get(started.size() - 1).multicastStanzasByConnection)
                .mapToLong(counts -> counts.stream().filter(n -> n > 0).count()).sum());
        total.put("connections_of_last_processes", processes.values().stream()
                .mapToInt(started -> started.get(started.size() - 1).multicastStanzasByConnection.size()).sum());
        total.put("copies_delivered_live_or_retained", delivered);
        total.put("link_bytes_per_delivered_copy", delivered == 0 ? null : (double) linkBytes / delivered);
        perInstance.put("total", total);
        return perInstance;
    }

    /** What the instances logged of failover: adoptions of an instance taken for dead, rooms lost to another. */
    private static Map<String, Object> loggedFailover(Path out) throws IOException {
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
    private Map<String, Object> slowestAcks(long fromNanos) {
        double[] slowest = new double[rooms];
        for (RoomsCommand.Sent x : sent) {
            Long ack = acknowledged.get(RoomAcks.key(x.room(), x.seq()));
            if (ack != null && x.atNanos() >= fromNanos) {
                slowest[x.room()] = Math.max(slowest[x.room()], (ack - x.atNanos()) / 1e9);
            }
        }
        double[] sorted = slowest.clone();
        Arrays.sort(sorted);
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("median", sorted.length == 0 ? null : sorted[sorted.length / 2]);
        g.put("max", sorted.length == 0 ? null : sorted[sorted.length - 1]);
        return g;
    }
}
