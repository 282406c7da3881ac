package org.reconmuc.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
import org.reconmuc.component.consistency.Delivery;

/**
 * The consistency engine's cost per groupchat message as the room grows (DESIGN.md "Retained
 * messages are pointers": the cost of a message should be proportional to who receives
 * something now, not to the size of the room).
 *
 * <p>One invocation = one message of {@link RelaxedRoom}'s workload: the time bounds that came
 * due since the previous message ({@code onTime}), then {@code onMessage}, every delivery
 * consumed by a Blackhole. In steady state every message is eventually delivered to every
 * occupant — at once or inside a flush — so delivered items per message ≈ occupants: that
 * output is inherent, and {@link DeliveryCounters} reports the time per delivery and per item
 * beside the time per message. Compare with {@link StandardBroadcastBenchmark} from the same run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
public class EngineMessageBenchmark {
    /** Messages posted in setup before measuring: past the history span and the 60 s time bound. */
    static final int WARM_UP_MESSAGES = 1_200;

    @Param({"1000", "10000", "100000"})
    public int occupants;

    @Param({"FILTERED", "UNFILTERED"})
    public RelaxedRoom.Topics topics;

    @Param({"6"})
    public double messagesPerSecond;

    private RelaxedRoom room;
    private final List<Delivery<Occupant>> out = new ArrayList<>();

    @Setup(Level.Trial)
    public void setUp() {
        room = new RelaxedRoom(RelaxedRoom.Config.of(occupants, topics).withMessagesPerSecond(messagesPerSecond));
        room.warmUp(WARM_UP_MESSAGES);
    }

    @Benchmark
    public void message(DeliveryCounters counters, Blackhole bh) {
        room.post(out);
        counters.consume(out, bh);
        out.clear();
    }

    RelaxedRoom room() {
        return room;
    }
}
