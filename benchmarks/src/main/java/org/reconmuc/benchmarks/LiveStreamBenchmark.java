package org.reconmuc.benchmarks;

import java.util.ArrayList;
import java.util.List;
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
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.relaxed.MessageLog;
import org.reconmuc.component.transport.OutgoingStanza;

/**
 * The live path's price (reconmuc.md §5.9 rule 8.7): a message that goes out at once to every
 * {@code compact-deflate-live} session of a room, each as the next batch of its own deflate stream
 * carrying {@value #BATCH_SIZE} messages (the live one last) — what each session costs when its
 * stream must be primed with its 32-KiB window and compressed. {@code streams}: {@code alike}, every
 * session's stream has sent the same batches (occupants with the same requirements who were
 * never addressed: a room's lurkers); {@code apart}, every stream differs (each was primed with a
 * batch of its own). One invocation is one message's fan-out to {@code sessions} sessions;
 * the {@code :batches} counter is session batches per second. The service's own flush form renders
 * them ({@link BenchRoom#sendLive}); bodies are real IRC lines ({@link IrcCorpus}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class LiveStreamBenchmark {
    static final int BATCH_SIZE = 6;
    /** Messages the priming batches use; the measured batches follow them. */
    static final int PRIMING = 40;
    /** Batches per session before the room starts again (~22 KiB of payload: the window still holds the priming). */
    static final int ROUNDS = 20;

    @Param({"100", "400"})
    public int sessions;

    @Param({"alike", "apart"})
    public String streams;

    private final List<IrcCorpus.Line> lines = IrcCorpus.load(BatchBenchmark.LINES_PER_CHANNEL);
    private BenchRoom room;
    private List<MessageLog.Entry<Occupant>> log;
    private List<Occupant> occupants;
    private int next;

    /** Session batches sent, as a rate. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Batches {
        public long batches;

        @Setup(Level.Iteration)
        public void reset() {
            batches = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        occupants = new ArrayList<>(sessions);
        for (int i = 0; i < sessions; i++) {
            occupants.add(new Occupant(i));
        }
        start();
    }

    /**
     * A new room whose streams have each sent one batch of two priming messages: the same two for
     * everyone ({@code alike}), or a pair of their own ({@code apart}: up to 400 distinct pairs).
     */
    private void start() {
        room = new BenchRoom(lines.size());
        log = room.logAll(lines);
        for (Occupant o : occupants) {
            int a = "alike".equals(streams) ? 0 : o.index % 20;
            int b = "alike".equals(streams) ? 20 : 20 + (o.index / 20) % 20;
            room.sendLive(Aggregation.COMPACT_DEFLATE_LIVE, o, List.of(log.get(a), log.get(b)));
        }
        room.endTurn();
        next = PRIMING;
    }

    /**
     * A new room (outside the measured time) after {@value #ROUNDS} messages: before the priming
     * batches leave the streams' 32-KiB windows, so apart streams stay apart.
     */
    @Setup(Level.Invocation)
    public void startAgainAtTheEnd() {
        if (next >= PRIMING + ROUNDS * BATCH_SIZE) {
            start();
        }
    }

    /** Payloads the room's streams compressed so far (for the sanity test). */
    long compressions() {
        return room.streams().compressions();
    }

    /**
     * Every session gets the next message at once, with the messages retained since its last
     * batch, as text addressed to it (returned: JMH consumes it, the sanity test reads it).
     */
    @Benchmark
    public List<String> messageToEverySession(Batches counters) {
        List<MessageLog.Entry<Occupant>> batch = log.subList(next, next + BATCH_SIZE);
        next += BATCH_SIZE;
        List<String> sent = new ArrayList<>(occupants.size());
        for (Occupant o : occupants) {
            for (OutgoingStanza s : room.sendLive(Aggregation.COMPACT_DEFLATE_LIVE, o, batch)) {
                sent.add(s.xml());
            }
        }
        room.endTurn();
        counters.batches += occupants.size();
        return sent;
    }
}
