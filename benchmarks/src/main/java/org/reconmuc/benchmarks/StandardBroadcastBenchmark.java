package org.reconmuc.benchmarks;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Baseline for {@link EngineMessageBenchmark}: the same N occupants in standard mode. A room
 * serves them with a plain loop ({@code relaxed.Fanout.post}: {@code for (O o : standard)
 * room.send(o, rendered)}); this is that loop over the same kind of {@code LinkedHashSet}, one
 * delivery per occupant per message, each consumed by a Blackhole. It leaves out what sending
 * then does per recipient (the rendered text addressed to the session): that is measured by
 * {@link BatchBenchmark#addressed}, so this is a lower bound of the standard cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
public class StandardBroadcastBenchmark {

    @Param({"1000", "10000", "100000"})
    public int occupants;

    private final Set<Occupant> standard = new LinkedHashSet<>();

    /** ns per delivery (= per delivered item: one message each), over the measured invocations. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class BroadcastCounters {
        public long delivery;
        public long messageOrItem;

        @Setup(Level.Iteration)
        public void reset() {
            delivery = messageOrItem = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        for (int i = 0; i < occupants; i++) {
            standard.add(new Occupant(i));
        }
    }

    @Benchmark
    public void message(BroadcastCounters counters, Blackhole bh) {
        for (Occupant o : standard) {
            bh.consume(o.session);
        }
        counters.delivery += standard.size();
        counters.messageOrItem += 1 + standard.size();
    }
}
