package org.reconmuc.codec.batch;

import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Arrays;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.XmlElementWriter;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.XmlText;

/**
 * Reads batches strictly, as reconmuc.md §5.9 and §5.13 require of a receiver: {@code count}
 * equals the number of items; a plain batch holds only {@code <forwarded/>} items and white space;
 * each item holds an XEP-0203 delay and then the message in {@code jabber:client}; a deflate batch
 * has no child elements, its base64 text decodes to exactly {@code compressed-size} bytes, which
 * inflate to exactly {@code size} bytes of UTF-8 (refused before inflating when {@code size} is
 * above this decoder's limit); no DTD, comment or processing instruction anywhere; no attribute
 * the protocol does not define (except in other namespaces). A batch that breaks a rule is refused
 * whole with a {@link MalformedBatchException} naming the rule.
 *
 * <p>A {@link BatchForm#COMPACT} batch is expanded to the same forwarded items a
 * {@link BatchForm#FORWARDED} batch would hold; the expansion needs the room's bare JID (the
 * batch's {@code from}). A {@link BatchEncoding#DEFLATE_STREAM} or {@link BatchEncoding#DEFLATE_LIVE}
 * batch continues the session's stream: this decoder keeps its inflater, checks that the batches
 * come numbered 1, 2, 3…, and after a gap or a corrupt batch refuses the stream's batches until one
 * starts a new stream. A deflate-live batch has no {@code count} or {@code size}: it holds at least
 * one item, and never inflates past this decoder's limit.
 *
 * <p>Keep one decoder per receiving session: encodings that carry state from one batch to the
 * next keep it here. Not thread-safe.
 */
public final class BatchDecoder {
    /** The default bomb guard: the most bytes a batch may declare it inflates to. Far above any real batch. */
    public static final int DEFAULT_MAX_INFLATED_BYTES = 16 * 1024 * 1024;

    private static final XMLInputFactory XML = SecureXml.inputFactory();
    /** The times an item may have: XEP-0082 dates, years 0000 to 9999. */
    private static final Instant FIRST_SECOND = Instant.parse("0000-01-01T00:00:00Z");
    private static final Instant LAST_SECOND = Instant.parse("9999-12-31T23:59:59Z");

    private final int maxInflatedBytes;
    /** The session's deflate stream: its inflater, the number the next batch must carry (0: none yet). */
    private Inflater stream;
    private int nextInStream;

    /** A decoder with the default limit {@link #DEFAULT_MAX_INFLATED_BYTES}. */
    public BatchDecoder() {
        this(DEFAULT_MAX_INFLATED_BYTES);
    }

    /** A decoder that refuses batches declaring more than {@code maxInflatedBytes} inflated bytes. */
    public BatchDecoder(int maxInflatedBytes) {
        if (maxInflatedBytes < 0 || maxInflatedBytes > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("a limit of 0 to " + (Integer.MAX_VALUE - 16) + " bytes, not " + maxInflatedBytes);
        }
        this.maxInflatedBytes = maxInflatedBytes;
    }

    /**
     * Decodes one {@code <batch xmlns='urn:reconmuc:0'/>} element given as XML text (its namespace
     * declared on it, as any serialiser of a stanza's child writes it) of the forwarded form.
     *
     * @throws MalformedBatchException naming the first rule the batch breaks
     */
    public DecodedBatch decode(CharSequence batchXml) throws MalformedBatchException {
        return decode(batchXml, null);
    }

