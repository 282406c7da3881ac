package org.reconmuc.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
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
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.DecodedBatch;
import org.reconmuc.codec.batch.DeflateStream;
import org.reconmuc.codec.batch.MalformedBatchException;
import org.reconmuc.component.protocol.ForwardedItems;

/**
 * Rendering a flush (DESIGN.md "Where the bandwidth saving really comes from"): per recipient,
 * {@code batchSize} retained messages as one batch stanza in each form — forwarded items plain or
 * deflated on their own (protocol 0.1), compact items plain or in the session's deflate stream
 * (0.2) — built and serialised to the String the transport writes; beside the baseline of
 * sending each of them on its own (the standard broadcast, and the "no aggregation" delayed
 * copy). Every method handles {@code batchSize} messages per invocation; the {@code :messages}
 * counter is messages per second. Bodies are real IRC lines ({@link IrcCorpus}); the
 * {@code <forwarded/>} items are pre-rendered, as the room caches them per history entry
 * ({@link #renderForwarded} measures that one-off cost). Sizes: {@link BatchSizeReport}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class BatchBenchmark {
    /** {@code ForwardedFlush.DEFLATE_LEVEL}. */
    public static final int DEFLATE_LEVEL = 6;
    /** Lines per channel loaded at setup: 6 × 100 messages. */
    static final int LINES_PER_CHANNEL = 100;

    @Param({"10", "30", "60"})
    public int batchSize;

    private List<List<RoomStanzas.Entry>> batches;
    /** Received batch elements as XML text, as a client's parser hands them to the decoder. */
    private List<String> plainBatches;
    private List<String> deflateBatches;
    private List<String> compactBatches;
    /** One session's deflate stream, batch after batch, as the receiver reads it (the first starts the stream). */
    private List<String> streamBatches;
    private final BatchDecoder decoder = new BatchDecoder();
    /** The sending side of one session's stream, running on across invocations as it does over a session. */
    private final DeflateStream stream = new DeflateStream();
    /** The room's one compressor, shared by every session's stream ({@code DeflateStreams}). */
    private final Deflater deflater = new Deflater(DEFLATE_LEVEL, true);
    private int next;

    /** Messages handled, as a rate: messages per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Messages {
        public long messages;

        @Setup(Level.Iteration)
        public void reset() {
            messages = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws DocumentException {
        List<RoomStanzas.Entry> history = RoomStanzas.history(IrcCorpus.load(LINES_PER_CHANNEL));
        batches = new ArrayList<>();
        plainBatches = new ArrayList<>();
        deflateBatches = new ArrayList<>();
        compactBatches = new ArrayList<>();
        streamBatches = new ArrayList<>();
        DeflateStream setUpStream = new DeflateStream();
        for (int from = 0; from + batchSize <= history.size(); from += batchSize) {
            List<RoomStanzas.Entry> batch = history.subList(from, from + batchSize);
            batches.add(batch);
            plainBatches.add(batchElement(RoomStanzas.plainBatch(batch)));
            deflateBatches.add(batchElement(RoomStanzas.deflateBatch(batch, DEFLATE_LEVEL)));
            compactBatches.add(batchElement(RoomStanzas.compactBatch(batch)));
            streamBatches.add(batchElement(RoomStanzas.compactStreamBatch(batch, setUpStream, deflater)));
        }
    }

    private static String batchElement(String stanzaXml) throws DocumentException {
        return DocumentHelper.parseText(stanzaXml).getRootElement().element(Batch.ELEMENT).asXML();
    }

    private int advance() {
        int i = next;
        next = i + 1 == batches.size() ? 0 : i + 1;
        return i;
    }

    /** Baseline: each message on its own, as the standard broadcast sends it (set {@code to}, serialise). */
    @Benchmark
    public void oneByOne(Messages m, Blackhole bh) {
        for (RoomStanzas.Entry e : batches.get(advance())) {
            bh.consume(RoomStanzas.oneByOne(e));
        }
        m.messages += batchSize;
    }

    /** The paper's "no aggregation" flush: each message on its own as a delayed copy. */
    @Benchmark
    public void oneByOneDelayed(Messages m, Blackhole bh) {
        for (RoomStanzas.Entry e : batches.get(advance())) {
            bh.consume(RoomStanzas.oneByOneDelayed(e));
        }
        m.messages += batchSize;
    }

    /** A plain batch as the room sends it: the cached item XML concatenated into the stanza. */
    @Benchmark
    public String plainBatch(Messages m) {
        m.messages += batchSize;
        return RoomStanzas.plainBatch(batches.get(advance()));
    }

    /** The plain batch as it was built before (a DOM copy of every item per recipient): the fix's baseline. */
    @Benchmark
    public String plainBatchDom(Messages m) {
        m.messages += batchSize;
        return RoomStanzas.plainBatchDom(batches.get(advance()));
    }

    /** A compressed batch: the codec's {@code Batch.deflate} (level 6) of the cached item XML, wrapped, serialised. */
    @Benchmark
    public String deflateBatch(Messages m) {
        m.messages += batchSize;
        return RoomStanzas.deflateBatch(batches.get(advance()), DEFLATE_LEVEL);
    }

    /** As {@link #deflateBatch} at level 1 (fastest): sizes are in {@link BatchSizeReport}. */
    @Benchmark
    public String deflateBatchLevel1(Messages m) {
        m.messages += batchSize;
        return RoomStanzas.deflateBatch(batches.get(advance()), 1);
    }

    /** A compact batch ({@code CompactFlush}): the cached compact items with the batch's stanza-id and time steps. */
    @Benchmark
    public String compactBatch(Messages m) {
        m.messages += batchSize;
        return RoomStanzas.compactBatch(batches.get(advance()));
    }

    /**
     * The next batch of one session's deflate stream ({@code StreamFlush}): compact items,
     * compressed against the stream's last 32 KiB (the shared compressor reset and primed with it).
     */
    @Benchmark
    public String compactDeflateStream(Messages m) {
        m.messages += batchSize;
        return RoomStanzas.compactStreamBatch(batches.get(advance()), stream, deflater);
    }

    /** The once-per-history-entry cost the room caches: {@code ForwardedItems.xml}. */
    @Benchmark
    public void renderForwarded(Messages m, Blackhole bh) {
        for (RoomStanzas.Entry e : batches.get(advance())) {
            bh.consume(ForwardedItems.xml(e.broadcast().getElement(), e.at(), RoomStanzas.ROOM));
        }
        m.messages += batchSize;
    }

    /** The client's side: the codec's strict {@code BatchDecoder.decode} of a received plain batch. */
    @Benchmark
    public DecodedBatch decodePlain(Messages m) throws MalformedBatchException {
        m.messages += batchSize;
        return decoder.decode(plainBatches.get(advance()));
    }

    /** The client's side: {@code BatchDecoder.decode} of a received compressed batch (inflate, parse). */
    @Benchmark
    public DecodedBatch decodeDeflate(Messages m) throws MalformedBatchException {
        m.messages += batchSize;
        return decoder.decode(deflateBatches.get(advance()));
    }

    /** The client's side: {@code BatchDecoder.decode} of a received compact batch (items expanded to forwarded messages). */
    @Benchmark
    public DecodedBatch decodeCompact(Messages m) throws MalformedBatchException {
        m.messages += batchSize;
        return decoder.decode(compactBatches.get(advance()), RoomStanzas.ROOM);
    }

    /**
     * The client's side of a deflate stream: the session's next batch inflated by its one
     * persistent inflater, then read as a compact batch. After the last batch the stream starts
     * again from its first (numbered 1, a new stream).
     */
    @Benchmark
    public DecodedBatch decodeCompactDeflateStream(Messages m) throws MalformedBatchException {
        m.messages += batchSize;
        return decoder.decode(streamBatches.get(advance()), RoomStanzas.ROOM);
    }

    List<List<RoomStanzas.Entry>> batches() {
        return batches;
    }

    List<String> plainBatches() {
        return plainBatches;
    }

    List<String> deflateBatches() {
        return deflateBatches;
    }

    List<String> compactBatches() {
        return compactBatches;
    }

    List<String> streamBatches() {
        return streamBatches;
    }
}
