package org.reconmuc.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.ConsistencyEngine;
import org.reconmuc.component.consistency.Delivery;
import org.reconmuc.component.consistency.FilterKey;
import org.reconmuc.component.consistency.Reader;
import org.reconmuc.component.consistency.Requirements;

/**
 * Retained state per relaxed occupant in bytes, measured with JOL (not a JMH benchmark):
 *
 * <ol>
 *   <li>the {@link Reader} object itself, with nothing early, at volume 1 and 60 (the same
 *       whatever the volume), and its {@link Requirements} when not shared;</li>
 *   <li>a Reader with a few early deliveries (bits after its cursor, in the reader itself for a
 *       history of up to 129 messages);</li>
 *   <li>the whole engine's footprint divided by N, after a warm-up of messages
 *       ({@link RelaxedRoom}'s workload), for N = 1,000 / 10,000 / 100,000, at volume 1, 60 and
 *       uniform 1–60, with one {@code Requirements} per occupant (what the room does today:
 *       {@code RoomRequirements.merge} makes a new one per request) and shared between equal
 *       requirements. The occupants (the room's objects) are subtracted; everything else the
 *       engine reaches counts — its history arrays, the filter index, buckets and timers
 *       including stale entries.</li>
 * </ol>
 *
 * <p>{@code java -Xmx6g -Djdk.attach.allowAttachSelf=true -cp benchmarks/target/benchmarks.jar
 * org.reconmuc.benchmarks.FootprintReport [N...]}
 */
public final class FootprintReport {
    static final int WARM_UP_MESSAGES = EngineMessageBenchmark.WARM_UP_MESSAGES;

    private FootprintReport() {
    }

