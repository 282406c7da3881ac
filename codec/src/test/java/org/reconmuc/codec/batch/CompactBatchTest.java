package org.reconmuc.codec.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.XmlNamespaces;

/** The compact form and the per-session deflate stream: written by the room, read back as forwarded items. */
class CompactBatchTest {
    static final String ROOM = "chat@conference.example.org";
    static final long T0 = 1_300_698_005_000L;   // 2011-03-21T09:00:05Z

    static CompactItem item(String nick, String id, String body, String topic, long seq, long atMillis) {
        return CompactItem.of(nick, id, null, null, w -> {
            if (topic != null) {
                w.startElement(null, XmlNamespaces.RECONMUC, "topic");
                w.text(topic);
                w.endElement();
            }
            w.startElement(null, XmlNamespaces.JABBER_CLIENT, "body");
            w.text(body);
            w.endElement();
        }, "rXbpzLR0DSXL-" + Long.toString(seq, 36), atMillis);
    }

    static String forwarded(String stamp, String nick, String id, String children, String stanzaId) {
        return "<forwarded xmlns=\"urn:xmpp:forward:0\"><delay xmlns=\"urn:xmpp:delay\" stamp=\"" + stamp + "\" from=\"" + ROOM
                + "\"/><message xmlns=\"jabber:client\" from=\"" + ROOM + "/" + nick + "\" type=\"groupchat\""
                + (id == null ? "" : " id=\"" + id + "\"") + ">" + children
                + "<stanza-id xmlns=\"urn:xmpp:sid:0\" by=\"" + ROOM + "\" id=\"" + stanzaId + "\"/></message></forwarded>";
    }

    private final List<CompactItem> three = List.of(
            item("Bob", "bob-1", "Anyone seen the new Almodóvar film?", "movies", 35, T0 + 400),
            item("Carol", "carol-1", "Yes, on Saturday. It's <his> best & \"since\" Volver!", "movies", 36, T0 + 15_900),
            item("Bob", null, "Tickets sold out", null, 38, T0 + 36_100));

    @Test
    void theRoomWritesEachItemOnceWithOnlyWhatDiffersAndTheBatchSaysTheRestOnce() {
        String batch = Batch.compact(three);
        assertThat(batch).isEqualTo("<batch xmlns=\"urn:reconmuc:0\" count=\"3\" form=\"compact\" stamp=\"2011-03-21T09:00:05Z\""
                + " sid=\"rXbpzLR0DSXL-\">"
                + "<m n=\"Bob\" id=\"bob-1\" s=\"z\"><topic>movies</topic><body xmlns=\"jabber:client\">Anyone seen the new"
                + " Almodóvar film?</body></m>"
                + "<m n=\"Carol\" id=\"carol-1\" t=\"15\"><topic>movies</topic><body xmlns=\"jabber:client\">Yes, on Saturday."
                + " It's &lt;his&gt; best &amp; \"since\" Volver!</body></m>"
                + "<m n=\"Bob\" s=\"12\" t=\"21\"><body xmlns=\"jabber:client\">Tickets sold out</body></m></batch>");
    }

    @Test
    void aCompactBatchExpandsToTheForwardedItemsItStandsFor() throws Exception {
        DecodedBatch decoded = new BatchDecoder().decode(Batch.compact(three), ROOM);
        assertThat(decoded.form()).isEqualTo(BatchForm.COMPACT);
        assertThat(decoded.encoding()).isEqualTo(BatchEncoding.PLAIN);
        assertThat(decoded.items()).containsExactly(
                forwarded("2011-03-21T09:00:05Z", "Bob", "bob-1", "<topic xmlns=\"urn:reconmuc:0\">movies</topic>"
                        + "<body>Anyone seen the new Almodóvar film?</body>", "rXbpzLR0DSXL-z"),
                forwarded("2011-03-21T09:00:20Z", "Carol", "carol-1", "<topic xmlns=\"urn:reconmuc:0\">movies</topic>"
                        + "<body>Yes, on Saturday. It's &lt;his&gt; best &amp; \"since\" Volver!</body>", "rXbpzLR0DSXL-10"),
                forwarded("2011-03-21T09:00:41Z", "Bob", null, "<body>Tickets sold out</body>", "rXbpzLR0DSXL-12"));
    }

    @Test
    void occupantIdsLanguagesAndForeignStanzaIdsSurviveTheRoundTrip() throws Exception {
        CompactItem withEverything = CompactItem.of("Dave", "d1", "QkFSZm9vYmFy", "de", w -> {
            w.startElement(null, XmlNamespaces.REPLY, "reply");
            w.attribute(null, null, "to", ROOM + "/Bob");
            w.attribute(null, null, "id", "rXbpzLR0DSXL-z");
            w.endElement();
        }, "an-old-instance's id", T0);
        String item = new BatchDecoder().decode(Batch.compact(List.of(withEverything)), ROOM).items().get(0);
        assertThat(item).isEqualTo("<forwarded xmlns=\"urn:xmpp:forward:0\"><delay xmlns=\"urn:xmpp:delay\""
                + " stamp=\"2011-03-21T09:00:05Z\" from=\"" + ROOM + "\"/><message xmlns=\"jabber:client\" xml:lang=\"de\" from=\""
                + ROOM + "/Dave\" type=\"groupchat\" id=\"d1\"><reply xmlns=\"urn:xmpp:reply:0\" to=\"" + ROOM
                + "/Bob\" id=\"rXbpzLR0DSXL-z\"/><occupant-id xmlns=\"urn:xmpp:occupant-id:0\" id=\"QkFSZm9vYmFy\"/>"
                + "<stanza-id xmlns=\"urn:xmpp:sid:0\" by=\"" + ROOM + "\" id=\"an-old-instance's id\"/></message></forwarded>");
    }

