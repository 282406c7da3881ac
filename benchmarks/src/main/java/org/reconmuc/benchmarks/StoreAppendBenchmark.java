package org.reconmuc.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.reconmuc.component.relaxed.MessageLog;
import org.reconmuc.component.store.ArchivedMessage;
import org.reconmuc.component.store.RoomJournal;
import org.reconmuc.component.store.RoomRecord;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.config.StoreLocation;

/**
 * The cost of keeping a room's messages (component/.../store): appending {@code n} messages to a
 * persistent room's archive and committing them as one transaction, as the store's writer does
 * with whatever queued up (group commit). SQLite (the default: WAL, {@code synchronous=NORMAL})
 * and H2 ({@code WRITE_DELAY=0}) side by side, on a file in {@code java.io.tmpdir} (run it on the
 * disk the service would use: {@code -Djava.io.tmpdir=…}). Each method appends a batch of one
 * size; the score is the time per message (batch time / n). Real IRC lines as bodies, stored as
 * the room stores them (stanza-id, from the occupant JID, topic).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class StoreAppendBenchmark {
    private static final String ROOM = BenchRoom.ROOM;

    @Param({"sqlite", "h2"})
    public String store;

    private Path dir;
    private Store opened;
    private RoomJournal journal;
    private List<MessageLog.Entry<Occupant>> lines;
    private long seq;

    @Setup(Level.Trial)
    public void open() throws Exception {
        dir = Files.createTempDirectory("reconmuc-store-bench-");
        String where = store.equals("sqlite") ? "sqlite:" + dir.resolve("rooms.db") : "h2:" + dir.resolve("rooms");
        opened = Store.openWithoutThreads(StoreLocation.parse(where));
        journal = opened.journal(ROOM, p -> { });
        journal.save(new RoomRecord(ROOM, "<x xmlns='jabber:x:data' type='form'/>", null, null, null, Map.of(), Map.of()));
        opened.commitQueued();
        lines = new BenchRoom(600).logAll(IrcCorpus.load(100));
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        opened.close();
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Appends {@code n} messages and commits them in one transaction. */
    private void appendAndCommit(int n) {
        for (int i = 0; i < n; i++) {
            MessageLog.Entry<Occupant> e = lines.get((int) (seq % lines.size()));
            seq++;
            journal.archive(new ArchivedMessage(seq, "bench-" + seq, e.at(), e.broadcast().getFrom().getResource(),
                    "someone@example.org", e.broadcast().toXML()));
        }
        opened.commitQueued();
    }

    /** One message per commit: a quiet service, where every message is a transaction of its own. */
    @Benchmark
    @OperationsPerInvocation(1)
    public void batchOf1() {
        appendAndCommit(1);
    }

    /** 16 messages per commit: a busy room (hundreds of messages a second, ~10 ms commits). */
    @Benchmark
    @OperationsPerInvocation(16)
    public void batchOf16() {
        appendAndCommit(16);
    }

    /** 128 messages per commit: the store catching up after a stall. */
    @Benchmark
    @OperationsPerInvocation(128)
    public void batchOf128() {
        appendAndCommit(128);
    }
}
