package org.reconmuc.codec.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.reconmuc.codec.batch.CompactBatchTest.ROOM;
import static org.reconmuc.codec.batch.CompactBatchTest.T0;
import static org.reconmuc.codec.batch.CompactBatchTest.item;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/**
 * A live stream (reconmuc.md §5.9 rules 8.6 and 8.7): batches that say only their number, their
 * items timed from the Unix epoch, their text in base 85; read back as the compact items they
 * hold, the last one live or not.
 */
class LiveStreamBatchTest {
    private final DeflateStream stream = new DeflateStream();
    private final Deflater deflater = new Deflater(6, true);

    private String next(List<CompactItem> items, boolean live) {
        byte[] payload = Batch.streamPayload(items, BatchEncoding.DEFLATE_LIVE, live);
        return Batch.deflateLive(stream.next(payload, deflater));
    }

    @Test
    void theBatchSaysOnlyItsNumberAndExpandsToWhatTheCompactFormWould() throws Exception {
        List<CompactItem> retained = List.of(item("Bob", "bob-1", "Anyone seen the new Almodóvar film?", "movies", 35, T0 + 400),
                item("Carol", "carol-1", "Yes, on Saturday <3 & more", "movies", 36, T0 + 15_900));
        CompactItem dave = item("Dave", "dave-1", "Alice: tickets?", null, 37, T0 + 45_000);
        List<CompactItem> all = new ArrayList<>(retained);
        all.add(dave);
        String batch = next(all, true);
        assertThat(batch).startsWith("<batch xmlns=\"urn:reconmuc:0\" encoding=\"deflate-live\" n=\"1\">");
        assertThat(new String(Batch.streamPayload(all, BatchEncoding.DEFLATE_LIVE, true), StandardCharsets.UTF_8))
                .as("the first item timed from the epoch, the next from it, the last marked live")
                .contains("<m n=\"Bob\" id=\"bob-1\" sid=\"rXbpzLR0DSXL-z\" t=\"1300698005\">")
                .contains(" t=\"15\">").endsWith("t=\"30\" l=\"1\"><body xmlns=\"jabber:client\">Alice: tickets?</body></m>");

        DecodedBatch decoded = new BatchDecoder().decode(batch, ROOM);
        assertThat(decoded.encoding()).isEqualTo(BatchEncoding.DEFLATE_LIVE);
        assertThat(decoded.form()).isEqualTo(BatchForm.COMPACT);
        assertThat(decoded.live()).isTrue();
        assertThat(decoded.items().subList(0, 2)).isEqualTo(new BatchDecoder().decode(Batch.compact(retained), ROOM).items());
        assertThat(decoded.items().get(2)).doesNotContain("<delay").contains("Alice: tickets?");
    }

