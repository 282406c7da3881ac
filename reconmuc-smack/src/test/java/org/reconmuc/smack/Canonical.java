package org.reconmuc.smack;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.XmlNamespaces;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * XML compared by meaning: names with their namespaces, attributes in any order and quote style,
 * white space between elements ignored. For round-trip tests.
 */
final class Canonical {
    /** The namespaces this library writes: its own, the paper's, XEP-0461. */
    static final Set<String> OURS = Set.of(XmlNamespaces.RECONMUC, XmlNamespaces.JOOM, XmlNamespaces.REPLY);

    private Canonical() {
    }

    /** The outermost elements in {@link #OURS} of a stanza, canonical; a top level without namespace is jabber:client. */
    static List<String> ours(String stanzaXml) {
        List<String> found = new ArrayList<>();
        collect(SecureXml.parse(stanzaXml).getDocumentElement(), found);
        return found;
    }

    private static void collect(Element e, List<String> found) {
        if (e.getNamespaceURI() != null && OURS.contains(e.getNamespaceURI())) {
            found.add(of(e));
            return;
        }
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c) {
                collect(c, found);
            }
        }
    }

    static String of(String xml) {
        return of(SecureXml.parse(xml).getDocumentElement());
    }

    static String of(Element e) {
        StringBuilder b = new StringBuilder();
        write(e, b);
        return b.toString();
    }

    private static void write(Element e, StringBuilder b) {
        String ns = e.getNamespaceURI() == null ? XmlNamespaces.JABBER_CLIENT : e.getNamespaceURI();
        b.append('{').append(ns).append('}').append(e.getLocalName());
        TreeMap<String, String> attrs = new TreeMap<>();
        NamedNodeMap map = e.getAttributes();
        for (int i = 0; i < map.getLength(); i++) {
            Attr a = (Attr) map.item(i);
            if (!"http://www.w3.org/2000/xmlns/".equals(a.getNamespaceURI())) {
                attrs.put((a.getNamespaceURI() == null ? "" : "{" + a.getNamespaceURI() + "}") + a.getLocalName(), a.getValue());
            }
        }
        b.append(attrs);
        b.append('(');
        boolean elements = false;
        StringBuilder text = new StringBuilder();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c) {
                elements = true;
                write(c, b);
            } else if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE) {
                text.append(n.getNodeValue());
            }
        }
        if (!elements) {
            b.append('"').append(text).append('"');
        } else if (!text.toString().isBlank()) {
            b.append("text:").append(text.toString().strip());
        }
        b.append(')');
    }
}
