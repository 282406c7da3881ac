package org.reconmuc.component.transport;

import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Set;

import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import org.dom4j.DocumentFactory;
import org.dom4j.Element;
import org.dom4j.QName;

/**
 * Turns one complete top-level element, as cut out of the stream by {@link XmlFramer}, into a
 * dom4j {@link Element}. The element is parsed in the namespace context of the stream: the
 * server's stream header (verbatim) is put in front of it and the matching end tag after it.
 *
 * <p><b>Namespaces.</b> The stanza element itself and its children in the stream's content
 * namespace ({@code jabber:component:accept}, also {@code jabber:client} / {@code jabber:server}
 * should a server use those) are built <em>without</em> a namespace, exactly like the elements of
 * packets Tinder creates ({@code new Message()}, {@code PacketError}, {@code addElement("body")}).
 * Otherwise dom4j would render a Tinder-made child of a received packet, e.g. the {@code <error>}
 * added by {@code packet.createCopy().setError(...)}, as {@code <error xmlns="">}, which the
 * server would take literally. Written on our stream, un-namespaced stanzas inherit
 * {@code jabber:component:accept}. Every other element keeps its own namespace, e.g.
 * {@code <x xmlns="http://jabber.org/protocol/muc"/>}.
 *
 * <p><b>Hardening.</b> The JDK's StAX implementation is used with DTDs and external entities
 * switched off and a resolver that refuses everything; a DTD, entity reference, comment or
 * processing instruction event is refused with {@code restricted-xml} (the framer already refuses
 * them before they get here). Its limits are {@link XmlLimits}'. One instance per reader thread;
 * not thread-safe.
 *
 * <p>A {@link StreamException} from {@link #parseElement} concerns that element alone: the framer
 * found where it ends, so the stream can go on without it (see {@link ServerStream}).
 */
final class StanzaParser {

    static final String NS_ACCEPT = "jabber:component:accept";
    static final Set<String> CONTENT_NAMESPACES = Set.of(NS_ACCEPT, "jabber:client", "jabber:server");

