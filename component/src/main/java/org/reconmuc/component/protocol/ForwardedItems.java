package org.reconmuc.component.protocol;

import java.time.Instant;
import org.dom4j.Attribute;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.Namespace;
import org.dom4j.Node;
import org.dom4j.QName;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.Batch;

/**
 * A logged message as a batch item (reconmuc.md §5.9 rule 2): the broadcast stanza moved into
 * {@code jabber:client} (as every forwarded stanza must be namespaced) without its {@code to},
 * wrapped by the codec in {@code <forwarded/>} with its delay. Rendered once per message; batches
 * concatenate the text.
 */
public final class ForwardedItems {
    private static final Namespace JABBER_CLIENT = Namespace.get(XmlNamespaces.JABBER_CLIENT);

    private ForwardedItems() {
    }

    /** The item for {@code broadcast}, received by the room {@code roomJid} at {@code at}, as XML text. */
    public static String xml(Element broadcast, Instant at, String roomJid) {
        return Batch.forwardedItem(at.toString(), roomJid, inJabberClient(broadcast).asXML());
    }

    /** A deep copy with every element of the stream's default namespace moved into jabber:client, without 'to'. */
    private static Element inJabberClient(Element source) {
        String uri = source.getNamespaceURI();
        boolean streamDefault = uri.isEmpty() || uri.equals("jabber:component:accept") || uri.equals(JABBER_CLIENT.getURI());
        if (!streamDefault) {
            return source.createCopy();
        }
        Element copy = DocumentHelper.createElement(QName.get(source.getName(), JABBER_CLIENT));
        for (Attribute a : source.attributes()) {
            if (!"to".equals(a.getName()) || !a.getNamespaceURI().isEmpty()) {
                copy.add((Attribute) a.clone());
            }
        }
        for (Node n : source.content()) {
            if (n instanceof Element child) {
                copy.add(inJabberClient(child));
            } else if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE) {
                copy.addText(n.getText());
            }
        }
        return copy;
    }
}
