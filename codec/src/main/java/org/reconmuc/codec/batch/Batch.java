package org.reconmuc.codec.batch;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.XmlText;

/**
 * The {@code <batch xmlns='urn:reconmuc:0'/>} element (reconmuc.md §5.9), written from its items'
 * XML text. A room renders each logged message's item once and concatenates the cached text for
 * every batch that carries it: no document model per recipient. Reading is {@link BatchDecoder}.
 */
public final class Batch {
    public static final String ELEMENT = "batch";
    public static final String NAMESPACE = XmlNamespaces.RECONMUC;

    public static final String COUNT = "count";
    public static final String ENCODING = "encoding";
    public static final String FORM = "form";
    public static final String SIZE = "size";
    public static final String COMPRESSED_SIZE = "compressed-size";
    /** Compact form: when the room received the first item (XEP-0082, whole seconds). */
    public static final String STAMP = "stamp";
    /** Compact form: what the room's stanza-ids of the items start with. */
    public static final String STANZA_ID_PREFIX = "sid";
    /** Deflate stream: the batch's number in its session's stream. */
    public static final String STREAM_NUMBER = "n";

    private Batch() {
    }

    /**
     * One item of the {@link BatchForm#FORWARDED} form: {@code <forwarded xmlns='urn:xmpp:forward:0'>}
     * holding an XEP-0203 delay ({@code stamp}, XEP-0082, and {@code from} the room's bare JID)
     * and the message as the room broadcast it.
     *
     * @param messageXml the {@code <message/>} element as text, declaring {@code xmlns='jabber:client'}
     *     itself and without a {@code to} attribute (§5.9 rule 2.2)
     */
    public static String forwardedItem(String stamp, String delayFrom, String messageXml) {
        StringBuilder xml = new StringBuilder(messageXml.length() + stamp.length() + delayFrom.length() + 120)
                .append("<forwarded xmlns=\"").append(XmlNamespaces.FORWARD).append("\"><delay xmlns=\"")
                .append(XmlNamespaces.DELAY).append("\" stamp=\"");
        XmlText.appendAttribute(xml, stamp).append("\" from=\"");
        XmlText.appendAttribute(xml, delayFrom).append("\"/>");
        return xml.append(messageXml).append("</forwarded>").toString();
    }

    /** A {@link BatchEncoding#PLAIN} batch of these items (each complete XML text with its own namespace declarations), in room order. */
    public static String plain(List<String> items) {
        int length = 64;
        for (String item : items) {
            length += item.length();
        }
        StringBuilder xml = openTag(new StringBuilder(length), items.size()).append('>');
        for (String item : items) {
            xml.append(item);
        }
        return xml.append("</").append(ELEMENT).append('>').toString();
    }

    /**
     * A {@link BatchEncoding#DEFLATE} batch of these items: their UTF-8 bytes concatenated,
     * compressed on their own at {@code level} (0–9), base64 without line breaks.
     */
    public static String deflate(List<String> items, int level) {
        StringBuilder all = new StringBuilder();
        for (String item : items) {
            all.append(item);
        }
        byte[] payload = all.toString().getBytes(StandardCharsets.UTF_8);
        byte[] compressed = RawDeflate.deflate(payload, level);
        String base64 = Base64.getEncoder().encodeToString(compressed);
        return openTag(new StringBuilder(base64.length() + 160), items.size())
                .append(" ").append(ENCODING).append("=\"").append(BatchEncoding.DEFLATE.attributeValue())
                .append("\" ").append(SIZE).append("=\"").append(payload.length)
                .append("\" ").append(COMPRESSED_SIZE).append("=\"").append(compressed.length).append("\">")
                .append(base64).append("</").append(ELEMENT).append('>').toString();
    }

    /**
     * A {@link BatchForm#COMPACT} batch of these items, in room order: {@code stamp} (the first
     * item's second) and the stanza-ids' common prefix once on the batch; per item, a stanza-id
     * suffix only where it is not the previous one plus one, and the seconds since the previous
     * item only where they are not 0 (§5.9 rule 7).
     */
    public static String compact(List<CompactItem> items) {
        return compact(items, false);
    }

