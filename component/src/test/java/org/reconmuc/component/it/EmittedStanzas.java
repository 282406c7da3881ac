package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import javax.xml.transform.dom.DOMSource;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.spec.Schemas;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Every stanza the component sent during a test class, kept as XML, and a check that each
 * element of the protocol's namespaces in them is valid against xep-spec's schema.
 */
final class EmittedStanzas implements Consumer<OutgoingStanza> {
    private final ConcurrentLinkedQueue<String> xml = new ConcurrentLinkedQueue<>();

    @Override
    public void accept(OutgoingStanza stanza) {
        xml.add(stanza.xml());   // the text as the server receives it
    }

    /** Validates every top-level protocol element; returns how many were checked. */
    int assertProtocolElementsValid() {
        List<String> invalid = new ArrayList<>();
        int checked = 0;
        for (String stanza : xml) {
            List<Element> found = new ArrayList<>();
            collect(SecureXml.parse(stanza).getDocumentElement(), found);
            for (Element e : found) {
                checked++;
                try {
                    Schemas.validator(Schemas.forNamespace(e.getNamespaceURI())).validate(new DOMSource(e));
                } catch (Exception ex) {
                    invalid.add(ex.getMessage() + " in " + stanza);
                }
            }
        }
        assertThat(invalid).as("protocol elements the component emitted that its schema rejects").isEmpty();
        return checked;
    }

    int size() {
        return xml.size();
    }

    private static void collect(Element e, List<Element> found) {
        String ns = e.getNamespaceURI();
        if ("urn:reconmuc:0".equals(ns) || "http://joom.com/extensions".equals(ns)) {
            found.add(e);
            return;
        }
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element child) {
                collect(child, found);
            }
        }
    }
}
