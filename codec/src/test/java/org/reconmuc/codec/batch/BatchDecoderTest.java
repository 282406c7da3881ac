package org.reconmuc.codec.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.SecureXml;
import org.w3c.dom.Element;

class BatchDecoderTest {
    static final String ROOM = "chat@conference.example.org";
    static final String MESSAGE = "<message xmlns=\"jabber:client\" from=\"" + ROOM + "/Bob\" type=\"groupchat\" id=\"b1\">"
            + "<body>caf\u00e9 &amp; \u2603 &lt;tag&gt;</body><topic xmlns=\"urn:reconmuc:0\">movies</topic></message>";
    static final String ITEM = Batch.forwardedItem("2011-03-21T09:00:05Z", ROOM, MESSAGE);

    private final BatchDecoder decoder = new BatchDecoder();

    static String batch(String attributes, String content) {
        return "<batch xmlns='urn:reconmuc:0' " + attributes + ">" + content + "</batch>";
    }

    static String deflateBatch(int count, String payload, int sizeDelta, int compressedDelta) {
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        byte[] deflated = RawDeflate.deflate(bytes, 6);
        return batch("count='" + count + "' encoding='deflate' size='" + (bytes.length + sizeDelta)
                + "' compressed-size='" + (deflated.length + compressedDelta) + "'", Base64.getEncoder().encodeToString(deflated));
    }

    private void refused(String batchXml, String because) {
        assertThatThrownBy(() -> decoder.decode(batchXml)).isInstanceOf(MalformedBatchException.class)
                .hasMessageContaining(because);
    }

    @Test
    void aPlainAndADeflateBatchOfTheSameItemsDecodeToTheSameItems() throws Exception {
        List<String> items = List.of(ITEM, ITEM.replace("b1", "b2"));
        DecodedBatch plain = decoder.decode(Batch.plain(items));
        DecodedBatch deflated = decoder.decode(Batch.deflate(items, 6));
        assertThat(plain.encoding()).isEqualTo(BatchEncoding.PLAIN);
        assertThat(deflated.encoding()).isEqualTo(BatchEncoding.DEFLATE);
        assertThat(plain.form()).isEqualTo(BatchForm.FORWARDED);
        assertThat(plain.items()).isEqualTo(items).isEqualTo(deflated.items());
    }

    @Test
    void theWriterProducesTheFormsOfTheSpec() {
        String plain = Batch.plain(List.of(ITEM));
        assertThat(plain).startsWith("<batch xmlns=\"urn:reconmuc:0\" count=\"1\"><forwarded xmlns=\"urn:xmpp:forward:0\">"
                + "<delay xmlns=\"urn:xmpp:delay\" stamp=\"2011-03-21T09:00:05Z\" from=\"" + ROOM + "\"/><message");
        String deflate = Batch.deflate(List.of(ITEM, ITEM), 6);
        int size = (ITEM + ITEM).getBytes(StandardCharsets.UTF_8).length;
        assertThat(deflate).startsWith("<batch xmlns=\"urn:reconmuc:0\" count=\"2\" encoding=\"deflate\" size=\"" + size
                + "\" compressed-size=\"");
        assertThat(size).as("size counts UTF-8 bytes").isGreaterThan((ITEM + ITEM).length());
    }

    @Test
    void eachItemDeclaresItsNamespacesAndParsesOnItsOwn() throws Exception {
        // Prefixes and inherited defaults on the wire come out as declarations on the item.
        String wire = "<r:batch xmlns:r='urn:reconmuc:0' xmlns='urn:xmpp:forward:0' xmlns:c='jabber:client' count='1'>"
                + "<forwarded><d:delay xmlns:d='urn:xmpp:delay' stamp='2011-03-21T09:00:05Z'/>"
                + "<c:message from='r@s/n' xml:lang='en'><c:body>hi&#13;\tthere</c:body><x xmlns='' a='1&#10;2'/></c:message>"
                + "</forwarded></r:batch>";
        String item = decoder.decode(wire).items().get(0);
        Element forwarded = SecureXml.parse(item).getDocumentElement();
        assertThat(forwarded.getNamespaceURI()).isEqualTo("urn:xmpp:forward:0");
        Element message = (Element) forwarded.getElementsByTagNameNS("jabber:client", "message").item(0);
        assertThat(message.getAttributeNS("http://www.w3.org/XML/1998/namespace", "lang")).isEqualTo("en");
        assertThat(message.getElementsByTagNameNS("jabber:client", "body").item(0).getTextContent()).isEqualTo("hi\r\tthere");
        Element x = (Element) message.getElementsByTagNameNS(null, "x").item(0);
        assertThat(x.getAttribute("a")).isEqualTo("1\n2");
    }

    @Test
    void whiteSpaceAroundItemsIsAllowed() throws Exception {
        assertThat(decoder.decode(batch("count='1'", "\n  " + ITEM + "\n")).items()).hasSize(1);
        String b64 = Base64.getEncoder().encodeToString(RawDeflate.deflate(ITEM.getBytes(StandardCharsets.UTF_8), 6));
        String wrapped = b64.substring(0, 10) + "\n  " + b64.substring(10);
        assertThat(decoder.decode(batch("count='1' encoding='deflate' size='" + ITEM.getBytes(StandardCharsets.UTF_8).length
                + "' compressed-size='" + Base64.getDecoder().decode(b64).length + "'", wrapped)).items()).hasSize(1);
    }

