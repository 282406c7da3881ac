package org.reconmuc.codec.batch;

import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
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
 * <p>Keep one decoder per receiving session: encodings that carry state from one batch to the
 * next keep it here. Not thread-safe.
 */
public final class BatchDecoder {
    /** The default bomb guard: the most bytes a batch may declare it inflates to. Far above any real batch. */
    public static final int DEFAULT_MAX_INFLATED_BYTES = 16 * 1024 * 1024;

    private static final XMLInputFactory XML = SecureXml.inputFactory();

    private final int maxInflatedBytes;

    /** A decoder with the default limit {@link #DEFAULT_MAX_INFLATED_BYTES}. */
    public BatchDecoder() {
        this(DEFAULT_MAX_INFLATED_BYTES);
    }

    /** A decoder that refuses batches declaring more than {@code maxInflatedBytes} inflated bytes. */
    public BatchDecoder(int maxInflatedBytes) {
        this.maxInflatedBytes = maxInflatedBytes;
    }

    /**
     * Decodes one {@code <batch xmlns='urn:reconmuc:0'/>} element given as XML text (its namespace
     * declared on it, as any serialiser of a stanza's child writes it).
     *
     * @throws MalformedBatchException naming the first rule the batch breaks
     */
    public DecodedBatch decode(CharSequence batchXml) throws MalformedBatchException {
        try {
            XMLStreamReader r = XML.createXMLStreamReader(new StringReader(batchXml.toString()));
            try {
                toRootElement(r);
                if (!Batch.ELEMENT.equals(r.getLocalName()) || !Batch.NAMESPACE.equals(r.getNamespaceURI())) {
                    throw new MalformedBatchException("not a <" + Batch.ELEMENT + " xmlns='" + Batch.NAMESPACE
                            + "'/> but <" + r.getLocalName() + " xmlns='" + r.getNamespaceURI() + "'/>");
                }
                Header header = Header.read(r);
                List<String> items = switch (header.encoding) {
                    case PLAIN -> {
                        if (header.size != null || header.compressedSize != null) {
                            throw new MalformedBatchException("a plain batch has no size or compressed-size");
                        }
                        yield items(r, header.form);
                    }
                    case DEFLATE -> items(inflate(r, header), header.form);
                };
                toEndOfDocument(r);
                if (items.size() != header.count) {
                    throw new MalformedBatchException("count is " + header.count + " but the batch holds "
                            + items.size() + " items");
                }
                return new DecodedBatch(header.form, header.encoding, items);
            } finally {
                r.close();
            }
        } catch (XMLStreamException e) {
            throw new MalformedBatchException("not acceptable XML: " + e.getMessage(), e);
        }
    }

    /** The attributes of a batch element, checked. */
    private record Header(int count, BatchEncoding encoding, BatchForm form, Integer size, Integer compressedSize) {
        static Header read(XMLStreamReader r) throws MalformedBatchException {
            Integer count = null;
            Integer size = null;
            Integer compressedSize = null;
            String encoding = null;
            String form = null;
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
                    case Batch.ENCODING -> encoding = value;
                    case Batch.FORM -> form = value;
                    default -> throw new MalformedBatchException("unknown attribute '" + name + "' on a batch");
                }
            }
            if (count == null) {
                throw new MalformedBatchException("a batch needs 'count'");
            }
            BatchEncoding e = BatchEncoding.fromAttribute(encoding);
            if (e == null) {
                throw new MalformedBatchException("unknown encoding '" + encoding + "'");
            }
            BatchForm f = BatchForm.fromAttribute(form);
            if (f == null) {
                throw new MalformedBatchException("unknown form '" + form + "'");
            }
            return new Header(count, e, f, size, compressedSize);
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
        if (header.size == null || header.compressedSize == null) {
            throw new MalformedBatchException("a deflate batch needs 'size' and 'compressed-size'");
        }
        StringBuilder text = new StringBuilder();
        while (r.next() != XMLStreamConstants.END_ELEMENT) {
            switch (r.getEventType()) {
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> text.append(r.getText());
                case XMLStreamConstants.START_ELEMENT -> throw new MalformedBatchException("a deflate batch has no child elements");
                default -> throw refused(r.getEventType());
            }
        }
        byte[] deflated;
        try {
            deflated = Base64.getDecoder().decode(XmlText.withoutWhiteSpace(text));
        } catch (IllegalArgumentException e) {
            throw new MalformedBatchException("the payload is not base64: " + e.getMessage(), e);
        }
        if (deflated.length != header.compressedSize) {
            throw new MalformedBatchException("compressed-size is " + header.compressedSize + " but the payload has "
                    + deflated.length + " bytes");
        }
        byte[] payload = RawDeflate.inflate(deflated, header.size, maxInflatedBytes);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(payload)).toString();
        } catch (CharacterCodingException e) {
            throw new MalformedBatchException("the payload is not UTF-8", e);
        }
    }

    /**
     * The items of an inflated payload: concatenated elements, each declaring its own namespaces,
     * so they are read inside a wrapper that declares none.
     */
    private static List<String> items(String payload, BatchForm form) throws XMLStreamException, MalformedBatchException {
        XMLStreamReader r = XML.createXMLStreamReader(new StringReader("<payload>" + payload + "</payload>"));
        try {
            toRootElement(r);
            List<String> items = items(r, form);
            toEndOfDocument(r);
            return items;
        } finally {
            r.close();
        }
    }

    /** The items under the element the reader is at (leaves it at that element's end tag). */
    private static List<String> items(XMLStreamReader r, BatchForm form) throws XMLStreamException, MalformedBatchException {
        List<String> items = new ArrayList<>();
        while (r.next() != XMLStreamConstants.END_ELEMENT) {
            switch (r.getEventType()) {
                case XMLStreamConstants.START_ELEMENT -> {
                    if (!form.itemElement().equals(r.getLocalName()) || !form.itemNamespace().equals(r.getNamespaceURI())) {
                        throw new MalformedBatchException("a batch holds only <" + form.itemElement() + " xmlns='"
                                + form.itemNamespace() + "'/> items, not <" + r.getLocalName() + " xmlns='"
                                + r.getNamespaceURI() + "'/>");
                    }
                    items.add(forwardedItem(r));
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
