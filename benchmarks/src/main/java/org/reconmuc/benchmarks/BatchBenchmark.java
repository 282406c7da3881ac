package org.reconmuc.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
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
import org.reconmuc.codec.batch.MalformedBatchException;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.protocol.ForwardedItems;
import org.reconmuc.component.relaxed.FlushForm;
import org.reconmuc.component.relaxed.MessageLog;
import org.reconmuc.component.transport.RenderedStanza;

/**
 * Rendering a flush (DESIGN.md "Where the bandwidth saving really comes from"): per recipient,
 * {@code batchSize} retained messages as one batch stanza in each form — forwarded items plain or
 * deflated on their own (protocol 0.1), compact items plain or in the session's deflate stream
 * (0.2) — rendered by the service's own flush forms ({@code component.relaxed}, through
 * {@link BenchRoom}) to the text the transport writes; beside the baseline of sending each of
 * them on its own (the standard broadcast, and the "no aggregation" delayed copy). Every method
 * handles {@code batchSize} messages per invocation; the {@code :messages} counter is messages
 * per second. Bodies are real IRC lines ({@link IrcCorpus}); the items are cached per log entry
 * as the room caches them ({@link #renderForwarded} measures that one-off cost). Sizes:
 * {@link BatchSizeReport}.
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

    private final BenchRoom room = new BenchRoom(LINES_PER_CHANNEL * 6);
    /** The stream's own room: its deflate stream runs on across invocations, as over a session. */
    private final BenchRoom streamRoom = new BenchRoom(LINES_PER_CHANNEL * 6);
    private List<List<MessageLog.Entry<Occupant>>> batches;
    private List<List<MessageLog.Entry<Occupant>>> streamRoomBatches;
    /** Received batch elements as XML text, as a client's parser hands them to the decoder. */
    private List<String> plainBatches;
    private List<String> deflateBatches;
    private List<String> compactBatches;
    /** One session's deflate stream, batch after batch, as the receiver reads it (the first starts the stream). */
    private List<String> streamBatches;
    private final BatchDecoder decoder = new BatchDecoder();
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
        List<MessageLog.Entry<Occupant>> log = room.logAll(IrcCorpus.load(LINES_PER_CHANNEL));
        List<MessageLog.Entry<Occupant>> streamLog = streamRoom.logAll(IrcCorpus.load(LINES_PER_CHANNEL));
        BenchRoom setUpStream = new BenchRoom(LINES_PER_CHANNEL * 6);
        List<MessageLog.Entry<Occupant>> setUpLog = setUpStream.logAll(IrcCorpus.load(LINES_PER_CHANNEL));
        batches = new ArrayList<>();
        streamRoomBatches = new ArrayList<>();
        plainBatches = new ArrayList<>();
        deflateBatches = new ArrayList<>();
        compactBatches = new ArrayList<>();
        streamBatches = new ArrayList<>();
        for (int from = 0; from + batchSize <= log.size(); from += batchSize) {
            List<MessageLog.Entry<Occupant>> batch = log.subList(from, from + batchSize);
            batches.add(batch);
            streamRoomBatches.add(streamLog.subList(from, from + batchSize));
            plainBatches.add(batchElement(room.batch(Aggregation.PLAIN, batch)));
            deflateBatches.add(batchElement(room.batch(Aggregation.DEFLATE, batch)));
            compactBatches.add(batchElement(room.batch(Aggregation.COMPACT, batch)));
            streamBatches.add(batchElement(setUpStream.batch(Aggregation.COMPACT_DEFLATE, setUpLog.subList(from, from + batchSize))));
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

    /** Baseline: each message on its own, as the standard broadcast sends it to one session (rendered, addressed). */
    @Benchmark
    public void oneByOne(Messages m, Blackhole bh) {
        for (MessageLog.Entry<Occupant> e : batches.get(advance())) {
            bh.consume(BenchRoom.standard(e));
        }
        m.messages += batchSize;
    }

    /** What each further recipient of a broadcast costs: the rendered text addressed to its session. */
    @Benchmark
    public void addressed(Messages m, Blackhole bh, Rendered r) {
        for (RenderedStanza s : r.of(batches.get(advance()))) {
            bh.consume(s.to(BenchRoom.RECIPIENT.session.jid()).xml());
        }
        m.messages += batchSize;
    }

    /** Each batch's messages rendered once (what every recipient of a broadcast shares). */
    @State(Scope.Thread)
    public static class Rendered {
        private final java.util.IdentityHashMap<List<MessageLog.Entry<Occupant>>, List<RenderedStanza>> cache =
                new java.util.IdentityHashMap<>();

        List<RenderedStanza> of(List<MessageLog.Entry<Occupant>> batch) {
            return cache.computeIfAbsent(batch, b -> b.stream().map(e -> RenderedStanza.of(e.broadcast())).toList());
        }
    }

    /** The paper's "no aggregation" flush: each message on its own as a delayed copy. */
    @Benchmark
    public List<String> oneByOneDelayed(Messages m) {
        m.messages += batchSize;
        return room.flush(Aggregation.NONE, batches.get(advance()));
    }

    /** A plain batch as the room sends it: the cached item XML concatenated into the stanza. */
    @Benchmark
    public String plainBatch(Messages m) {
        m.messages += batchSize;
        return room.batch(Aggregation.PLAIN, batches.get(advance()));
    }

    /** The plain batch as it was built before 2026-11-21 (a DOM copy of every item per recipient): that fix's baseline. */
    @Benchmark
    public String plainBatchDom(Messages m) throws DocumentException {
        m.messages += batchSize;
        return plainBatchAsDom(batches.get(advance()));
    }

    /** Every cached {@code <forwarded/>} item deep-copied into a new DOM, then serialised. */
    static String plainBatchAsDom(List<MessageLog.Entry<Occupant>> entries) throws DocumentException {
        Element batch = DocumentHelper.createElement(QName.get(Batch.ELEMENT, Batch.NAMESPACE));
        batch.addAttribute(Batch.COUNT, Integer.toString(entries.size()));
        for (MessageLog.Entry<Occupant> e : entries) {
            batch.add(DocumentHelper.parseText(e.forwardedXml(BenchRoom.ROOM)).getRootElement().createCopy());
        }
        org.xmpp.packet.Message m = new org.xmpp.packet.Message();
        m.setType(org.xmpp.packet.Message.Type.groupchat);
        m.setFrom(BenchRoom.ROOM);
        m.setID(java.util.UUID.randomUUID().toString());
        m.getElement().add(batch);
        m.setTo(BenchRoom.RECIPIENT.session.jid());
        return m.toXML();
    }

    /** A compressed batch ({@code ForwardedFlush}, level 6): the cached item XML deflated, wrapped. */
    @Benchmark
    public String deflateBatch(Messages m) {
        m.messages += batchSize;
        return room.batch(Aggregation.DEFLATE, batches.get(advance()));
    }

    /** As {@link #deflateBatch} at level 1 (fastest), an alternative the service does not use: sizes are in {@link BatchSizeReport}. */
    @Benchmark
    public String deflateBatchLevel1(Messages m) {
        m.messages += batchSize;
        return deflateBatchAtLevel(batches.get(advance()), 1);
    }

    /** A forwarded batch deflated at another level than the service's, in the service's batch message. */
    static String deflateBatchAtLevel(List<MessageLog.Entry<Occupant>> entries, int level) {
        List<String> items = new ArrayList<>(entries.size());
        for (MessageLog.Entry<Occupant> e : entries) {
            items.add(e.forwardedXml(BenchRoom.ROOM));
        }
        return FlushForm.batchMessage(BenchRoom.ROOM, Batch.deflate(items, level), "b")
                .to(BenchRoom.RECIPIENT.session.jid()).xml();
    }

    /** A compact batch ({@code CompactFlush}): the cached compact items with the batch's stanza-id and time steps. */
    @Benchmark
    public String compactBatch(Messages m) {
        m.messages += batchSize;
        return room.batch(Aggregation.COMPACT, batches.get(advance()));
    }

    /**
     * The next batch of one session's deflate stream ({@code StreamFlush}): compact items,
     * compressed against the stream's last 32 KiB, which its window renders again from the log.
     */
    @Benchmark
    public String compactDeflateStream(Messages m) {
        m.messages += batchSize;
        return streamRoom.batch(Aggregation.COMPACT_DEFLATE, streamRoomBatches.get(advance()));
    }

    /** The once-per-log-entry cost the room caches: {@code ForwardedItems.xml}. */
    @Benchmark
    public void renderForwarded(Messages m, Blackhole bh) {
        for (MessageLog.Entry<Occupant> e : batches.get(advance())) {
            bh.consume(ForwardedItems.xml(e.broadcast().getElement(), e.at(), BenchRoom.ROOM));
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
        return decoder.decode(compactBatches.get(advance()), BenchRoom.ROOM);
    }

    /**
     * The client's side of a deflate stream: the session's next batch inflated by its one
     * persistent inflater, then read as a compact batch. After the last batch the stream starts
     * again from its first (numbered 1, a new stream).
     */
    @Benchmark
    public DecodedBatch decodeCompactDeflateStream(Messages m) throws MalformedBatchException {
        m.messages += batchSize;
        return decoder.decode(streamBatches.get(advance()), BenchRoom.ROOM);
    }

    List<List<MessageLog.Entry<Occupant>>> batches() {
        return batches;
    }

    BenchRoom room() {
        return room;
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
