package org.reconmuc.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.Delivery;
import org.reconmuc.component.relaxed.MessageLog;

/**
 * Runs each benchmark method a few times, small, for correctness only (no timing): deliveries
 * happen, batches decode to what went in. Benchmarks themselves never run in the build.
 */
class BenchmarksSanityTest {
    private static final Blackhole BH = new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

    @Test
    void theRelaxedRoomDeliversEveryMessageToEveryOccupantExactlyOnce() {
        RelaxedRoom room = new RelaxedRoom(RelaxedRoom.Config.of(300, RelaxedRoom.Topics.FILTERED));
        long[] received = new long[300];
        List<Delivery<Occupant>> out = new ArrayList<>();
        int messages = 600;
        for (int i = 0; i < messages; i++) {
            room.post(out);
            for (Delivery<Occupant> d : out) {
                received[d.owner().index] += d.seqs().length;
            }
            out.clear();
        }
        long head = room.engine().head();
        for (int o = 0; o < received.length; o++) {
            long retained = room.engine().retainedSeqs(room.readers().get(o)).length;
            // Each reader was relaxed before the first message: received + retained = every message.
            assertThat(received[o] + retained).as("occupant %d", o).isEqualTo(head);
        }
    }

    @Test
    void eachEngineBenchmarkProducesNowAndFlushDeliveries() {
        for (RelaxedRoom.Topics topics : RelaxedRoom.Topics.values()) {
            EngineMessageBenchmark b = new EngineMessageBenchmark();
            b.occupants = 1_000;
            b.topics = topics;
            b.messagesPerSecond = 6;
            b.setUp();
            DeliveryCounters c = new DeliveryCounters();
            c.reset();
            for (int i = 0; i < 50; i++) {
                b.message(c, BH);
            }
            assertThat(c.nowDelivery).as(topics + " NOW").isPositive();
            assertThat(c.flushDelivery).as(topics + " FLUSH").isPositive();
            // Steady state: ~every message reaches every occupant, at once or in a flush.
            assertThat(c.item / 50.0).as(topics + " items per message").isBetween(700.0, 1300.0);
            if (topics == RelaxedRoom.Topics.FILTERED) {
                assertThat(c.nowDelivery / 50.0).as("immediate fan-out ~ 1/6").isBetween(100.0, 250.0);
            } else {
                assertThat(c.nowDelivery / 50.0).as("only direct recipients").isLessThan(3.0);
            }
        }
    }

    @Test
    void theLiveStreamBenchmarkSendsEverySessionABatchCompressedOnceForAlikeStreamsAndApartForTheOthers()
            throws Exception {
        for (String streams : List.of("alike", "apart")) {
            LiveStreamBenchmark b = new LiveStreamBenchmark();
            b.sessions = 40;
            b.streams = streams;
            b.setUp();
            LiveStreamBenchmark.Batches c = new LiveStreamBenchmark.Batches();
            c.reset();
            for (int i = 0; i < 50; i++) {   // past ROUNDS: the room starts again
                b.startAgainAtTheEnd();
                long compressions = b.compressions();
                List<String> sent = b.messageToEverySession(c);
                assertThat(sent).hasSize(40);
                assertThat(b.compressions() - compressions).as(streams).isEqualTo("alike".equals(streams) ? 1 : 40);
            }
            assertThat(c.batches).isEqualTo(50 * 40);
        }
    }

    @Test
    void theStandardBaselineDeliversToEveryOccupant() {
        StandardBroadcastBenchmark b = new StandardBroadcastBenchmark();
        b.occupants = 1_000;
        b.setUp();
        StandardBroadcastBenchmark.BroadcastCounters c = new StandardBroadcastBenchmark.BroadcastCounters();
        b.message(c, BH);
        assertThat(c.delivery).isEqualTo(1_000);
    }

