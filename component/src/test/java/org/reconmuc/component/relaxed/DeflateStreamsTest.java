package org.reconmuc.component.relaxed;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.BatchEncoding;
import org.reconmuc.codec.batch.CompactItem;
import org.reconmuc.codec.batch.DeflateStream;
import org.reconmuc.component.jid.RealJid;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;

/**
 * A session's deflate stream kept as pointers into the history ({@link StreamWindow}): the same
 * bytes as a stream that keeps a copy of its window, while the items are known; a valid, shorter
 * dictionary once they are not; a few dozen bytes per session.
 */
class DeflateStreamsTest {
    private static final String ROOM = "lobby@muc.example";
    private static final RealJid ALICE = new RealJid(new JID("alice@wonderland.lit/laptop"));
    private static final Instant T0 = Instant.parse("2026-11-24T12:00:00Z");
    private static final String[] WORDS = {"gossip", "movie", "Almodóvar", "tonight", "anyone", "balcony", "did",
        "you", "hear", "the", "new", "film", "is", "out", "#gossip", "#movies", "lol", "really", "wherefore", "art"};

    private final SplittableRandom random = new SplittableRandom(18);
    private final DeflateStreams streams = new DeflateStreams();

    private MessageLog.Entry<Object> log(MessageLog<Object> history, int i) {
        Message m = new Message();
        m.setType(Message.Type.groupchat);
        m.setFrom(ROOM + "/nick" + random.nextInt(40));
        m.setID("m" + i);
        StringBuilder body = new StringBuilder();
        for (int w = 0, n = 3 + random.nextInt(20); w < n; w++) {
            body.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        m.setBody(body.toString().trim());
        return history.log(m, T0.plusSeconds(i), null);
    }

    /** The deflate-stream batch the service sends Alice for these entries. */
    private String batch(MessageLog<Object> history, List<MessageLog.Entry<Object>> entries) {
        return batch(streams, history, entries, BatchEncoding.DEFLATE_STREAM, false);
    }

    /** The batch of Alice's stream in {@code encoding}, its last item live when {@code live} (a live stream only). */
    private static String batch(DeflateStreams streams, MessageLog<Object> history, List<MessageLog.Entry<Object>> entries,
            BatchEncoding encoding, boolean live) {
        List<CompactItem> items = itemsOf(history, entries);
        return streams.batch(ALICE, entries, items, Batch.streamPayload(items, encoding, live), encoding, live, history);
    }

    private static List<CompactItem> itemsOf(MessageLog<Object> history, List<MessageLog.Entry<Object>> entries) {
        List<CompactItem> items = new ArrayList<>();
        for (MessageLog.Entry<Object> e : entries) {
            items.add(history.compactItem(e));
        }
        return items;
    }

    @Test
    void whileItsItemsAreKnownTheStreamIsByteForByteOneThatKeepsACopyOfItsWindow() throws Exception {
        whileItsItemsAreKnownTheStreamIsByteForByteOneThatKeepsACopyOfItsWindow(BatchEncoding.DEFLATE_STREAM);
    }

    @Test
    void soIsALiveStreamWhoseBatchesEndLiveOrNot() throws Exception {
        whileItsItemsAreKnownTheStreamIsByteForByteOneThatKeepsACopyOfItsWindow(BatchEncoding.DEFLATE_LIVE);
    }

    private void whileItsItemsAreKnownTheStreamIsByteForByteOneThatKeepsACopyOfItsWindow(BatchEncoding encoding)
            throws Exception {
        DeflateStreams streams = new DeflateStreams();
        MessageLog<Object> history = new MessageLog<>(100, new StanzaIds(), ROOM);
        DeflateStream copyKeeping = new DeflateStream();
        Deflater deflater = new Deflater(6, true);
        BatchDecoder alicesClient = new BatchDecoder();
        int seq = 0;
        for (int round = 0; round < 60; round++) {
            List<MessageLog.Entry<Object>> batch = new ArrayList<>();
            for (int k = 0, n = 1 + random.nextInt(40); k < n; k++) {
                MessageLog.Entry<Object> e = log(history, ++seq);
                if (random.nextInt(6) != 0) {   // a sixth went to Alice at once: not in her batch
                    batch.add(e);
                }
            }
            if (batch.isEmpty()) {
                continue;
            }
            // In a live stream every third batch ends with a message sent at once (a live item): the
            // window renders it again with its mark and its epoch-timed first item, or the
            // dictionary would stop there.
            boolean live = encoding == BatchEncoding.DEFLATE_LIVE && round % 3 == 0;
            String sent = batch(streams, history, batch, encoding, live);
            byte[] payload = Batch.streamPayload(itemsOf(history, batch), encoding, live);
            assertThat(sent).isEqualTo(Batch.streamBatch(encoding, itemsOf(history, batch), payload,
                    copyKeeping.next(payload, deflater)));
            org.reconmuc.codec.batch.DecodedBatch decoded = alicesClient.decode(sent, ROOM);
            assertThat(decoded.live()).isEqualTo(live);
            assertThat(decoded.items()).hasSize(batch.size());
        }
        assertThat(seq).as("the stream ran past the history and the window").isGreaterThan(600);
        StreamWindow window = streams.windowOf(ALICE);
        assertThat(window.codeBytes()).as("pointers for a 32-KiB window").isLessThan(400);
    }

    @Test
    void itemsThatLeftTheHistoryShortenTheDictionaryAndTheBatchStillInflates() throws Exception {
        MessageLog<Object> history = new MessageLog<>(10, new StanzaIds(), ROOM);
        BatchDecoder alicesClient = new BatchDecoder();
        List<MessageLog.Entry<Object>> first = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            first.add(log(history, i));
        }
        String batch1 = batch(history, first);
        assertThat(alicesClient.decode(batch1, ROOM).items()).hasSize(50);
        for (int i = 51; i <= 50 + MessageLog.STREAM_ITEMS; i++) {
            log(history, i);   // Alice got these at once
        }
        assertThat(history.compactItem(1)).as("gone from the history").isNull();
        List<MessageLog.Entry<Object>> second = List.of(log(history, 51 + MessageLog.STREAM_ITEMS));
        String batch2 = batch(history, second);
        assertThat(batch2).contains(" n=\"2\"");
        assertThat(alicesClient.decode(batch2, ROOM).items()).hasSize(1);
        assertThat(streams.windowOf(ALICE).dictionary(history).length)
                .as("only the second batch is still known").isEqualTo(Batch.compactStreamPayload(itemsOf(history, second)).length);
    }

