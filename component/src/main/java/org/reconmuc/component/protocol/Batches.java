package org.reconmuc.component.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.dom4j.Document;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.Namespace;
import org.dom4j.QName;
import org.reconmuc.component.protocol.ProtocolException.Kind;

/**
 * The batch: retained messages flushed as one stanza (reconmuc.md "The batch"). A plain batch
 * holds XEP-0297 {@code <forwarded/>} items; a compressed one holds their concatenated XML,
 * raw-deflated (RFC 1951, no zlib header) and base64-encoded.
 */
public final class Batches {
    public static final String ELEMENT = "batch";
    public static final String NAMESPACE = ReconMucNamespaces.RECONMUC;
    /** Largest inflated batch a decoder accepts (a bomb guard); far above any real batch. */
    public static final int MAX_INFLATED_BYTES = 16 * 1024 * 1024;

    private Batches() {
    }

    /**
     * {@code <forwarded xmlns='urn:xmpp:forward:0'>} for one message as the room broadcast it:
     * an XEP-0203 delay stamped with when the room received it, then the message itself in
     * {@code jabber:client} (as every forwarded stanza must be namespaced).
     */
    public static Element forwarded(Element broadcast, Instant at, String roomJid) {
        Element forwarded = DocumentHelper.createElement(QName.get("forwarded", ReconMucNamespaces.FORWARD));
        Element delay = forwarded.addElement(QName.get("delay", "urn:xmpp:delay"));
        delay.addAttribute("stamp", at.toString());
        delay.addAttribute("from", roomJid);
        forwarded.add(inNamespace(broadcast, Namespace.get(ReconMucNamespaces.JABBER_CLIENT)));
        return forwarded;
    }

    /** A deep copy with every element of the stream's default namespace moved into {@code ns}. */
    private static Element inNamespace(Element source, Namespace ns) {
        String uri = source.getNamespaceURI();
        boolean streamDefault = uri.isEmpty() || uri.equals("jabber:component:accept") || uri.equals(ns.getURI());
        Element copy = DocumentHelper.createElement(streamDefault
                ? QName.get(source.getName(), ns) : QName.get(source.getName(), source.getNamespace()));
        if (!streamDefault) {
            return source.createCopy();
        }
        for (org.dom4j.Attribute a : source.attributes()) {
            if (!"to".equals(a.getName()) || !a.getNamespaceURI().isEmpty()) {
                copy.add((org.dom4j.Attribute) a.clone());
            }
        }
        for (org.dom4j.Node n : source.content()) {
            if (n instanceof Element child) {
                copy.add(inNamespace(child, ns));
            } else if (n.getNodeType() == org.dom4j.Node.TEXT_NODE || n.getNodeType() == org.dom4j.Node.CDATA_SECTION_NODE) {
                copy.addText(n.getText());
            }
        }
        return copy;
    }

    /** A plain batch of already rendered {@code <forwarded/>} items, in room order. */
    public static Element plain(List<Element> forwardedItems) {
        Element batch = DocumentHelper.createElement(QName.get(ELEMENT, NAMESPACE));
        batch.addAttribute("count", Integer.toString(forwardedItems.size()));
        for (Element f : forwardedItems) {
            batch.add(f.createCopy());
        }
        return batch;
    }

    /**
     * A plain batch as XML text, from its items' XML text (each with its own namespace
     * declarations): what a room sends, without building a DOM per recipient.
     */
    public static String plainXml(List<String> forwardedXml) {
        int length = 64;
        for (String f : forwardedXml) {
            length += f.length();
        }
        StringBuilder xml = new StringBuilder(length).append("<").append(ELEMENT).append(" xmlns=\"").append(NAMESPACE)
                .append("\" count=\"").append(forwardedXml.size()).append("\">");
        for (String f : forwardedXml) {
            xml.append(f);
        }
        return xml.append("</").append(ELEMENT).append(">").toString();
    }

