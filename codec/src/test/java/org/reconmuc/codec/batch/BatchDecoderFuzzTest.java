package org.reconmuc.codec.batch;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.zip.Deflater;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.XmlText;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Coverage-guided fuzzing (Jazzer) of the batch decoder a client runs on what a room sends
 * (reconmuc.md §5.9, §5.13): batches of every encoding and form, built from the fuzzer's bytes
 * with hostile attributes (counts, sizes and stream numbers that lie or overflow, stamps at the
 * edge of time, time steps and stanza-id suffixes out of range), corrupt or lying compressed
 * payloads, stream batches out of order, and raw text. The decoder returns items that each parse
 * on their own as a forwarded message, or refuses the batch with a {@link MalformedBatchException};
 * nothing else escapes. {@code mvn test} replays the inputs under
 * {@code src/test/resources/.../BatchDecoderFuzzTestInputs}; {@code JAZZER_FUZZ=1} fuzzes.
 */
class BatchDecoderFuzzTest {
    static final String ROOM = "chat@conference.example.org";
    private static final List<String> NUMBERS = List.of("0", "1", "2", "3", "-1", "+1", " 2 ", "2147483647", "2147483648",
            "9223372036854775807", "99999999999999999999", "1e3", "\u0661", "", "x");
    private static final List<String> STAMPS = List.of("2026-01-01T10:00:00Z", "1970-01-01T00:00:00Z",
            "+1000000000-12-31T23:59:59Z", "-1000000000-01-01T00:00:00Z", "+999999999-12-31T23:59:59Z",
            "9999-12-31T23:59:59Z", "2026-01-01T10:00:00+01:00", "2026-13-01T10:00:00Z", "");
    private static final List<String> STEPS = List.of("0", "1", "60", "31536000", "31536001", "253402300799",
            "253402300800", "-1", "9223372036854775807", "1.5", "");

    @FuzzTest(maxDuration = "60s")
    void decodesOrRefuses(FuzzedDataProvider data) {
        BatchDecoder decoder = data.consumeBoolean() ? new BatchDecoder() : new BatchDecoder(data.consumeInt(0, 1 << 16));
        Sender sender = new Sender(data);
        try {
            decodeBatches(data, decoder, sender);
        } finally {
            // Their native memory, at once: the fuzzer makes them by the million.
            decoder.resetStream();
            sender.deflater.end();
        }
    }

    private static void decodeBatches(FuzzedDataProvider data, BatchDecoder decoder, Sender sender) {
        for (int b = data.consumeInt(1, 4); b > 0; b--) {
            String batch = data.consumeInt(0, 9) == 0 ? data.consumeString(400) : sender.batch();
            DecodedBatch decoded;
            try {
                decoded = decoder.decode(batch, ROOM);
            } catch (MalformedBatchException refused) {
                assertThat(refused.getMessage()).isNotBlank();
                continue;
            }
            assertThat(decoded.items()).isNotEmpty();
            if (decoded.live()) {
                assertThat(decoded.form()).isEqualTo(BatchForm.COMPACT);
            }
            for (int i = 0; i < decoded.items().size(); i++) {
                boolean liveItem = decoded.live() && i == decoded.items().size() - 1;
                checkItem(decoded.items().get(i), liveItem);
            }
        }
    }

