package org.reconmuc.component.protocol;

import java.time.Instant;
import org.dom4j.Attribute;
import org.dom4j.Element;
import org.dom4j.Node;
import org.reconmuc.codec.XmlElementWriter;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.CompactItem;

/**
 * A logged message as an item of a compact batch (reconmuc.md §5.9 rule 7): the sender's nick, id
 * and occupant id as attributes, the room's stanza-id as the batch's numbering, and every other
 * child as broadcast. Rendered once per message; batches fill in what depends on them.
 */
public final class CompactItems {

    private CompactItems() {
    }

    /** The item for {@code broadcast} (from {@code room/nick}), received by the room at {@code at}. */
    public static CompactItem of(Element broadcast, Instant at, String roomJid) {
        String from = broadcast.attributeValue("from");
        String nick = from != null && from.startsWith(roomJid + "/") ? from.substring(roomJid.length() + 1) : from;
        String stanzaId = null;
        String occupantId = null;
        for (Element child : broadcast.elements()) {
            if (isRooms(child, XmlNamespaces.STANZA_ID, "stanza-id") && roomJid.equals(child.attributeValue("by"))) {
                stanzaId = child.attributeValue("id");
            } else if (isRooms(child, XmlNamespaces.OCCUPANT_ID, "occupant-id")) {
                occupantId = child.attributeValue("id");
            }
        }
        String room = roomJid;
        return CompactItem.of(nick, broadcast.attributeValue("id"), occupantId,
                broadcast.attributeValue(org.dom4j.QName.get("lang", org.dom4j.Namespace.XML_NAMESPACE)), writer -> {
                    for (Element child : broadcast.elements()) {
                        boolean roomsId = isRooms(child, XmlNamespaces.STANZA_ID, "stanza-id") && room.equals(child.attributeValue("by"));
                        if (!roomsId && !isRooms(child, XmlNamespaces.OCCUPANT_ID, "occupant-id")) {
                            write(child, true, writer);
                        }
                    }
                }, stanzaId, at.toEpochMilli());
    }

    private static boolean isRooms(Element e, String namespace, String name) {
        return name.equals(e.getName()) && namespace.equals(e.getNamespaceURI());
    }

    /**
     * Writes an element of the broadcast; where its parent is in the stream's default namespace,
     * that namespace is {@code jabber:client} (as in any forwarded stanza).
     */
    private static void write(Element e, boolean parentInStreamDefault, XmlElementWriter w) {
        String uri = e.getNamespaceURI();
        boolean streamDefault = parentInStreamDefault && (uri.isEmpty() || uri.equals("jabber:component:accept"));
        w.startElement(e.getNamespacePrefix(), streamDefault ? XmlNamespaces.JABBER_CLIENT : uri, e.getName());
        for (Attribute a : e.attributes()) {
            w.attribute(a.getNamespacePrefix(), a.getNamespaceURI(), a.getName(), a.getValue());
        }
        for (Node n : e.content()) {
            if (n instanceof Element child) {
                write(child, streamDefault || uri.equals(XmlNamespaces.JABBER_CLIENT), w);
            } else if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE) {
                w.text(n.getText());
            }
        }
        w.endElement();
    }
}