    @Test
    void aSmallerWindowKeepsFewerPointersAndItsStreamStillInflates() throws Exception {
        for (int windowBytes : new int[] {0, 4096}) {
            DeflateStreams small = new DeflateStreams(windowBytes);
            MessageLog<Object> history = new MessageLog<>(100, new StanzaIds(), ROOM);
            BatchDecoder client = new BatchDecoder();
            int seq = 0;
            for (int round = 0; round < 40; round++) {
                List<MessageLog.Entry<Object>> batch = new ArrayList<>();
                for (int k = 0; k < 10; k++) {
                    batch.add(log(history, ++seq));
                }
                String sent = batch(small, history, batch, BatchEncoding.DEFLATE_STREAM, false);
                assertThat(client.decode(sent, ROOM).items()).hasSize(10);
                assertThat(small.windowOf(ALICE).dictionary(history).length).isLessThanOrEqualTo(windowBytes);
            }
            assertThat(small.pointerBytes()).as("window " + windowBytes).isLessThan(windowBytes == 0 ? 1 : 40);
        }
    }

    @Test
    void lurkersShareEachCompressionUntilOneIsSingledOutAndAgainOnceItsWindowNoLongerReachesThat() throws Exception {
        RealJid bob = new RealJid(new JID("bob@wonderland.lit/phone"));
        RealJid carol = new RealJid(new JID("carol@wonderland.lit/tablet"));
        List<RealJid> lurkers = List.of(ALICE, bob, carol);
        MessageLog<Object> history = new MessageLog<>(400, new StanzaIds(), ROOM);
        java.util.Map<RealJid, BatchDecoder> clients = new java.util.HashMap<>();
        java.util.Map<RealJid, DeflateStream> alone = new java.util.HashMap<>();
        for (RealJid s : lurkers) {
            clients.put(s, new BatchDecoder());
            alone.put(s, new DeflateStream());
        }
        Deflater deflater = new Deflater(6, true);
        int seq = 0;
        long before = streams.compressions();
        int sharedAgainAt = -1;
        for (int round = 0; round < 80; round++) {
            if (round == 5) {
                // Carol is addressed: a batch (a live item) for her alone, and her stream differs from then on.
                List<MessageLog.Entry<Object>> hers = List.of(log(history, ++seq));
                sendAndCheck(carol, hers, history, true, clients, alone, deflater);
                streams.turnEnded();
            }
            List<MessageLog.Entry<Object>> batch = new ArrayList<>();
            for (int k = 0; k < 8; k++) {
                batch.add(log(history, ++seq));
            }
            long start = streams.compressions();
            for (RealJid s : lurkers) {
                sendAndCheck(s, batch, history, false, clients, alone, deflater);
            }
            streams.turnEnded();
            long compressed = streams.compressions() - start;
            if (round < 5) {
                assertThat(compressed).as("round %d: one compression for three alike streams", round).isEqualTo(1);
            } else if (compressed == 1 && sharedAgainAt < 0) {
                sharedAgainAt = round;
            } else if (sharedAgainAt < 0) {
                assertThat(compressed).as("round %d: Alice and Bob share, Carol is apart", round).isEqualTo(2);
            } else {
                assertThat(compressed).as("round %d: alike again", round).isEqualTo(1);
            }
        }
        assertThat(sharedAgainAt).as("Carol's own batch left her window (32 KiB later) and she shares again")
                .isGreaterThan(20).isLessThan(80);
        assertThat(streams.compressions() - before).isLessThan(80 + 80);
    }

