package org.reconmuc.codec;

import java.io.IOException;
import java.io.StringReader;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.stream.XMLInputFactory;
import org.w3c.dom.Document;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Namespace-aware XML parsing that refuses DTDs (and so every entity declaration, internal or
 * external), fetches nothing, and expands no XInclude: what XMPP itself allows (RFC 6120 §11.1).
 * DOM for whole documents, StAX for streaming through batches.
 */
public final class SecureXml {

    private SecureXml() {
    }

    /**
     * A new hardened, namespace-aware StAX factory: no DTD support (a DOCTYPE is reported as an
     * event for the caller to refuse, and no entity is declared or fetched), adjacent text coalesced.
     */
    public static XMLInputFactory inputFactory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        f.setXMLResolver((publicId, systemId, base, ns) -> {
            throw new javax.xml.stream.XMLStreamException("External entity refused: " + systemId);
        });
        return f;
    }

    /** A new hardened, namespace-aware document builder (builders are not thread-safe). */
    public static DocumentBuilder documentBuilder() {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setXIncludeAware(false);
        f.setExpandEntityReferences(false);
        f.setValidating(false);
        try {
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(new ErrorHandler() {
                @Override
                public void warning(SAXParseException e) {
                }

                @Override
                public void error(SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            b.setEntityResolver((publicId, systemId) -> {
                throw new SAXException("External entity refused: " + systemId);
            });
            return b;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("The JDK parser refuses hardening features", e);
        }
    }

    /**
     * One hardened builder per thread (a parse leaves nothing in it for the next; reset() would drop its
     * error handler): making one (its factory, its features)
     * costs several times the parse of a small element, which a room does per requirements request.
     */
    private static final ThreadLocal<DocumentBuilder> BUILDER = ThreadLocal.withInitial(SecureXml::documentBuilder);

    /**
     * Parses XML text.
     *
     * @throws IllegalArgumentException if the text is not well-formed, namespace-well-formed XML
     *     without a DTD
     */
    public static Document parse(String xml) {
        try {
            return BUILDER.get().parse(new InputSource(new StringReader(xml)));
        } catch (SAXException e) {
            throw new IllegalArgumentException("Not acceptable XML: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