    /** An item parses on its own: a forwarded jabber:client message, under its delay unless it is live. */
    private static void checkItem(String item, boolean live) {
        Element forwarded = SecureXml.parse(item).getDocumentElement();
        assertThat(forwarded.getNamespaceURI()).isEqualTo(XmlNamespaces.FORWARD);
        assertThat(forwarded.getLocalName()).isEqualTo("forwarded");
        boolean delay = false;
        boolean message = false;
        for (Node n = forwarded.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                delay |= XmlNamespaces.DELAY.equals(e.getNamespaceURI()) && "delay".equals(e.getLocalName());
                message |= XmlNamespaces.JABBER_CLIENT.equals(e.getNamespaceURI()) && "message".equals(e.getLocalName());
            }
        }
        assertThat(message).as("a message in %s", item).isTrue();
        assertThat(delay).as("a delay in %s", item).isEqualTo(!live);
    }

    /** A room as a hostile or broken server would make it: each batch right in part and wrong in part. */
    private static final class Sender {
        private final FuzzedDataProvider data;
        private final DeflateStream stream = new DeflateStream();
        private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);

        Sender(FuzzedDataProvider data) {
            this.data = data;
        }

        String batch() {
            String encoding = pick(null, "deflate", "deflate-stream", "deflate-live", "gzip");
            boolean compact = "deflate-live".equals(encoding) || data.consumeBoolean();
            int count = data.consumeInt(0, data.consumeInt(0, 7) == 0 ? 200 : 4);
            StringBuilder items = new StringBuilder();
            for (int i = 0; i < count; i++) {
                items.append(compact ? compactItem(i == 0 && "deflate-live".equals(encoding)) : forwardedItem());
            }
            byte[] payload = items.toString().getBytes(StandardCharsets.UTF_8);
            StringBuilder b = new StringBuilder("<batch xmlns='urn:reconmuc:0'");
            if (!"deflate-live".equals(encoding) || data.consumeInt(0, 7) == 0) {
                attribute(b, "count", lie(Integer.toString(count)));
            }
            if (encoding != null) {
                attribute(b, "encoding", encoding);
            }
            if (compact && !"deflate-live".equals(encoding)) {
                attribute(b, "form", data.consumeInt(0, 7) == 0 ? "forwarded" : "compact");
                attribute(b, "stamp", pick(STAMPS.toArray(new String[0])));
                if (data.consumeBoolean()) {
                    attribute(b, "sid", pick("abc-", "", "-", "x"));
                }
            }
            String text;
            if (encoding == null || "gzip".equals(encoding)) {
                text = items.toString();
            } else if ("deflate".equals(encoding)) {
                byte[] deflated = corrupt(RawDeflate.deflate(payload, data.consumeInt(0, 9)));
                attribute(b, "size", lie(Integer.toString(payload.length)));
                attribute(b, "compressed-size", lie(Integer.toString(deflated.length)));
                text = Base64.getEncoder().encodeToString(deflated);
            } else {
                DeflateStream.Chunk chunk = data.consumeInt(0, 7) == 0 ? new DeflateStream.Chunk(1, new byte[0])
                        : stream.next(payload, deflater);
                byte[] bytes = corrupt(chunk.bytes());
                attribute(b, "n", lie(Integer.toString(chunk.n())));
                if ("deflate-stream".equals(encoding)) {
                    attribute(b, "size", lie(Integer.toString(payload.length)));
                    text = Base64.getEncoder().encodeToString(bytes);
                } else {
                    text = Base85.encode(bytes);
                }
            }
            if (data.consumeInt(0, 15) == 0) {
                attribute(b, data.consumeString(4).replaceAll("[^a-z]", "") + "q", "1");
            }
            return b.append('>').append(text).append("</batch>").toString();
        }

        private String forwardedItem() {
            StringBuilder item = new StringBuilder("<forwarded xmlns='urn:xmpp:forward:0'>");
            if (data.consumeInt(0, 7) != 0) {
                item.append("<delay xmlns='urn:xmpp:delay' stamp='").append(pick(STAMPS.toArray(new String[0]))).append("'/>");
            }
            if (data.consumeInt(0, 7) != 0) {
                item.append("<message xmlns='").append(pick("jabber:client", "jabber:client", "jabber:server"))
                        .append("' from='").append(ROOM).append("/n' type='groupchat'>").append(body()).append("</message>");
            }
            if (data.consumeInt(0, 15) == 0) {
                item.append(pick("text", "<extra/>", "<!-- c -->", "<?pi x?>"));
            }
            return item.append("</forwarded>").toString();
        }

        private String compactItem(boolean fromEpoch) {
            StringBuilder m = new StringBuilder("<m");
            if (data.consumeInt(0, 7) != 0) {
                attribute(m, "n", pick("Romeo", "", " ", "a/b", "&<>\"'"));
            }
            for (int i = data.consumeInt(0, 4); i > 0; i--) {
                String name = pick("id", "o", "s", "sid", "t", "l", "xml:lang", "x");
                String value = switch (name) {
                    case "t" -> pick(STEPS.toArray(new String[0]));
                    case "s" -> pick("0", "1", "a", "zzzzzzzzzzzz", "zzzzzzzzzzzzz", "01", "A", "-1", "");
                    case "l" -> pick("1", "0", "true");
                    default -> pick(NUMBERS.toArray(new String[0]));
                };
                if (m.indexOf(" " + name + "=") < 0) {
                    attribute(m, name, value);
                }
            }
            if (fromEpoch && data.consumeInt(0, 7) != 0 && m.indexOf(" t=") < 0) {
                attribute(m, "t", pick(STEPS.toArray(new String[0])));
            }
            return m.append('>').append(body()).append("</m>").toString();
        }

        private String body() {
            StringBuilder body = new StringBuilder();
            if (data.consumeBoolean()) {
                XmlText.appendText(body.append("<body>"), data.consumeString(40).replaceAll("[^\\x09\\x0A\\x0D\\x20-\\uD7FF\\uE000-\\uFFFD]", ""))
                        .append("</body>");
            }
            if (data.consumeInt(0, 7) == 0) {
                body.append(pick("<x xmlns='urn:other' a='1'><y/></x>", "text", "<body xml:lang='en'>b</body>", "<![CDATA[c]]>"));
            }
            return body.toString();
        }

        /** The true value, most of the time; else one that lies. */
        private String lie(String truth) {
            return data.consumeInt(0, 5) != 0 ? truth : pick(NUMBERS.toArray(new String[0]));
        }

        private byte[] corrupt(byte[] bytes) {
            if (bytes.length > 0 && data.consumeInt(0, 7) == 0) {
                bytes[data.consumeInt(0, bytes.length - 1)] ^= (byte) data.consumeInt(1, 255);
            }
            return bytes;
        }

        private String pick(String... choices) {
            return choices[data.consumeInt(0, choices.length - 1)];
        }

        private static void attribute(StringBuilder b, String name, String value) {
            XmlText.appendAttribute(b.append(' ').append(name).append("=\""), value).append('"');
        }
    }
}