    /** A compressed batch of the given {@code <forwarded/>} items, each as its own XML text. */
    public static Element deflate(List<String> forwardedXml, int level) {
        StringBuilder all = new StringBuilder();
        for (String f : forwardedXml) {
            all.append(f);
        }
        byte[] raw = all.toString().getBytes(StandardCharsets.UTF_8);
        Deflater deflater = new Deflater(level, true);
        deflater.setInput(raw);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 3 + 64);
        byte[] buffer = new byte[8192];
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        byte[] compressed = out.toByteArray();
        Element batch = DocumentHelper.createElement(QName.get(ELEMENT, NAMESPACE));
        batch.addAttribute("count", Integer.toString(forwardedXml.size()));
        batch.addAttribute("encoding", "deflate");
        batch.addAttribute("size", Integer.toString(raw.length));
        batch.addAttribute("compressed-size", Integer.toString(compressed.length));
        batch.setText(Base64.getEncoder().encodeToString(compressed));
        return batch;
    }

    /**
     * The {@code <forwarded/>} items of a batch, plain or compressed, checked against its
     * declared count and sizes. For clients and tests; hardened against bombs and DTDs.
     */
    public static List<Element> items(Element batch) throws ProtocolException {
        if (!ELEMENT.equals(batch.getName()) || !NAMESPACE.equals(batch.getNamespaceURI())) {
            throw new ProtocolException(Kind.BAD_REQUEST, "not a <batch xmlns='" + NAMESPACE + "'/>");
        }
        int count = intAttribute(batch, "count");
        List<Element> items = new ArrayList<>();
        String encoding = batch.attributeValue("encoding");
        if (encoding == null) {
            for (Element e : batch.elements()) {
                items.add(e);
            }
        } else if (encoding.equals("deflate")) {
            int size = intAttribute(batch, "size");
            byte[] compressed;
            try {
                // White space may be ignored; anything else outside the alphabet is an error.
                compressed = Base64.getDecoder().decode(batch.getText().replaceAll("\\s+", ""));
            } catch (IllegalArgumentException e) {
                throw new ProtocolException(Kind.BAD_REQUEST, "batch payload is not base64");
            }
            if (compressed.length != intAttribute(batch, "compressed-size")) {
                throw new ProtocolException(Kind.BAD_REQUEST, "batch 'compressed-size' does not match its payload");
            }
            if (size > MAX_INFLATED_BYTES) {
                throw new ProtocolException(Kind.BAD_REQUEST, "batch larger than " + MAX_INFLATED_BYTES + " bytes");
            }
            String xml = new String(inflate(compressed, size), StandardCharsets.UTF_8);
            if (xml.contains("<!")) {
                throw new ProtocolException(Kind.BAD_REQUEST, "batch payload may not contain DTDs or comments");
            }
            Document doc;
            try {
                doc = DocumentHelper.parseText("<items>" + xml + "</items>");
            } catch (DocumentException e) {
                throw new ProtocolException(Kind.BAD_REQUEST, "batch payload is not well-formed XML");
            }
            for (Element e : doc.getRootElement().elements()) {
                items.add(e.createCopy());
            }
        } else {
            throw new ProtocolException(Kind.BAD_REQUEST, "unknown batch encoding '" + encoding + "'");
        }
        for (Element item : items) {
            if (!"forwarded".equals(item.getName()) || !ReconMucNamespaces.FORWARD.equals(item.getNamespaceURI())) {
                throw new ProtocolException(Kind.BAD_REQUEST, "a batch holds only <forwarded xmlns='urn:xmpp:forward:0'/>");
            }
        }
        if (items.size() != count) {
            throw new ProtocolException(Kind.BAD_REQUEST, "batch 'count' is " + count + " but it holds " + items.size());
        }
        return items;
    }

    private static byte[] inflate(byte[] compressed, int size) throws ProtocolException {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(compressed);
            byte[] out = new byte[size];
            int n = 0;
            while (n < size && !inflater.finished()) {
                int r = inflater.inflate(out, n, size - n);
                if (r == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                n += r;
            }
            if (n != size || !inflater.finished()) {
                throw new ProtocolException(Kind.BAD_REQUEST, "batch 'size' does not match its inflated payload");
            }
            return out;
        } catch (DataFormatException e) {
            throw new ProtocolException(Kind.BAD_REQUEST, "batch payload is not raw DEFLATE data");
        } finally {
            inflater.end();
        }
    }

    private static int intAttribute(Element e, String name) throws ProtocolException {
        String v = e.attributeValue(name);
        try {
            int n = Integer.parseInt(v);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException ex) {
            throw new ProtocolException(Kind.BAD_REQUEST, "batch '" + name + "' must be a non-negative number, not '" + v + "'");
        }
    }
}
