package org.reconmuc.spec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Reading and writing the {@code <batch xmlns='urn:reconmuc:0'/>} element (reconmuc.md §5.9):
 * its XEP-0297 {@code <forwarded/>} items, plain or deflate-compressed.
 */
public final class Batches {
    /** Largest {@code size} this code inflates; a batch that claims more is refused. */
    public static final int MAX_INFLATED_SIZE = 16 * 1024 * 1024;

    private Batches() {
    }

    /**
     * The forwarded items of a batch, checked: {@code count} equals their number; a plain batch has
     * nothing else but white space; a deflate batch's base64 text decodes to {@code compressed-size}
     * bytes that inflate (raw DEFLATE) to exactly {@code size} bytes, which parse as the items.
     *
     * @throws IllegalArgumentException naming the first rule the batch breaks
     */
    public static List<Element> forwarded(Element batch) {
        if (!Namespaces.RECONMUC_0.equals(batch.getNamespaceURI()) || !"batch".equals(batch.getLocalName())) {
            throw new IllegalArgumentException("Not a batch element: " + batch.getNodeName());
        }
        int count = positive(batch, "count");
        String encoding = batch.getAttribute("encoding");
        List<Element> items;
        if (encoding.isEmpty()) {
            if (batch.hasAttribute("size") || batch.hasAttribute("compressed-size")) {
                throw new IllegalArgumentException("A plain batch has no size or compressed-size");
            }
            items = items(batch);
        } else if ("deflate".equals(encoding)) {
            int size = positive(batch, "size");
            int compressedSize = positive(batch, "compressed-size");
            for (Node n = batch.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n.getNodeType() == Node.ELEMENT_NODE) {
                    throw new IllegalArgumentException("A deflate batch has no child elements");
                }
            }
            byte[] deflated;
            try {
                deflated = Base64.getDecoder().decode(stripXmlWhiteSpace(batch.getTextContent()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("The payload is not base64: " + e.getMessage(), e);
            }
            if (deflated.length != compressedSize) {
                throw new IllegalArgumentException("compressed-size is " + compressedSize + " but the payload has "
                        + deflated.length + " bytes");
            }
            byte[] xml = inflate(deflated, size);
            items = parseItems(xml);
        } else {
            throw new IllegalArgumentException("Unknown encoding '" + encoding + "'");
        }
        if (items.size() != count) {
            throw new IllegalArgumentException("count is " + count + " but the batch holds " + items.size() + " items");
        }
        return items;
    }

    /**
     * Inflates a raw DEFLATE payload that must produce exactly {@code size} bytes and end there.
     *
     * @throws IllegalArgumentException if it produces more or fewer bytes, is truncated or corrupt
     */
    public static byte[] inflate(byte[] deflated, int size) {
        if (size < 0 || size > MAX_INFLATED_SIZE) {
            throw new IllegalArgumentException("Refusing to inflate a declared size of " + size + " bytes");
        }
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(deflated);
            byte[] out = new byte[size + 1];
            int n = 0;
            while (!inflater.finished() && n < out.length) {
                int k = inflater.inflate(out, n, out.length - n);
                if (k == 0) {
                    break; // needs input it will not get, needs a dictionary, or finished
                }
                n += k;
            }
            if (n > size) {
                throw new IllegalArgumentException("The payload inflates to more than its size of " + size + " bytes");
            }
            if (!inflater.finished()) {
                throw new IllegalArgumentException("The payload is not one complete raw DEFLATE stream");
            }
            if (n != size) {
                throw new IllegalArgumentException("size is " + size + " but the payload inflates to " + n + " bytes");
            }
            if (inflater.getRemaining() != 0) {
                throw new IllegalArgumentException("Bytes follow the end of the DEFLATE stream");
            }
            byte[] exact = new byte[n];
            System.arraycopy(out, 0, exact, 0, n);
            return exact;
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("The payload is not raw DEFLATE: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }

    /** Raw DEFLATE (RFC 1951, no zlib header, no preset dictionary) of {@code data}. */
    public static byte[] deflate(byte[] data, int level) {
        Deflater deflater = new Deflater(level, true);
        try {
            deflater.setInput(data);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 2 + 64);
            byte[] buf = new byte[8192];
            while (!deflater.finished()) {
                int k = deflater.deflate(buf);
                out.write(buf, 0, k);
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    /**
     * Parses the UTF-8 payload of a deflate batch (concatenated {@code <forwarded/>} elements, each
     * with its own namespace declarations) by wrapping it in a batch element.
     */
    public static List<Element> parseItems(byte[] payload) {
        String text = new String(payload, StandardCharsets.UTF_8);
        Element wrapper = SecureXml.parse("<batch xmlns='" + Namespaces.RECONMUC_0 + "'>" + text + "</batch>")
                .getDocumentElement();
        return items(wrapper);
    }

    private static List<Element> items(Element batch) {
        List<Element> items = new ArrayList<>();
        for (Node n = batch.getFirstChild(); n != null; n = n.getNextSibling()) {
            switch (n.getNodeType()) {
                case Node.ELEMENT_NODE -> {
                    if (!Namespaces.FORWARD.equals(n.getNamespaceURI()) || !"forwarded".equals(n.getLocalName())) {
                        throw new IllegalArgumentException("A batch holds only forwarded elements, not " + n.getNodeName());
                    }
                    items.add((Element) n);
                }
                case Node.TEXT_NODE, Node.CDATA_SECTION_NODE -> {
                    if (!stripXmlWhiteSpace(n.getNodeValue()).isEmpty()) {
                        throw new IllegalArgumentException("A plain batch holds no text");
                    }
                }
                case Node.COMMENT_NODE, Node.PROCESSING_INSTRUCTION_NODE ->
                        throw new IllegalArgumentException("A batch holds no comments or processing instructions");
                default -> {
                }
            }
        }
        return items;
    }

    private static int positive(Element e, String attribute) {
        String v = e.getAttribute(attribute);
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("'" + attribute + "' must be a positive integer, not '" + v + "'");
    }

    static String stripXmlWhiteSpace(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                b.append(c);
            }
        }
        return b.toString();
    }
}