    @Test
    void eachBatchBenchmarkRunsAndBatchesDecodeToTheirItems() throws Exception {
        BatchBenchmark b = batchesOfTen();
        BatchBenchmark.Messages m = new BatchBenchmark.Messages();
        b.oneByOne(m, BH);
        assertThat(b.oneByOneDelayed(m)).hasSize(10);
        String plain = b.plainBatch(m);
        String deflate = b.deflateBatch(m);
        b.renderForwarded(m, BH);
        assertThat(b.decodePlain(m).items()).hasSize(10);
        assertThat(b.decodeDeflate(m).items()).hasSize(10);
        assertThat(items(DocumentHelper.parseText(b.deflateBatchLevel1(m)).getRootElement()
                .element(Batch.ELEMENT).asXML())).hasSize(10);
        assertThat(m.messages).isEqualTo(80);

        // The room's concatenated batch carries the same batch as the old DOM path (empty
        // elements aside, which the DOM path may write as <x></x>).
        List<MessageLog.Entry<Occupant>> first = b.batches().get(0);
        String viaDom = BatchBenchmark.plainBatchAsDom(first);
        String concatenated = b.room().batch(Aggregation.PLAIN, first);
        assertThat(normalized(batchOf(concatenated))).isEqualTo(normalized(batchOf(viaDom)));

        for (String stanza : List.of(plain, deflate)) {
            Element batch = DocumentHelper.parseText(stanza).getRootElement().element(Batch.ELEMENT);
            List<Element> items = items(batch.asXML());
            assertThat(items).hasSize(10);
            assertThat(items.get(0).element("message").elementText("body")).isNotBlank();
        }
        // The decoded items of each prepared batch are the cached <forwarded/> items, in order.
        for (int i = 0; i < b.batches().size(); i++) {
            List<MessageLog.Entry<Occupant>> entries = b.batches().get(i);
            List<Element> plainItems = items(b.plainBatches().get(i));
            List<Element> deflateItems = items(b.deflateBatches().get(i));
            for (int j = 0; j < entries.size(); j++) {
                String body = entries.get(j).broadcast().getBody();
                assertThat(plainItems.get(j).element("message").elementText("body")).isEqualTo(body);
                assertThat(deflateItems.get(j).element("message").elementText("body")).isEqualTo(body);
            }
        }
    }

    @Test
    void compactAndStreamBatchesCarryTheSameMessagesInFewerBytes() throws Exception {
        BatchBenchmark b = batchesOfTen();
        BatchBenchmark.Messages m = new BatchBenchmark.Messages();
        // JMH gives each benchmark method a state of its own: the stream's first batch comes first.
        BatchBenchmark streamState = batchesOfTen();
        assertThat(streamState.decodeCompactDeflateStream(m).items()).hasSize(10);
        assertThat(b.decodeCompact(m).items()).hasSize(10);
        assertThat(b.compactBatch(m)).contains("form=\"compact\"");
        assertThat(b.compactDeflateStream(m)).contains("encoding=\"deflate-stream\"");
        assertThat(m.messages).isEqualTo(40);

        // Every batch of the stream in order through one decoder, as one session receives them: each
        // compact item expands to the forwarded item the room caches for the same message.
        BatchDecoder session = new BatchDecoder();
        long compactBytes = 0;
        long plainBytes = 0;
        for (int i = 0; i < b.batches().size(); i++) {
            List<String> plain = new BatchDecoder().decode(b.plainBatches().get(i)).items();
            List<String> compact = new BatchDecoder().decode(b.compactBatches().get(i), BenchRoom.ROOM).items();
            List<String> streamed = session.decode(b.streamBatches().get(i), BenchRoom.ROOM).items();
            assertThat(compact).hasSameSizeAs(plain);
            for (int j = 0; j < plain.size(); j++) {
                Element expected = DocumentHelper.parseText(plain.get(j)).getRootElement();
                for (String item : List.of(compact.get(j), streamed.get(j))) {
                    Element actual = DocumentHelper.parseText(item).getRootElement();
                    assertThat(actual.element("message").attributeValue("from")).isEqualTo(expected.element("message").attributeValue("from"));
                    assertThat(actual.element("message").elementText("body")).isEqualTo(expected.element("message").elementText("body"));
                    assertThat(actual.element("message").element("stanza-id").attributeValue("id"))
                            .isEqualTo(expected.element("message").element("stanza-id").attributeValue("id"));
                }
            }
            compactBytes += b.compactBatches().get(i).length();
            plainBytes += b.plainBatches().get(i).length();
        }
        assertThat(compactBytes).isLessThan(plainBytes);
    }

    private static BatchBenchmark batchesOfTen() throws Exception {
        BatchBenchmark b = new BatchBenchmark();
        b.batchSize = 10;
        b.setUp();
        return b;
    }

    private static String normalized(String xml) {
        return xml.replaceAll("<([^<>/ ]+)([^<>]*)></\\1>", "<$1$2/>");
    }

    private static String batchOf(String stanza) throws Exception {
        return DocumentHelper.parseText(stanza).getRootElement().element(Batch.ELEMENT).asXML();
    }

    /** The items of a batch as the codec decodes them, parsed. */
    private static List<Element> items(String batchXml) throws Exception {
        List<Element> items = new ArrayList<>();
        for (String item : new BatchDecoder().decode(batchXml).items()) {
            items.add(DocumentHelper.parseText(item).getRootElement());
        }
        return items;
    }

    @Test
    void theCorpusHasTheSixChannelsWithRealBodies() {
        List<IrcCorpus.Line> lines = IrcCorpus.load(20);
        assertThat(lines).hasSize(120);
        assertThat(lines).extracting(IrcCorpus.Line::topic).containsAll(List.of(RelaxedRoom.TOPICS));
        assertThat(lines).allSatisfy(l -> assertThat(l.body()).isNotBlank().doesNotContain("\u0003"));
    }
}