    public static void main(String[] args) {
        // Records (Requirements, FilterKey) refuse Unsafe.objectFieldOffset; JOL then finds offsets its own way.
        if (System.getProperty("jol.magicFieldOffset") == null) {
            System.setProperty("jol.magicFieldOffset", "true");
        }
        int[] sizes = args.length == 0 ? new int[] {1_000, 10_000, 100_000}
                : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        System.out.println(VM.current().details());
        System.out.println(ClassLayout.parseClass(Reader.class).toPrintable());

        System.out.println("## 1. One Reader, nothing early");
        System.out.println("| volume | Reader alone B | + its own Requirements graph B |");
        System.out.println("|---:|---:|---:|");
        for (int volume : new int[] {1, 60}) {
            ConsistencyEngine<Occupant> engine = new ConsistencyEngine<>(RelaxedRoom.CAPACITY);
            Occupant owner = new Occupant(0);
            Requirements r = new Requirements(Set.of(FilterKey.topic(new String("ubuntu".toCharArray()))),
                    RelaxedRoom.TIME_MILLIS, volume, Aggregation.PLAIN);
            Reader<Occupant> reader = engine.relax(owner, r);
            System.out.printf(Locale.ROOT, "| %d | %d | %d |%n", volume, readerAlone(reader),
                    readerAlone(reader) + GraphLayout.parseInstance(reader.requirements()).totalSize());
        }
        System.out.println();

        System.out.println("## 2. One Reader with early deliveries (volume 60; one message retained, then k delivered at once)");
        System.out.println("| early k | Reader + spilled bits B |");
        System.out.println("|---:|---:|");
        for (int k : new int[] {0, 1, 3, 10}) {
            System.out.printf(Locale.ROOT, "| %d | %d |%n", k, readerAlone(readerWithEarly(k)));
        }
        System.out.println();

        System.out.println("## 3. Whole engine / N after " + WARM_UP_MESSAGES + " messages (FILTERED workload, 6 msg/s, capacity "
                + RelaxedRoom.CAPACITY + "; occupants subtracted)");
        System.out.println("Per occupant: readers filed in the engine's trigger buckets, and entries in its timer queue"
                + " (live = still meaningful; the rest are stale entries waiting to be skipped). Timers hold no reader.");
        System.out.println("| N | volume | time | Requirements | engine B/occupant | Reader+spill B/occ | early/occ"
                + " | bucket entries/occ | timer entries/occ (live) |");
        System.out.println("|---:|---|---:|---|---:|---:|---:|---:|---:|");
        GraphLayout largest = null;
        // {min volume, max volume, time seconds, shared requirements (1/0), largest N to run it at}
        int[][] variants = {
            {1, 1, 60, 0, Integer.MAX_VALUE},
            {60, 60, 60, 0, Integer.MAX_VALUE},
            {1, 60, 60, 0, Integer.MAX_VALUE},
            {1, 60, 60, 1, Integer.MAX_VALUE},
            {1, 60, 600, 0, 10_000},
            {1, 1, 600, 0, 10_000},
        };
        for (int n : sizes) {
            for (int[] v : variants) {
                if (n > v[4]) {
                    continue;
                }
                boolean shared = v[3] == 1;
                RelaxedRoom room = new RelaxedRoom(RelaxedRoom.Config.of(n, RelaxedRoom.Topics.FILTERED)
                        .withVolume(v[0], v[1]).withTimeMillis(v[2] * 1000L).withSharedRequirements(shared));
                // Past the time bound too, so its timers are in their steady state.
                room.warmUp(Math.max(WARM_UP_MESSAGES, (int) (v[2] * room.config().messagesPerSecond() * 1.5)));
                GraphLayout engine = GraphLayout.parseInstance(room.engine())
                        .subtract(GraphLayout.parseInstance((Object) room.occupants()));
                long readersBytes = 0;
                long early = 0;
                for (Reader<Occupant> r : room.readers()) {
                    readersBytes += readerAlone(r);
                    early += r.earlyCount();
                }
                ConsistencyEngine.Holdings held = room.engine().holdings();
                System.out.printf(Locale.ROOT, "| %,d | %s | %d s | %s | %,.1f | %.1f | %.2f | %.2f | %.2f (%.2f) |%n", n,
                        v[0] == v[1] ? Integer.toString(v[0]) : v[0] + "-" + v[1], v[2],
                        shared ? "shared" : "one per occupant",
                        (double) engine.totalSize() / n, (double) readersBytes / n, (double) early / n,
                        (double) held.bucketEntries() / n,
                        (double) held.timers() / n, (double) held.liveTimers() / n);
                if (n == sizes[sizes.length - 1] && v[0] == 1 && v[1] == 60 && v[2] == 60 && !shared) {
                    largest = engine;
                }
            }
        }
        if (largest != null) {
            System.out.println();
            System.out.println("## 4. Where the bytes are: N = " + sizes[sizes.length - 1]
                    + ", volume 1-60, one Requirements per occupant (JOL footprint, by class)");
            System.out.println("```");
            System.out.println(largest.toFootprint());
            System.out.println("```");
        }
    }

    /**
     * The Reader and its spilled early bits: what exists per occupant beyond its Requirements.
     * Shallow sizes, because a reader's list links lead to its neighbours, which are counted on
     * their own.
     */
    static long readerAlone(Reader<Occupant> reader) {
        long size = ClassLayout.parseInstance(reader).instanceSize();
        int words = reader.spilledWords();
        return words == 0 ? size : size + ClassLayout.parseInstance(new long[words]).instanceSize();
    }

    static Reader<Occupant> readerWithEarly(int k) {
        ConsistencyEngine<Occupant> engine = new ConsistencyEngine<>(RelaxedRoom.CAPACITY);
        Reader<Occupant> reader = engine.relax(new Occupant(0),
                new Requirements(Set.of(FilterKey.topic("ubuntu")), RelaxedRoom.TIME_MILLIS, 60, Aggregation.PLAIN));
        List<Delivery<Occupant>> out = new ArrayList<>();
        long t = 1_000_000;
        engine.onMessage(1, t, 0, Set.of(FilterKey.topic("linux")), List.of(), out);
        for (int i = 0; i < k; i++) {
            engine.onMessage(2 + i, t, 0, Set.of(FilterKey.topic("ubuntu")), List.of(), out);
        }
        return reader;
    }
}