    @Test
    void countSizesAndPayloadMustBeExact() {
        refused(batch("count='2'", ITEM), "count is 2 but the batch holds 1");
        refused(batch("count='0'", ""), "'count' must be a positive integer");
        refused(batch("", ITEM), "needs 'count'");
        refused(deflateBatch(1, ITEM, -1, 0), "more than its size");
        refused(deflateBatch(1, ITEM, +1, 0), "inflates to");
        refused(deflateBatch(1, ITEM, 0, +1), "compressed-size");
        refused(deflateBatch(2, ITEM, 0, 0), "count");
        refused(batch("count='1' encoding='deflate' size='10' compressed-size='3'", "!!!!"), "base64");
        refused(batch("count='1' encoding='deflate'", ""), "needs 'size' and 'compressed-size'");
        refused(batch("count='1' size='10'", ITEM), "a plain batch has no size");
        refused(batch("count='1' encoding='gzip'", ""), "unknown encoding 'gzip'");
        refused(batch("count='1' form='tiny'", ITEM), "unknown form 'tiny'");
        refused(batch("count='1' colour='red'", ITEM), "unknown attribute 'colour'");
    }

    @Test
    void attributesInOtherNamespacesAreAllowed() throws Exception {
        assertThat(decoder.decode(batch("count='1' xmlns:o='urn:other' o:hint='x'", ITEM)).items()).hasSize(1);
    }

    @Test
    void aBombIsRefusedBeforeInflating() {
        refused(batch("count='1' encoding='deflate' size='999999999' compressed-size='4'", "AAAAAA=="), "refusing to inflate");
        byte[] zeros = new byte[2_000_000];
        String b64 = Base64.getEncoder().encodeToString(RawDeflate.deflate(zeros, 9));
        assertThatThrownBy(() -> new BatchDecoder(1_000_000).decode(batch("count='1' encoding='deflate' size='"
                + zeros.length + "' compressed-size='" + Base64.getDecoder().decode(b64).length + "'", b64)))
                .hasMessageContaining("the limit is 1000000");
    }

    @Test
    void aZlibWrappedPayloadIsNotRawDeflate() {
        byte[] data = ITEM.getBytes(StandardCharsets.UTF_8);
        java.util.zip.Deflater zlib = new java.util.zip.Deflater(6, false);
        zlib.setInput(data);
        zlib.finish();
        byte[] buf = new byte[4096];
        int n = zlib.deflate(buf);
        zlib.end();
        byte[] wrapped = java.util.Arrays.copyOf(buf, n);
        assertThatThrownBy(() -> RawDeflate.inflate(wrapped, data.length, 1 << 20)).isInstanceOf(MalformedBatchException.class);
    }

    @Test
    void onlyForwardedItemsWithADelayAndAMessage() {
        refused(batch("count='1'", ITEM + "text"), "no text");
        refused(batch("count='1'", "<x xmlns='urn:other'/>"), "only <forwarded");
        refused(batch("count='1'", "<forwarded xmlns='urn:xmpp:forward:0'>" + MESSAGE + "</forwarded>"), "<delay/> and then");
        refused(batch("count='1'", "<forwarded xmlns='urn:xmpp:forward:0'><delay xmlns='urn:xmpp:delay' stamp='x'/>"
                + "<message/></forwarded>"), "<delay/> and then");
        refused(batch("count='1'", ITEM.replace("<message", "hello<message")), "no text beside");
        refused(deflateBatch(1, "<forwarded>" + ITEM.substring(ITEM.indexOf("<delay")), 0, 0), "only <forwarded");
        refused(batch("count='1'", "<forwarded xmlns='urn:xmpp:forward:0'/>"), "<delay/> and then");
    }

    @Test
    void noDtdCommentsOrProcessingInstructionsAnywhere() {
        refused("<!DOCTYPE batch [<!ENTITY x 'y'>]>" + batch("count='1'", ITEM), "no DTD");
        refused(batch("count='1'", "<!-- hi -->" + ITEM), "no comments");
        refused(batch("count='1'", ITEM.replace("<body>", "<body><?pi x?>")), "no processing instructions");
        refused(deflateBatch(1, "<!DOCTYPE x>" + ITEM, 0, 0), "not acceptable XML");
        refused(deflateBatch(1, ITEM.replace("<body>", "<body><!-- c -->"), 0, 0), "no comments");
        refused(batch("count='1'", ITEM.replace("caf", "&undeclared;")), "not acceptable XML");
    }

    @Test
    void aPayloadThatIsNotUtf8OrNotXmlIsRefused() {
        byte[] latin1 = ITEM.getBytes(StandardCharsets.ISO_8859_1);
        byte[] deflated = RawDeflate.deflate(latin1, 6);
        refused(batch("count='1' encoding='deflate' size='" + latin1.length + "' compressed-size='" + deflated.length + "'",
                Base64.getEncoder().encodeToString(deflated)), "not UTF-8");
        refused(deflateBatch(1, ITEM.substring(0, ITEM.length() - 3), 0, 0), "not acceptable XML");
        refused(deflateBatch(1, ITEM + "</payload><payload>", 0, 0), "not acceptable XML");
        refused(batch("count='1'", ITEM) + "<more/>", "not acceptable XML");
    }

    @Test
    void aBatchInAnotherNamespaceIsNotABatch() {
        refused("<batch xmlns='urn:reconmuc:1' count='1'>" + ITEM + "</batch>", "not a <batch xmlns='urn:reconmuc:0'/>");
        refused(batch("count='1'", ITEM).replace("urn:reconmuc:0", "http://joom.com/extensions"), "not a <batch");
    }
}
