package org.reconmuc.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class BatchesTest {
    static final String ITEM = "<forwarded xmlns='urn:xmpp:forward:0'><delay xmlns='urn:xmpp:delay' stamp='2011-03-21T09:00:05Z'"
            + " from='r@s'/><message xmlns='jabber:client' from='r@s/n' type='groupchat' id='1'><body>é</body></message></forwarded>";

    static Element batch(String attrs, String content) {
        return SecureXml.parse("<batch xmlns='urn:reconmuc:0' " + attrs + ">" + content + "</batch>").getDocumentElement();
    }

    static String deflated(String payload) {
        return Base64.getEncoder().encodeToString(Batches.deflate(payload.getBytes(StandardCharsets.UTF_8), 6));
    }

    @Test
    void aDeflateBatchRoundTrips() {
        String payload = ITEM + ITEM;
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        String b64 = deflated(payload);
        int compressed = Base64.getDecoder().decode(b64).length;
        Element b = batch("count='2' encoding='deflate' size='" + bytes.length + "' compressed-size='" + compressed + "'", b64);
        assertThat(Batches.forwarded(b)).hasSize(2);
        assertThat(bytes.length).as("size counts UTF-8 bytes, not characters").isEqualTo(payload.length() + 2);
    }

    @Test
    void wrongSizesCountsOrPayloadsAreRefused() {
        String payload = ITEM;
        int size = payload.getBytes(StandardCharsets.UTF_8).length;
        String b64 = deflated(payload);
        int cs = Base64.getDecoder().decode(b64).length;
        assertThatThrownBy(() -> Batches.forwarded(batch("count='1' encoding='deflate' size='" + (size - 1)
                + "' compressed-size='" + cs + "'", b64))).hasMessageContaining("more than its size");
        assertThatThrownBy(() -> Batches.forwarded(batch("count='1' encoding='deflate' size='" + (size + 1)
                + "' compressed-size='" + cs + "'", b64))).hasMessageContaining("inflates to");
        assertThatThrownBy(() -> Batches.forwarded(batch("count='1' encoding='deflate' size='" + size
                + "' compressed-size='" + (cs + 1) + "'", b64))).hasMessageContaining("compressed-size");
        assertThatThrownBy(() -> Batches.forwarded(batch("count='2' encoding='deflate' size='" + size
                + "' compressed-size='" + cs + "'", b64))).hasMessageContaining("count");
        assertThatThrownBy(() -> Batches.forwarded(batch("count='1' encoding='deflate' size='" + size
                + "' compressed-size='" + cs + "'", "!!!"))).hasMessageContaining("base64");
        assertThatThrownBy(() -> Batches.forwarded(batch("count='1' encoding='deflate' size='999999999' compressed-size='"
                + cs + "'", b64))).hasMessageContaining("Refusing");
        assertThatThrownBy(() -> Batches.forwarded(batch("count='1' encoding='gzip'", ""))).hasMessageContaining("encoding");
        assertThatThrownBy(() -> Batches.forwarded(batch("count='1'", ITEM + "text"))).hasMessageContaining("no text");
        assertThatThrownBy(() -> Batches.forwarded(batch("count='1'", "<x xmlns='urn:other'/>"))).hasMessageContaining("only forwarded");
        assertThat(Batches.forwarded(batch("count='1'", "\n  " + ITEM + "\n"))).hasSize(1);
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
        assertThatThrownBy(() -> Batches.inflate(wrapped, data.length)).isInstanceOf(IllegalArgumentException.class);
    }
}