    private final XMLInputFactory factory = newHardenedFactory();
    private final DocumentFactory documentFactory = DocumentFactory.getInstance();
    private byte[] lastHeader;
    private String lastHeaderText;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    static XMLInputFactory newHardenedFactory() {
        XMLInputFactory f = XMLInputFactory.newDefaultFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        f.setProperty(XMLInputFactory.IS_VALIDATING, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        XmlLimits.apply(f);
        try {
            f.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        } catch (IllegalArgumentException ignored) {
            // Not supported by this implementation; SUPPORT_DTD=false and the resolver suffice.
        }
        // Errors are reported by exceptions; don't let the implementation print them too.
        f.setXMLReporter((message, errorType, relatedInformation, location) -> { });
        f.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException("external entities are not allowed");
        });
        return f;
    }

    /**
     * A parsed top-level element and the namespace its start tag was in on the wire (the element
     * itself may have been built without a namespace, see above); null for no namespace.
     */
    record Parsed(Element element, String namespace) {

        boolean is(String localName, String ns) {
            return localName.equals(element.getName()) && java.util.Objects.equals(namespace, ns);
        }
    }

    /** Parses the server's stream header (its start tag) into an element with its attributes and no children. */
    Parsed parseHeader(byte[] startTag, String name) throws StreamException {
        if (name == null) {
            throw StreamException.notWellFormed("stream header without a name");
        }
        return parse(decode(startTag) + endTag(name), false);
    }

    /** Parses a complete top-level element in the context of the stream header. */
    Parsed parseElement(byte[] header, String headerName, byte[] element) throws StreamException {
        return parse(decodeHeader(header) + decode(element) + endTag(headerName), true);
    }

    private Parsed parse(String document, boolean insideStreamRoot) throws StreamException {
        XMLStreamReader r = null;
        try {
            r = factory.createXMLStreamReader(new StringReader(document));
            ArrayDeque<Element> open = new ArrayDeque<>();
            ArrayDeque<Boolean> openInContent = new ArrayDeque<>();
            String contentNamespace = null;
            String topNamespace = null;
            Element result = null;
            int depth = 0;
            while (r.hasNext()) {
                int event = r.next();
                switch (event) {
                    case XMLStreamConstants.START_ELEMENT -> {
                        depth++;
                        if (insideStreamRoot && depth == 1) {
                            continue;
                        }
                        if (open.isEmpty() && result != null) {
                            throw StreamException.notWellFormed("more than one element in a frame");
                        }
                        String uri = emptyToNull(r.getNamespaceURI());
                        boolean unprefixed = emptyToNull(r.getPrefix()) == null;
                        boolean inContent;
                        if (open.isEmpty()) {
                            inContent = unprefixed && uri != null && CONTENT_NAMESPACES.contains(uri);
                            contentNamespace = inContent ? uri : null;
                            topNamespace = uri;
                        } else {
                            inContent = openInContent.peek() && unprefixed && uri != null && uri.equals(contentNamespace);
                        }
                        Element e = documentFactory.createElement(inContent || uri == null
                                ? documentFactory.createQName(r.getLocalName())
                                : documentFactory.createQName(r.getLocalName(), nullToEmpty(r.getPrefix()), uri));
                        if (r.getAttributeCount() > XmlLimits.MAX_ATTRIBUTES) {
                            throw new StreamException("policy-violation",
                                    "Too many attributes on one element: limit is " + XmlLimits.MAX_ATTRIBUTES);
                        }
                        for (int i = 0; i < r.getAttributeCount(); i++) {
                            String attrUri = emptyToNull(r.getAttributeNamespace(i));
                            QName q = attrUri == null
                                    ? documentFactory.createQName(r.getAttributeLocalName(i))
                                    : documentFactory.createQName(r.getAttributeLocalName(i),
                                            nullToEmpty(r.getAttributePrefix(i)), attrUri);
                            // add(), not addAttribute(): that one looks for a duplicate first, which
                            // is quadratic in the count (the parser already refused duplicates).
                            e.add(documentFactory.createAttribute(e, q, r.getAttributeValue(i)));
                        }
                        // dom4j declares the namespaces of the element's and its attributes' names by
                        // itself when it writes them. Other prefixed declarations are kept (a prefix
                        // may be used in content); default-namespace ones follow from the QNames.
                        for (int i = 0; i < r.getNamespaceCount(); i++) {
                            String prefix = emptyToNull(r.getNamespacePrefix(i));
                            String nsUri = r.getNamespaceURI(i);
                            if (prefix != null && nsUri != null && !nsUri.isEmpty() && !declaresOwnName(e, prefix, nsUri)) {
                                e.addNamespace(prefix, nsUri);
                            }
                        }
                        if (!open.isEmpty()) {
                            open.peek().add(e);
                        }
                        open.push(e);
                        openInContent.push(inContent);
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        depth--;
                        if (!open.isEmpty()) {
                            Element closed = open.pop();
                            openInContent.pop();
                            if (open.isEmpty()) {
                                result = closed;
                            }
                        }
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                        if (!open.isEmpty()) {
                            open.peek().addText(r.getText());
                        }
                    }
                    case XMLStreamConstants.DTD, XMLStreamConstants.ENTITY_REFERENCE,
                            XMLStreamConstants.ENTITY_DECLARATION, XMLStreamConstants.NOTATION_DECLARATION ->
                            throw StreamException.restrictedXml("DTDs and entity references are not allowed");
                    case XMLStreamConstants.COMMENT, XMLStreamConstants.PROCESSING_INSTRUCTION ->
                            throw StreamException.restrictedXml("comments and processing instructions are not allowed");
                    default -> {
                        // START_DOCUMENT, END_DOCUMENT, ATTRIBUTE, NAMESPACE: nothing to build.
                    }
                }
            }
            if (result == null) {
                throw StreamException.notWellFormed("no element");
            }
            return new Parsed(result, topNamespace);
        } catch (XMLStreamException | RuntimeException e) {
            // RuntimeException: e.g. dom4j refusing an illegal name; the JDK parser wraps its own errors.
            throw new StreamException("not-well-formed", String.valueOf(e.getMessage()), e);
        } finally {
            if (r != null) {
                try {
                    r.close();
                } catch (XMLStreamException ignored) {
                    // nothing to release
                }
            }
        }
    }

    private static boolean declaresOwnName(Element e, String prefix, String uri) {
        if (prefix.equals(e.getNamespacePrefix()) && uri.equals(e.getNamespaceURI())) {
            return true;
        }
        for (int i = 0; i < e.attributeCount(); i++) {
            org.dom4j.Attribute a = e.attribute(i);
            if (prefix.equals(a.getNamespacePrefix()) && uri.equals(a.getNamespaceURI())) {
                return true;
            }
        }
        return false;
    }

    private static String endTag(String name) {
        return "</" + name + ">";
    }

    /**
     * Strict UTF-8 decoding (XMPP streams are UTF-8, RFC 6120 section 11.6), done here rather than
     * by the parser so that bad bytes are reported by an exception and nothing else.
     */
    private String decodeHeader(byte[] header) throws StreamException {
        if (header != lastHeader) {   // the same array for a whole connection
            lastHeaderText = decode(header);
            lastHeader = header;
        }
        return lastHeaderText;
    }

    private String decode(byte[] bytes) throws StreamException {
        try {
            return utf8.decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new StreamException("not-well-formed", "invalid UTF-8", e);
        }
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