    /**
     * Decodes one batch from the room {@code roomJid} (the bare JID the batch came from), in any
     * form: compact items are expanded to the forwarded items they stand for.
     *
     * @throws MalformedBatchException naming the first rule the batch breaks
     */
    public DecodedBatch decode(CharSequence batchXml, String roomJid) throws MalformedBatchException {
        try {
            XMLStreamReader r = XML.createXMLStreamReader(new StringReader(batchXml.toString()));
            try {
                toRootElement(r);
                if (!Batch.ELEMENT.equals(r.getLocalName()) || !Batch.NAMESPACE.equals(r.getNamespaceURI())) {
                    throw new MalformedBatchException("not a <" + Batch.ELEMENT + " xmlns='" + Batch.NAMESPACE
                            + "'/> but <" + r.getLocalName() + " xmlns='" + r.getNamespaceURI() + "'/>");
                }
                Header header = Header.read(r);
                if (header.form == BatchForm.COMPACT && (roomJid == null || roomJid.isEmpty())) {
                    throw new IllegalArgumentException("a compact batch is expanded with its room's JID: decode(xml, room)");
                }
                Expansion expansion = new Expansion(header, roomJid);
                List<String> items = switch (header.encoding) {
                    case PLAIN -> items(r, expansion);
                    case DEFLATE -> items(inflate(r, header), expansion);
                    case DEFLATE_STREAM, DEFLATE_LIVE -> items(inflateStream(r, header), expansion);
                };
                toEndOfDocument(r);
                if (header.count == null ? items.isEmpty() : items.size() != header.count) {
                    throw new MalformedBatchException(header.count == null ? "a batch holds at least one item"
                            : "count is " + header.count + " but the batch holds " + items.size() + " items");
                }
                return new DecodedBatch(header.form, header.encoding, items, expansion.live);
            } finally {
                r.close();
            }
        } catch (XMLStreamException e) {
            throw new MalformedBatchException("not acceptable XML: " + e.getMessage(), e);
        }
    }

    /** Forgets the session's deflate stream (the room starts a new one, numbered from 1, after a rejoin). */
    public void resetStream() {
        if (stream != null) {
            stream.end();
        }
        stream = null;
        nextInStream = 0;
    }