    /**
     * {@link #compact(List)}, the last item marked live when {@code live} (aggregation
     * {@code compact-live}): a message sent at once, after the retained ones it carries along
     * (§5.9 rule 8.6).
     */
    public static String compact(List<CompactItem> items, boolean live) {
        StringBuilder xml = compactOpenTag(items, null);
        return compactItems(xml.append('>'), items, stanzaIdPrefix(items.get(0).stanzaId()),
                Math.floorDiv(items.get(0).atMillis(), 1000), live)
                .append("</").append(ELEMENT).append('>').toString();
    }

    /**
     * A compact batch in the session's {@link BatchEncoding#DEFLATE_STREAM}: the same attributes,
     * and as text the base64 of its items compressed in {@code stream} by {@code deflater}.
     */
    public static String compactDeflateStream(List<CompactItem> items, DeflateStream stream, java.util.zip.Deflater deflater) {
        byte[] payload = compactStreamPayload(items);
        return compactDeflateStream(items, payload, stream.next(payload, deflater));
    }

    /** What a compact batch of these items carries in a deflate stream, before compression (UTF-8). */
    public static byte[] compactStreamPayload(List<CompactItem> items) {
        return streamPayload(items, BatchEncoding.DEFLATE_STREAM, false);
    }

    /**
     * What a batch of these items carries in a session's stream of this {@code encoding}, before
     * compression (UTF-8): the compact items, each naming its whole stanza-id, timed from the first
     * item ({@link BatchEncoding#DEFLATE_STREAM}, whose batch has a {@code stamp}) or from the Unix
     * epoch ({@link BatchEncoding#DEFLATE_LIVE}, whose batch has none); the last item marked live
     * when {@code live}: a message sent at once, after the retained ones it carries along (§5.9
     * rule 8.6), which a live stream holds and a deflate-stream batch does not.
     */
    public static byte[] streamPayload(List<CompactItem> items, BatchEncoding encoding, boolean live) {
        if (encoding != BatchEncoding.DEFLATE_STREAM && encoding != BatchEncoding.DEFLATE_LIVE) {
            throw new IllegalArgumentException("not a stream encoding: " + encoding);
        }
        if (live && encoding != BatchEncoding.DEFLATE_LIVE) {
            throw new IllegalArgumentException("no live item in a deflate-stream batch");
        }
        long origin = encoding == BatchEncoding.DEFLATE_LIVE ? 0 : Math.floorDiv(items.get(0).atMillis(), 1000);
        // No batch 'sid' in a stream: each item names its whole stanza-id, whose repeated prefix the
        // stream compresses to a few bits, where the attribute would cost its bytes on every batch.
        return compactItems(new StringBuilder(items.size() * 200), items, null, origin, live).toString()
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The batch of a session's stream in {@code encoding} whose {@link #streamPayload payload} of
     * these items is {@code chunk} in the stream (compressed by {@link DeflateStream#compress}).
     */
    public static String streamBatch(BatchEncoding encoding, List<CompactItem> items, byte[] payload, DeflateStream.Chunk chunk) {
        return encoding == BatchEncoding.DEFLATE_LIVE ? deflateLive(chunk) : compactDeflateStream(items, payload, chunk);
    }

    /**
     * The deflate-stream batch of these items, whose {@link #compactStreamPayload payload} is
     * {@code chunk} in its session's stream (compressed by {@link DeflateStream#compress}).
     */
    public static String compactDeflateStream(List<CompactItem> items, byte[] payload, DeflateStream.Chunk chunk) {
        String base64 = Base64.getEncoder().encodeToString(chunk.bytes());
        StringBuilder xml = compactOpenTag(items, BatchEncoding.DEFLATE_STREAM);
        return xml.append(' ').append(STREAM_NUMBER).append("=\"").append(chunk.n()).append("\" ").append(SIZE).append("=\"")
                .append(payload.length).append("\">").append(base64).append("</").append(ELEMENT).append('>').toString();
    }

    /**
     * A batch of a live stream (§5.9 rule 8.7): its number and, in {@link Base85}, its chunk of the
     * stream; everything else a deflate-stream batch says is in the payload or implied.
     */
    public static String deflateLive(DeflateStream.Chunk chunk) {
        String text = Base85.encode(chunk.bytes());
        return new StringBuilder(text.length() + 80).append('<').append(ELEMENT).append(" xmlns=\"").append(NAMESPACE)
                .append("\" ").append(ENCODING).append("=\"").append(BatchEncoding.DEFLATE_LIVE.attributeValue())
                .append("\" ").append(STREAM_NUMBER).append("=\"").append(chunk.n()).append("\">").append(text)
                .append("</").append(ELEMENT).append('>').toString();
    }

    private static StringBuilder compactOpenTag(List<CompactItem> items, BatchEncoding encoding) {
        StringBuilder xml = openTag(new StringBuilder(items.size() * 200 + 160), items.size())
                .append(' ').append(FORM).append("=\"").append(BatchForm.COMPACT.attributeValue()).append('"');
        if (encoding != null) {
            xml.append(' ').append(ENCODING).append("=\"").append(encoding.attributeValue()).append('"');
        }
        xml.append(' ').append(STAMP).append("=\"").append(java.time.Instant.ofEpochSecond(
                Math.floorDiv(items.get(0).atMillis(), 1000)).toString()).append('"');
        String prefix = encoding == BatchEncoding.DEFLATE_STREAM ? null : stanzaIdPrefix(items.get(0).stanzaId());
        if (prefix != null) {
            xml.append(' ').append(STANZA_ID_PREFIX).append("=\"");
            XmlText.appendAttribute(xml, prefix).append('"');
        }
        return xml;
    }

    /**
     * The items with their stanza-id and time attributes, relative to the batch and to each other:
     * the first item's time counted from {@code originSecond}.
     */
    private static StringBuilder compactItems(StringBuilder xml, List<CompactItem> items, String prefix, long originSecond,
            boolean live) {
        long previousSecond = originSecond;
        long previousSuffix = -1;
        int last = items.size() - 1;
        for (int i = 0; i <= last; i++) {
            CompactItem item = items.get(i);
            xml.append(item.head());
            long suffix = -1;
            String sid = item.stanzaId();
            if (sid != null) {
                suffix = prefix == null ? -1 : base36Suffix(sid, prefix);
                if (suffix < 0) {
                    xml.append(' ').append(CompactItem.STANZA_ID).append("=\"");
                    XmlText.appendAttribute(xml, sid).append('"');
                } else if (suffix != previousSuffix + 1 || previousSuffix < 0) {
                    xml.append(' ').append(CompactItem.STANZA_ID_SUFFIX).append("=\"").append(Long.toString(suffix, 36)).append('"');
                }
            }
            previousSuffix = suffix;
            long second = Math.floorDiv(item.atMillis(), 1000);
            if (second != previousSecond) {
                xml.append(' ').append(CompactItem.TIME_STEP).append("=\"").append(second - previousSecond).append('"');
                previousSecond = second;
            }
            if (live && i == last) {
                xml.append(' ').append(CompactItem.LIVE).append("=\"").append(CompactItem.LIVE_VALUE).append('"');
            }
            xml.append(item.rest());
        }
        return xml;
    }

    /**
     * What a stanza-id minted as prefix + base-36 counter (how this project's rooms mint them)
     * starts with, up to its last {@code -}; null if it is not of that shape.
     */
    static String stanzaIdPrefix(String stanzaId) {
        if (stanzaId == null) {
            return null;
        }
        int dash = stanzaId.lastIndexOf('-');
        return dash > 0 && base36Suffix(stanzaId, stanzaId.substring(0, dash + 1)) >= 0 ? stanzaId.substring(0, dash + 1) : null;
    }

    /** The base-36 number {@code stanzaId} holds after {@code prefix} (lower case, no leading zero), or -1. */
    static long base36Suffix(String stanzaId, String prefix) {
        if (!stanzaId.startsWith(prefix)) {
            return -1;
        }
        String suffix = stanzaId.substring(prefix.length());
        if (suffix.isEmpty() || suffix.length() > 12 || (suffix.length() > 1 && suffix.charAt(0) == '0')) {
            return -1;
        }
        for (int i = 0; i < suffix.length(); i++) {
            char c = suffix.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'z')) {
                return -1;
            }
        }
        return Long.parseLong(suffix, 36);
    }

    private static StringBuilder openTag(StringBuilder xml, int count) {
        return xml.append('<').append(ELEMENT).append(" xmlns=\"").append(NAMESPACE).append("\" ")
                .append(COUNT).append("=\"").append(count).append('"');
    }
}