    @Test
    void aSessionsBatchesShareOneDeflateStreamAndEachLaterBatchCostsLess() throws Exception {
        DeflateStream stream = new DeflateStream();
        Deflater deflater = new Deflater(6, true);
        BatchDecoder decoder = new BatchDecoder();
        List<Integer> sizes = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            List<CompactItem> items = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                items.add(item("Bob", "bob-" + round + i, "Anyone seen the new Almodóvar film? round " + round, "movies",
                        100 + 3 * round + i, T0 + 60_000L * round + i));
            }
            String batch = Batch.compactDeflateStream(items, stream, deflater);
            assertThat(batch).contains("encoding=\"deflate-stream\"").contains(" n=\"" + (round + 1) + "\"");
            assertThat(decoder.decode(batch, ROOM).items()).isEqualTo(new BatchDecoder().decode(Batch.compact(items), ROOM).items());
            sizes.add(batch.length());
        }
        assertThat(sizes.get(3)).as("later batches refer back to earlier ones: " + sizes).isLessThan(sizes.get(0) * 2 / 3);
    }

    @Test
    void aGapOrACorruptBatchLosesTheStreamUntilTheRoomStartsANewOne() throws Exception {
        DeflateStream stream = new DeflateStream();
        Deflater deflater = new Deflater(6, true);
        List<String> batches = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            batches.add(Batch.compactDeflateStream(List.of(item("Bob", "b" + i, "hello " + i, null, 1 + i, T0)), stream, deflater));
        }
        BatchDecoder decoder = new BatchDecoder();
        decoder.decode(batches.get(0), ROOM);
        assertThatThrownBy(() -> decoder.decode(batches.get(2), ROOM)).isInstanceOf(MalformedBatchException.class)
                .hasMessageContaining("n='3' where n='2' was due");
        assertThatThrownBy(() -> decoder.decode(batches.get(1), ROOM)).as("the stream is gone after a gap")
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining("a new stream (n='1')");
        assertThatThrownBy(() -> new BatchDecoder().decode(batches.get(1), ROOM)).as("joined in the middle")
                .isInstanceOf(MalformedBatchException.class);

        stream.reset();
        String restarted = Batch.compactDeflateStream(List.of(item("Bob", "b9", "again", null, 9, T0)), stream, deflater);
        assertThat(restarted).contains("n=\"1\"");
        assertThat(decoder.decode(restarted, ROOM).items()).hasSize(1);

        String next = Batch.compactDeflateStream(List.of(item("Bob", "b10", "and again", null, 10, T0)), stream, deflater);
        String corrupt = next.replaceFirst(">([A-Za-z0-9+/]{4})", ">AAAA");
        assertThatThrownBy(() -> decoder.decode(corrupt, ROOM)).isInstanceOf(MalformedBatchException.class);
        assertThatThrownBy(() -> decoder.decode(next, ROOM)).as("a corrupt batch loses the stream too")
                .isInstanceOf(MalformedBatchException.class);
    }

    @Test
    void aStreamBatchThatClaimsTooMuchIsRefusedBeforeInflatingAndAWrongSizeIsRefused() throws Exception {
        DeflateStream stream = new DeflateStream();
        String batch = Batch.compactDeflateStream(List.of(item("Bob", "b1", "hello", null, 1, T0)), stream, new Deflater(6, true));
        String size = batch.replaceFirst(".* size=\"(\\d+)\".*", "$1");
        assertThatThrownBy(() -> new BatchDecoder(100).decode(batch.replace("size=\"" + size + "\"", "size=\"1000\""), ROOM))
                .hasMessageContaining("refusing to inflate");
        assertThatThrownBy(() -> new BatchDecoder().decode(batch.replace("size=\"" + size + "\"", "size=\"" + (Integer.parseInt(size) + 1) + "\""), ROOM))
                .hasMessageContaining("inflates to " + size);
        assertThatThrownBy(() -> new BatchDecoder().decode(batch.replace("size=\"" + size + "\"", "size=\"3\""), ROOM))
                .hasMessageContaining("more than its size");
    }

    @Test
    void aDeflateBombInTheStreamStopsAtItsDeclaredSize() {
        byte[] zeros = new byte[10_000_000];
        DeflateStream stream = new DeflateStream();
        byte[] bomb = stream.next(zeros, new Deflater(9, true)).bytes();
        String batch = "<batch xmlns='urn:reconmuc:0' count='1' form='compact' stamp='2011-03-21T09:00:05Z'"
                + " encoding='deflate-stream' n='1' size='100'>" + Base64.getEncoder().encodeToString(bomb) + "</batch>";
        assertThat(bomb.length).isLessThan(20_000);
        assertThatThrownBy(() -> new BatchDecoder().decode(batch, ROOM)).hasMessageContaining("more than its size of 100");
    }

    @Test
    void malformedCompactItemsAreRefusedWithTheRuleTheyBreak() {
        String head = "<batch xmlns='urn:reconmuc:0' count='1' form='compact' stamp='2011-03-21T09:00:05Z' sid='x-'>";
        refused(head + "<m id='1' s='1'><body xmlns='jabber:client'>a</body></m></batch>", "needs 'n'");
        refused(head + "<m n='Bob' id='1'><body xmlns='jabber:client'>a</body></m></batch>", "has 's' or 'sid'");
        refused(head + "<m n='Bob' s='1' sid='x-1'/></batch>", "not both");
        refused(head + "<m n='Bob' s='A'/></batch>", "base-36");
        refused(head + "<m n='Bob' s='1' t='-3'/></batch>", "whole number of seconds");
        refused(head + "<m n='Bob' s='1'>text</m></batch>", "elements, not text");
        refused(head + "<m n='Bob' s='1' color='red'/></batch>", "unknown attribute 'color'");
        refused(head + "<forwarded xmlns='urn:xmpp:forward:0'/></batch>", "only <m xmlns='urn:reconmuc:0'/> items");
        refused("<batch xmlns='urn:reconmuc:0' count='1' form='compact'><m n='Bob'/></batch>", "has a 'stamp'");
        refused("<batch xmlns='urn:reconmuc:0' count='1' form='compact' stamp='yesterday'><m n='Bob'/></batch>", "XEP-0082");
        refused("<batch xmlns='urn:reconmuc:0' count='1' form='compact' stamp='2011-03-21T09:00:05Z'><m n='Bob' s='1'/></batch>",
                "'s' needs the batch's 'sid'");
        refused("<batch xmlns='urn:reconmuc:0' count='1' stamp='2011-03-21T09:00:05Z'>" + Batch.forwardedItem("2011-03-21T09:00:05Z",
                ROOM, "<message xmlns='jabber:client'/>") + "</batch>", "only a compact batch has 'stamp'");
        refused("<batch xmlns='urn:reconmuc:0' count='1' form='compact' stamp='2011-03-21T09:00:05Z' encoding='deflate-stream'"
                + " size='3'>AAAA</batch>", "needs 'n' and 'size'");
        refused(head + "<m n='Bob' s='1'/><!-- a comment --></batch>", "comments");
        assertThatThrownBy(() -> new BatchDecoder().decode(Batch.compact(three))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("room's JID");
    }

    /**
     * Found by {@link BatchDecoderFuzzTest}: a stamp java.time parses but no XEP-0082 date holds (a
     * year past 9999), and time steps that carry an item past it, threw DateTimeException out of the
     * decoder. Items are timed within the years 0000 to 9999, or the batch is refused.
     */
    @Test
    void timesPastTheYear9999AreRefusedNotThrown() {
        refused("<batch xmlns='urn:reconmuc:0' count='1' form='compact' stamp='+1000000000-12-31T23:59:59Z'>"
                + "<m n='Bob' t='60'/></batch>", "XEP-0082");
        refused("<batch xmlns='urn:reconmuc:0' count='1' form='compact' stamp='+10000-01-01T00:00:00Z'><m n='Bob'/></batch>",
                "XEP-0082");
        refused("<batch xmlns='urn:reconmuc:0' count='1' form='compact' stamp='-0001-01-01T00:00:00Z'><m n='Bob'/></batch>",
                "XEP-0082");
        refused("<batch xmlns='urn:reconmuc:0' count='2' form='compact' stamp='9999-12-31T23:00:00Z'>"
                + "<m n='Bob'/><m n='Bob' t='3600'/></batch>", "past the year 9999");
    }

    @Test
    void anItemWithoutStanzaIdFollowsTheRoomsNumberingOnlyWhenTheBatchHasAPrefix() throws Exception {
        String batch = "<batch xmlns='urn:reconmuc:0' count='2' form='compact' stamp='2011-03-21T09:00:05Z'>"
                + "<m n='Bob'/><m n='Carol' t='2'/></batch>";
        List<String> items = new BatchDecoder().decode(batch, ROOM).items();
        assertThat(items.get(0)).doesNotContain("stanza-id").contains("stamp=\"2011-03-21T09:00:05Z\"");
        assertThat(items.get(1)).contains("stamp=\"2011-03-21T09:00:07Z\"").contains("from=\"" + ROOM + "/Carol\"");
        assertThat(Batch.compact(List.of(item("Bob", "1", "x", null, 7, T0))).getBytes(StandardCharsets.UTF_8).length)
                .isLessThan(200);
    }

    private static void refused(String batch, String because) {
        assertThatThrownBy(() -> new BatchDecoder().decode(batch, ROOM)).isInstanceOf(MalformedBatchException.class)
                .hasMessageContaining(because);
    }
}
