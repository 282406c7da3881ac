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

    private static StringBuilder openTag(StringBuilder xml, int count) {
        return xml.append('<').append(ELEMENT).append(" xmlns=\"").append(NAMESPACE).append("\" ")
                .append(COUNT).append("=\"").append(count).append('"');
    }
}