    /** The attributes of a batch element, checked. */
    private record Header(Integer count, BatchEncoding encoding, BatchForm form, Integer size, Integer compressedSize,
            Instant stamp, String stanzaIdPrefix, Integer streamNumber) {
        static Header read(XMLStreamReader r) throws MalformedBatchException {
            Integer count = null;
            Integer size = null;
            Integer compressedSize = null;
            Integer streamNumber = null;
            String encoding = null;
            String form = null;
            String stamp = null;
            String sid = null;
            for (int i = 0; i < r.getAttributeCount(); i++) {
                String ns = r.getAttributeNamespace(i);
                if (ns != null && !ns.isEmpty()) {
                    continue; // others may extend the element in their own namespaces (the schema's anyAttribute ##other)
                }
                String name = r.getAttributeLocalName(i);
                String value = r.getAttributeValue(i);
                switch (name) {
                    case Batch.COUNT -> count = positive(name, value);
                    case Batch.SIZE -> size = positive(name, value);
                    case Batch.COMPRESSED_SIZE -> compressedSize = positive(name, value);
                    case Batch.STREAM_NUMBER -> streamNumber = positive(name, value);
                    case Batch.ENCODING -> encoding = value;
                    case Batch.FORM -> form = value;
                    case Batch.STAMP -> stamp = value;
                    case Batch.STANZA_ID_PREFIX -> sid = value;
                    default -> throw new MalformedBatchException("unknown attribute '" + name + "' on a batch");
                }
            }
            BatchEncoding e = BatchEncoding.fromAttribute(encoding);
            if (e == BatchEncoding.DEFLATE_LIVE) {
                // §5.9 rule 8.7: the form is compact, the items are timed from the Unix epoch, and the
                // payload says how many items there are.
                require(count == null && form == null && stamp == null && sid == null && size == null && compressedSize == null
                        && streamNumber != null, "a deflate-live batch has only 'encoding' and 'n'");
                return new Header(null, e, BatchForm.COMPACT, null, null, Instant.EPOCH, null, streamNumber);
            }
            if (count == null) {
                throw new MalformedBatchException("a batch needs 'count'");
            }
            if (e == null) {
                throw new MalformedBatchException("unknown encoding '" + encoding + "'");
            }
            BatchForm f = BatchForm.fromAttribute(form);
            if (f == null) {
                throw new MalformedBatchException("unknown form '" + form + "'");
            }
            switch (e) {
                case PLAIN -> require(size == null && compressedSize == null && streamNumber == null,
                        "a plain batch has no size, compressed-size or n");
                case DEFLATE -> require(size != null && compressedSize != null && streamNumber == null,
                        "a deflate batch needs 'size' and 'compressed-size' (and no 'n')");
                case DEFLATE_STREAM -> require(size != null && streamNumber != null && compressedSize == null,
                        "a deflate-stream batch needs 'n' and 'size' (and no 'compressed-size')");
                case DEFLATE_LIVE -> throw new AssertionError("read above");
            }
            Instant at = null;
            if (f == BatchForm.COMPACT) {
                require(stamp != null, "a compact batch has a 'stamp'");
                try {
                    at = Instant.parse(stamp);
                } catch (DateTimeParseException ex) {
                    at = null;
                }
                // java.time reads years far past XEP-0082's four digits; they would overflow the items' times.
                if (at == null || at.isBefore(FIRST_SECOND) || at.isAfter(LAST_SECOND)) {
                    throw new MalformedBatchException("'stamp' is not an XEP-0082 date and time: '" + stamp + "'");
                }
            } else {
                require(stamp == null && sid == null, "only a compact batch has 'stamp' and 'sid'");
            }
            return new Header(count, e, f, size, compressedSize, at, sid, streamNumber);
        }

        private static void require(boolean rule, String text) throws MalformedBatchException {
            if (!rule) {
                throw new MalformedBatchException(text);
            }
        }

        private static int positive(String name, String value) throws MalformedBatchException {
            try {
                int n = Integer.parseInt(value.trim());
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new MalformedBatchException("'" + name + "' must be a positive integer, not '" + value + "'");
        }
    }

    /** The payload of a deflate batch (the reader is at its start tag; leaves it at its end tag), as text. */
    private String inflate(XMLStreamReader r, Header header) throws XMLStreamException, MalformedBatchException {
        byte[] deflated = base64Text(r);
        if (deflated.length != header.compressedSize) {
            throw new MalformedBatchException("compressed-size is " + header.compressedSize + " but the payload has "
                    + deflated.length + " bytes");
        }
        return utf8(RawDeflate.inflate(deflated, header.size, maxInflatedBytes));
    }

    /**
     * The payload of a stream batch, inflated by the session's stream: batch 1 starts a new stream;
     * any other must be the one after the last. A gap or a corrupt batch loses the stream. A
     * deflate-stream batch inflates to exactly its {@code size}; a deflate-live batch, which has no
     * size, to at most this decoder's limit.
     */
    private String inflateStream(XMLStreamReader r, Header header) throws XMLStreamException, MalformedBatchException {
        byte[] deflated = header.encoding == BatchEncoding.DEFLATE_LIVE ? base85Text(r) : base64Text(r);
        int n = header.streamNumber;
        String kind = header.encoding.attributeValue();
        if (n == 1) {
            resetStream();
            stream = new Inflater(true);
        } else if (stream == null || n != nextInStream) {
            String expected = stream == null ? "a new stream (n='1')" : "n='" + nextInStream + "'";
            resetStream();
            throw new MalformedBatchException(kind + " batch n='" + n + "' where " + expected
                    + " was due: the stream is lost; ask for the aggregation again to start a new one");
        }
        if (header.size != null && header.size > maxInflatedBytes) {
            resetStream();
            throw new MalformedBatchException("refusing to inflate a declared size of " + header.size
                    + " bytes (the limit is " + maxInflatedBytes + ")");
        }
        int limit = header.size != null ? header.size : maxInflatedBytes;
        byte[] input = Arrays.copyOf(deflated, deflated.length + DeflateStream.SYNC_TRAILER.length);
        System.arraycopy(DeflateStream.SYNC_TRAILER, 0, input, deflated.length, DeflateStream.SYNC_TRAILER.length);
        // Never more than the limit + 1 bytes, grown as they come: a bomb is caught at the first byte too many.
        byte[] out = new byte[(int) Math.min(limit + 1L, header.size != null ? limit + 1L : Math.max(1024L, deflated.length * 8L))];
        int produced = 0;
        try {
            stream.setInput(input);
            while (produced <= limit) {
                if (produced == out.length) {
                    out = Arrays.copyOf(out, (int) Math.min(limit + 1L, 2L * out.length));
                }
                int k = stream.inflate(out, produced, out.length - produced);
                if (k == 0) {
                    break; // all input used (or a dictionary asked for, or the stream ended: checked below)
                }
                produced += k;
            }
            if (produced > limit) {
                throw new MalformedBatchException(header.size != null
                        ? "the payload inflates to more than its size of " + header.size + " bytes"
                        : "the payload inflates to more than the limit of " + limit + " bytes");
            }
            if ((header.size != null && produced != header.size) || !stream.needsInput() || stream.finished()) {
                throw new MalformedBatchException(stream.finished() ? "a " + kind + " batch ended the stream"
                        : header.size != null ? "size is " + header.size + " but the payload inflates to " + produced + " bytes"
                        : "the payload does not end where its batch does");
            }
        } catch (DataFormatException e) {
            resetStream();
            throw new MalformedBatchException("the payload does not continue the deflate stream: " + e.getMessage(), e);
        } catch (MalformedBatchException e) {
            resetStream();
            throw e;
        }
        nextInStream = n + 1;
        return utf8(Arrays.copyOf(out, produced));
    }

    /** The base64 text of an encoded batch (the reader is at its start tag; leaves it at its end tag), decoded. */
    private static byte[] base64Text(XMLStreamReader r) throws XMLStreamException, MalformedBatchException {
        String text = encodedText(r);
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new MalformedBatchException("the payload is not base64: " + e.getMessage(), e);
        }
    }