    @Test
    void laterBatchesContinueTheStreamAndAFlushEndsWithoutALiveItem() throws Exception {
        BatchDecoder decoder = new BatchDecoder();
        List<Integer> sizes = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            List<CompactItem> items = List.of(item("Bob", "bob-" + round, "Anyone seen the new Almodóvar film? round " + round,
                    "movies", 100 + round, T0 + 60_000L * round));
            boolean live = round % 2 == 0;
            String batch = next(items, live);
            assertThat(batch).contains(" n=\"" + (round + 1) + "\"");
            DecodedBatch decoded = decoder.decode(batch, ROOM);
            assertThat(decoded.live()).isEqualTo(live);
            assertThat(decoded.items()).singleElement().asString().contains("round " + round);
            if (!live) {
                assertThat(decoded.items().get(0)).contains("stamp=\"" + java.time.Instant.ofEpochMilli(T0 + 60_000L * round)
                        .toString() + "\"");
            }
            sizes.add(batch.length());
        }
        assertThat(sizes.get(5)).as("later batches refer back to earlier ones: " + sizes).isLessThan(sizes.get(0) * 2 / 3);
    }

    @Test
    void aLiveStreamBatchIsSmallerThanTheSameBatchOfADeflateStream() {
        List<CompactItem> items = List.of(item("Bob", "bob-1", "Anyone seen the new Almodóvar film?", "movies", 35, T0 + 400));
        String live = next(items, false);
        byte[] payload = Batch.compactStreamPayload(items);
        String old = Batch.compactDeflateStream(items, payload, new DeflateStream().next(payload, new Deflater(6, true)));
        assertThat(live.length()).as(live + " against " + old).isLessThan(old.length() - 40);
    }

    @Test
    void aHeaderAttributeBeyondEncodingAndNumberIsRefused() {
        String batch = next(List.of(item("Bob", "b1", "hello", null, 1, T0)), false);
        for (String extra : List.of("count='1'", "form='compact'", "stamp='2011-03-21T09:00:05Z'", "size='10'", "sid='x-'")) {
            assertThatThrownBy(() -> new BatchDecoder().decode(batch.replace(" n=", " " + extra + " n="), ROOM))
                    .as(extra).hasMessageContaining("only 'encoding' and 'n'");
        }
        assertThatThrownBy(() -> new BatchDecoder().decode(batch.replace(" n=\"1\"", ""), ROOM))
                .hasMessageContaining("only 'encoding' and 'n'");
    }

    @Test
    void theFirstItemNeedsItsTimeAndOnlyTheLastMayBeLive() {
        assertThatThrownBy(() -> new BatchDecoder().decode(liveBatch("<m n='Bob' sid='x-1'/>"), ROOM))
                .hasMessageContaining("has 't', its time since the Unix epoch");
        assertThatThrownBy(() -> new BatchDecoder().decode(liveBatch("<m n='Bob' sid='x-1' t='1300698005' l='1'/><m n='Bob'/>"), ROOM))
                .hasMessageContaining("a live item is the last of its batch");
        assertThatThrownBy(() -> new BatchDecoder().decode(liveBatch("<m n='Bob' t='1300698005' l='yes'/>"), ROOM))
                .hasMessageContaining("'l' marks a live item with '1'");
        assertThatThrownBy(() -> new BatchDecoder().decode(liveBatch("<m n='Bob' t='1300698005'/><m n='Bob' t='1300698005'/>"), ROOM))
                .as("after the first, steps are at most a year").hasMessageContaining("whole number of seconds");
        assertThatThrownBy(() -> new BatchDecoder().decode(liveBatch(""), ROOM)).hasMessageContaining("at least one item");
    }

    @Test
    void aLiveItemInADeflateStreamBatchIsRefused() {
        byte[] payload = "<m n='Bob' l='1'/>".getBytes(StandardCharsets.UTF_8);
        String batch = Batch.compactDeflateStream(List.of(item("Bob", "b1", "x", null, 1, T0)), payload,
                new DeflateStream().next(payload, deflater));
        assertThatThrownBy(() -> new BatchDecoder().decode(batch, ROOM))
                .hasMessageContaining("no live item in a deflate-stream batch");
    }

    @Test
    void withNoSizeToCheckTheDecodersOwnLimitStopsABomb() {
        byte[] zeros = new byte[10_000_000];
        String bomb = Batch.deflateLive(new DeflateStream().next(zeros, new Deflater(9, true)));
        assertThat(bomb.length()).isLessThan(30_000);
        assertThatThrownBy(() -> new BatchDecoder(100_000).decode(bomb, ROOM))
                .hasMessageContaining("more than the limit of 100000 bytes");
    }

    @Test
    void aTextThatIsNotBase85IsRefused() {
        String batch = next(List.of(item("Bob", "b1", "hello", null, 1, T0)), false);
        String text = batch.substring(batch.indexOf('>') + 1, batch.lastIndexOf('<'));
        assertThatThrownBy(() -> new BatchDecoder().decode(batch.replace(text, "~" + text.substring(1)), ROOM))
                .hasMessageContaining("not base 85");
    }

    /** A deflate-live batch starting a stream, holding {@code items} (the payload's XML, as is). */
    private static String liveBatch(String items) {
        return Batch.deflateLive(new DeflateStream().next(items.getBytes(StandardCharsets.UTF_8), new Deflater(6, true)));
    }

    @Test
    void base85RoundTripsEveryLengthAndItsAlphabetNeedsNoEscapingInXml() {
        assertThat(Base85.ALPHABET).hasSize(85).doesNotContain("\"", "&", "'", "<", ">");
        assertThat(Base85.ALPHABET.chars().distinct().count()).isEqualTo(85);
        assertThat(Base85.ALPHABET.chars().allMatch(c -> c > 32 && c < 127)).isTrue();
        SplittableRandom random = new SplittableRandom(85);
        for (int length = 0; length < 200; length++) {
            byte[] bytes = new byte[length];
            for (int i = 0; i < length; i++) {
                bytes[i] = (byte) random.nextInt(256);
            }
            String text = Base85.encode(bytes);
            assertThat(text).hasSize(length / 4 * 5 + (length % 4 == 0 ? 0 : length % 4 + 1));
            assertThat(Base85.decode(text)).isEqualTo(bytes);
        }
        byte[] ones = {-1, -1, -1, -1, -1, -1, -1};
        assertThat(Base85.decode(Base85.encode(ones))).isEqualTo(ones);
        assertThat(Base85.encode(new byte[] {0, 0, 0, 0})).isEqualTo("00000");
        assertThat(Base85.decode(" 000\n00 ")).as("XML white space ignored").isEqualTo(new byte[4]);
        assertThatThrownBy(() -> Base85.decode("000000")).hasMessageContaining("one digit");
        assertThatThrownBy(() -> Base85.decode("}}}}}")).hasMessageContaining("more than four bytes");
        assertThatThrownBy(() -> Base85.decode("0000<")).hasMessageContaining("not a base-85 digit");
    }
}