    @Test
    void aTurnWhoseStreamsAllDifferKeepsABoundedNumberOfCompressionsAndNoneAfterIt() throws Exception {
        MessageLog<Object> history = new MessageLog<>(400, new StanzaIds(), ROOM);
        int sessions = DeflateStreams.SHARED_PER_TURN + 44;
        List<MessageLog.Entry<Object>> firsts = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            firsts.add(log(history, i));
        }
        List<MessageLog.Entry<Object>> next = List.of(log(history, sessions), log(history, sessions + 1));
        List<BatchDecoder> clients = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {   // each session's stream starts with a message of its own
            RealJid s = new RealJid(new JID("user" + i + "@wonderland.lit/x"));
            BatchDecoder client = new BatchDecoder();
            List<CompactItem> items = itemsOf(history, List.of(firsts.get(i)));
            client.decode(streams.batch(s, List.of(firsts.get(i)), items, Batch.streamPayload(items, BatchEncoding.DEFLATE_LIVE, true),
                    BatchEncoding.DEFLATE_LIVE, true, history), ROOM);
            clients.add(client);
        }
        streams.turnEnded();
        long before = streams.compressions();
        List<CompactItem> items = itemsOf(history, next);
        byte[] payload = Batch.streamPayload(items, BatchEncoding.DEFLATE_LIVE, true);
        for (int i = 0; i < sessions; i++) {
            RealJid s = new RealJid(new JID("user" + i + "@wonderland.lit/x"));
            String sent = streams.batch(s, next, items, payload, BatchEncoding.DEFLATE_LIVE, true, history);
            assertThat(clients.get(i).decode(sent, ROOM).items()).as("session %d", i).hasSize(2);
        }
        assertThat(streams.compressions() - before).as("every stream differs: nothing shared").isEqualTo(sessions);
        assertThat(streams.sharedThisTurn()).isEqualTo(DeflateStreams.SHARED_PER_TURN);
        streams.turnEnded();
        assertThat(streams.sharedThisTurn()).as("between turns a room holds pointers only").isZero();
    }

    @Test
    void windowsThatCameToKeepTheSameBatchesAreAlikeWhateverTheySentBefore() {
        // Each window keeps the batches that cover its last 100 bytes.
        StreamWindow alices = new StreamWindow(100);
        StreamWindow carols = new StreamWindow(100);
        alices.sent(new long[] {1}, 100, BatchEncoding.DEFLATE_LIVE, false);
        carols.sent(new long[] {2}, 100, BatchEncoding.DEFLATE_LIVE, true);   // Carol got 2 at once
        assertThat(alices.contents()).isNotEqualTo(carols.contents());
        alices.sent(new long[] {3}, 100, BatchEncoding.DEFLATE_LIVE, false);
        carols.sent(new long[] {3}, 100, BatchEncoding.DEFLATE_LIVE, false);
        assertThat(alices.contents()).as("both keep only the batch of 3").isEqualTo(carols.contents());
        alices.sent(new long[] {4, 5}, 100, BatchEncoding.DEFLATE_LIVE, false);
        carols.sent(new long[] {5}, 100, BatchEncoding.DEFLATE_LIVE, true);   // Carol was addressed by 5
        assertThat(alices.contents()).isNotEqualTo(carols.contents());
    }

    /**
     * Sends {@code session} its next batch of its stream and checks it against a stream of its own
     * that keeps a copy of its window (byte for byte, the batch number too) and its client decoding it.
     */
    private void sendAndCheck(RealJid session, List<MessageLog.Entry<Object>> batch, MessageLog<Object> history, boolean live,
            java.util.Map<RealJid, BatchDecoder> clients, java.util.Map<RealJid, DeflateStream> alone, Deflater deflater)
            throws Exception {
        List<CompactItem> items = itemsOf(history, batch);
        byte[] payload = Batch.streamPayload(items, BatchEncoding.DEFLATE_LIVE, live);
        String sent = streams.batch(session, batch, items, payload, BatchEncoding.DEFLATE_LIVE, live, history);
        assertThat(sent).isEqualTo(Batch.streamBatch(BatchEncoding.DEFLATE_LIVE, items, payload,
                alone.get(session).next(payload, deflater)));
        assertThat(clients.get(session).decode(sent, ROOM).items()).hasSize(batch.size());
    }

    @Test
    void aResetStartsANewStreamWithNoDictionary() throws Exception {
        MessageLog<Object> history = new MessageLog<>(100, new StanzaIds(), ROOM);
        batch(history, List.of(log(history, 1), log(history, 2)));
        streams.resetAll();
        assertThat(streams.windowOf(ALICE).dictionary(history)).isEmpty();
        String restarted = batch(history, List.of(log(history, 3)));
        assertThat(restarted).contains(" n=\"1\"");
        assertThat(new BatchDecoder().decode(restarted, ROOM).items()).hasSize(1);
    }
}