    /** The base-85 text of a deflate-live batch (§5.9 rule 8.7), decoded. */
    private static byte[] base85Text(XMLStreamReader r) throws XMLStreamException, MalformedBatchException {
        String text = encodedText(r);
        try {
            return Base85.decode(text);
        } catch (IllegalArgumentException e) {
            throw new MalformedBatchException("the payload is not base 85: " + e.getMessage(), e);
        }
    }

    /** The text of an encoded batch without its white space (the reader is at its start tag; leaves it at its end tag). */
    private static String encodedText(XMLStreamReader r) throws XMLStreamException, MalformedBatchException {
        StringBuilder text = new StringBuilder();
        while (r.next() != XMLStreamConstants.END_ELEMENT) {
            switch (r.getEventType()) {
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> text.append(r.getText());
                case XMLStreamConstants.START_ELEMENT -> throw new MalformedBatchException("an encoded batch has no child elements");
                default -> throw refused(r.getEventType());
            }
        }
        return XmlText.withoutWhiteSpace(text).toString();
    }

    private static String utf8(byte[] payload) throws MalformedBatchException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(payload)).toString();
        } catch (CharacterCodingException e) {
            throw new MalformedBatchException("the payload is not UTF-8", e);
        }
    }

    /**
     * The items of an inflated payload: concatenated elements, read inside a wrapper that gives
     * them the batch's namespace context (forwarded items declare their own; compact items stand
     * in the batch's namespace).
     */
    private static List<String> items(String payload, Expansion expansion) throws XMLStreamException, MalformedBatchException {
        String wrapper = expansion.header.form == BatchForm.COMPACT ? "<payload xmlns=\"" + Batch.NAMESPACE + "\">" : "<payload>";
        XMLStreamReader r = XML.createXMLStreamReader(new StringReader(wrapper + payload + "</payload>"));
        try {
            toRootElement(r);
            List<String> items = items(r, expansion);
            toEndOfDocument(r);
            return items;
        } finally {
            r.close();
        }
    }

    /** The items under the element the reader is at (leaves it at that element's end tag). */
    private static List<String> items(XMLStreamReader r, Expansion expansion) throws XMLStreamException, MalformedBatchException {
        BatchForm form = expansion.header.form;
        List<String> items = new ArrayList<>();
        while (r.next() != XMLStreamConstants.END_ELEMENT) {
            switch (r.getEventType()) {
                case XMLStreamConstants.START_ELEMENT -> {
                    if (!form.itemElement().equals(r.getLocalName()) || !form.itemNamespace().equals(r.getNamespaceURI())) {
                        throw new MalformedBatchException("a batch holds only <" + form.itemElement() + " xmlns='"
                                + form.itemNamespace() + "'/> items, not <" + r.getLocalName() + " xmlns='"
                                + r.getNamespaceURI() + "'/>");
                    }
                    items.add(form == BatchForm.COMPACT ? expansion.expand(r) : forwardedItem(r));
                }
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                    if (!XmlText.isWhiteSpace(r.getText())) {
                        throw new MalformedBatchException("a batch holds no text between its items");
                    }
                }
                default -> throw refused(r.getEventType());
            }
        }
        return items;
    }

    /**
     * Copies the {@code <forwarded/>} element the reader is at into text that declares every
     * namespace it uses, checking that it holds a delay and then a {@code jabber:client} message.
     */
    private static String forwardedItem(XMLStreamReader r) throws XMLStreamException, MalformedBatchException {
        StringBuilder out = new StringBuilder(512);
        XmlElementWriter writer = new XmlElementWriter(out);
        List<String> children = new ArrayList<>(2);
        int event = r.getEventType();
        do {
            switch (event) {
                case XMLStreamConstants.START_ELEMENT -> {
                    if (writer.depth() == 1) {
                        children.add("{" + r.getNamespaceURI() + "}" + r.getLocalName());
                    }
                    writer.startElement(r.getPrefix(), r.getNamespaceURI(), r.getLocalName());
                    for (int i = 0; i < r.getAttributeCount(); i++) {
                        writer.attribute(r.getAttributePrefix(i), r.getAttributeNamespace(i), r.getAttributeLocalName(i),
                                r.getAttributeValue(i));
                    }
                }
                case XMLStreamConstants.END_ELEMENT -> writer.endElement();
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                    if (writer.depth() == 1 && !XmlText.isWhiteSpace(r.getText())) {
                        throw new MalformedBatchException("a forwarded item holds no text beside its delay and message");
                    }
                    writer.text(r.getText());
                }
                default -> throw refused(event);
            }
            event = writer.depth() > 0 ? r.next() : event;
        } while (writer.depth() > 0);
        List<String> expected = List.of("{" + XmlNamespaces.DELAY + "}delay", "{" + XmlNamespaces.JABBER_CLIENT + "}message");
        if (!children.equals(expected)) {
            throw new MalformedBatchException("a forwarded item holds an XEP-0203 <delay/> and then a <message xmlns='"
                    + XmlNamespaces.JABBER_CLIENT + "'/>, not " + children);
        }
        return out.toString();
    }

    /**
     * Expands compact items in order (§5.9 rule 7): each stands for the forwarded item
     * {@code <forwarded><delay stamp from=room/><message from=room/n type=groupchat id>children
     * <occupant-id/><stanza-id by=room/></message></forwarded>}, its time and stanza-id counted
     * on from the previous item's.
     */
    private static final class Expansion {
        final Header header;
        final String room;
        Instant at;
        long previousSuffix = -1;
        /** Whether an item was live (§5.9 rule 8.6): it must be the last. */
        boolean live;
        /** Items expanded so far. */
        int expanded;

        Expansion(Header header, String room) {
            this.header = header;
            this.room = room;
            this.at = header.stamp;
        }

        String expand(XMLStreamReader r) throws XMLStreamException, MalformedBatchException {
            if (live) {
                throw new MalformedBatchException("a live item is the last of its batch");
            }
            String nick = null;
            String id = null;
            String occupantId = null;
            String lang = null;
            String suffix = null;
            String stanzaId = null;
            long step = 0;
            boolean timed = false;
            for (int i = 0; i < r.getAttributeCount(); i++) {
                String ns = r.getAttributeNamespace(i);
                String name = r.getAttributeLocalName(i);
                String value = r.getAttributeValue(i);
                if (javax.xml.XMLConstants.XML_NS_URI.equals(ns) && "lang".equals(name)) {
                    lang = value;
                    continue;
                }
                if (ns != null && !ns.isEmpty()) {
                    throw new MalformedBatchException("a compact item has no attribute '" + name + "' in " + ns);
                }
                switch (name) {
                    case CompactItem.NICK -> nick = value;
                    case CompactItem.ID -> id = value;
                    case CompactItem.OCCUPANT_ID -> occupantId = value;
                    case CompactItem.STANZA_ID_SUFFIX -> suffix = value;
                    case CompactItem.STANZA_ID -> stanzaId = value;
                    case CompactItem.LIVE -> {
                        if (!CompactItem.LIVE_VALUE.equals(value)) {
                            throw new MalformedBatchException("'l' marks a live item with '1', not '" + value + "'");
                        }
                        if (header.encoding != BatchEncoding.PLAIN && header.encoding != BatchEncoding.DEFLATE_LIVE) {
                            // Compact batches (compact-live) and live streams (compact-deflate-live) hold them.
                            throw new MalformedBatchException("no live item in a " + header.encoding.attributeValue() + " batch");
                        }
                        live = true;
                    }
                    case CompactItem.TIME_STEP -> {
                        try {
                            step = Long.parseLong(value);
                        } catch (NumberFormatException e) {
                            step = -1;
                        }
                        timed = true;
                        // A year between two items; from the epoch (§5.9 rule 8.7), up to the year 9999.
                        if (step < 0 || step > (fromEpoch() ? 253_402_300_799L : 31_536_000)) {
                            throw new MalformedBatchException("'t' is a whole number of seconds, not '" + value + "'");
                        }
                    }
                    default -> throw new MalformedBatchException("unknown attribute '" + name + "' on a compact item");
                }
            }
            if (nick == null || nick.isEmpty()) {
                throw new MalformedBatchException("a compact item needs 'n', its sender's nick");
            }
            if (fromEpoch() && !timed) {
                throw new MalformedBatchException("the first item of a deflate-live batch has 't', its time since the Unix epoch");
            }
            if (step > LAST_SECOND.getEpochSecond() - at.getEpochSecond()) {
                throw new MalformedBatchException("'t' takes an item past the year 9999");
            }
            expanded++;
            stanzaId = stanzaId(suffix, stanzaId);
            at = at.plusSeconds(step);
            StringBuilder out = new StringBuilder(512).append("<forwarded xmlns=\"").append(XmlNamespaces.FORWARD).append("\">");
            if (!live) {
                // A live item is the message as broadcast at once: no delay (§5.9 rule 8.6).
                out.append("<delay xmlns=\"").append(XmlNamespaces.DELAY).append("\" stamp=\"").append(at).append("\" from=\"");
                XmlText.appendAttribute(out, room).append("\"/>");
            }
            out.append("<message xmlns=\"").append(XmlNamespaces.JABBER_CLIENT).append('"');
            if (lang != null) {
                XmlText.appendAttribute(out.append(" xml:lang=\""), lang).append('"');
            }
            XmlText.appendAttribute(out.append(" from=\""), room + "/" + nick).append("\" type=\"groupchat\"");
            if (id != null) {
                XmlText.appendAttribute(out.append(" id=\""), id).append('"');
            }
            out.append('>');
            copyChildren(r, out);
            if (occupantId != null) {
                out.append("<occupant-id xmlns=\"").append(XmlNamespaces.OCCUPANT_ID).append("\" id=\"");
                XmlText.appendAttribute(out, occupantId).append("\"/>");
            }
            if (stanzaId != null) {
                out.append("<stanza-id xmlns=\"").append(XmlNamespaces.STANZA_ID).append("\" by=\"");
                XmlText.appendAttribute(out, room).append("\" id=\"");
                XmlText.appendAttribute(out, stanzaId).append("\"/>");
            }
            return out.append("</message></forwarded>").toString();
        }

        /** Whether the item being read is the first of a batch timed from the Unix epoch (§5.9 rule 8.7). */
        private boolean fromEpoch() {
            return expanded == 0 && header.encoding == BatchEncoding.DEFLATE_LIVE;
        }

        /** The item's stanza-id: its own 'sid', the batch's prefix and its 's', or the previous suffix plus one. */
        private String stanzaId(String suffix, String full) throws MalformedBatchException {
            if (suffix != null && full != null) {
                throw new MalformedBatchException("a compact item has 's' or 'sid', not both");
            }
            if (full != null) {
                previousSuffix = -1;
                return full;
            }
            String prefix = header.stanzaIdPrefix;
            if (prefix == null) {
                if (suffix != null) {
                    throw new MalformedBatchException("'s' needs the batch's 'sid'");
                }
                return null;
            }
            long value;
            if (suffix != null) {
                value = Batch.base36Suffix(prefix + suffix, prefix);
                if (value < 0) {
                    throw new MalformedBatchException("'s' is a base-36 number, not '" + suffix + "'");
                }
            } else if (previousSuffix >= 0) {
                value = previousSuffix + 1;
            } else {
                throw new MalformedBatchException("a compact item without 's' follows an item with one"
                        + " (the first item of a batch with 'sid' has 's' or 'sid')");
            }
            previousSuffix = value;
            return prefix + Long.toString(value, 36);
        }

        /** Copies the children of the compact item the reader is at into the message (leaves the reader at its end tag). */
        private static void copyChildren(XMLStreamReader r, StringBuilder out) throws XMLStreamException, MalformedBatchException {
            XmlElementWriter writer = new XmlElementWriter(out, XmlNamespaces.JABBER_CLIENT);
            while (true) {
                int event = r.next();
                switch (event) {
                    case XMLStreamConstants.START_ELEMENT -> {
                        writer.startElement(r.getPrefix(), r.getNamespaceURI(), r.getLocalName());
                        for (int i = 0; i < r.getAttributeCount(); i++) {
                            writer.attribute(r.getAttributePrefix(i), r.getAttributeNamespace(i), r.getAttributeLocalName(i),
                                    r.getAttributeValue(i));
                        }
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        if (writer.depth() == 0) {
                            return;
                        }
                        writer.endElement();
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                        if (writer.depth() == 0) {
                            if (!XmlText.isWhiteSpace(r.getText())) {
                                throw new MalformedBatchException("a compact item holds elements, not text");
                            }
                        } else {
                            writer.text(r.getText());
                        }
                    }
                    default -> throw refused(event);
                }
            }
        }
    }

    private static void toRootElement(XMLStreamReader r) throws XMLStreamException, MalformedBatchException {
        while (r.getEventType() != XMLStreamConstants.START_ELEMENT) {
            int event = r.next();
            if (event == XMLStreamConstants.SPACE || (event == XMLStreamConstants.CHARACTERS && r.isWhiteSpace())) {
                continue;
            }
            if (event != XMLStreamConstants.START_ELEMENT) {
                throw refused(event);
            }
        }
    }

    private static void toEndOfDocument(XMLStreamReader r) throws XMLStreamException, MalformedBatchException {
        while (r.hasNext()) {
            int event = r.next();
            if (event == XMLStreamConstants.END_DOCUMENT) {
                return;
            }
            if (event != XMLStreamConstants.SPACE && !(event == XMLStreamConstants.CHARACTERS && r.isWhiteSpace())) {
                throw refused(event);
            }
        }
    }

    private static MalformedBatchException refused(int event) {
        return new MalformedBatchException(switch (event) {
            case XMLStreamConstants.DTD -> "a batch holds no DTD";
            case XMLStreamConstants.COMMENT -> "a batch holds no comments";
            case XMLStreamConstants.PROCESSING_INSTRUCTION -> "a batch holds no processing instructions";
            case XMLStreamConstants.ENTITY_REFERENCE -> "a batch holds no entity references";
            default -> "unexpected XML (StAX event " + event + ")";
        });
    }

}
