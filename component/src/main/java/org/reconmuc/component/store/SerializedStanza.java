package org.reconmuc.component.store;

import org.dom4j.Attribute;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.xmpp.packet.Packet;

/**
 * A stanza frozen as its XML text while it waits for a commit: rooms reuse and change their
 * packets for the next recipient, so what is held must not share their DOM. Serialising now
 * costs what sending costs anyway (the connection sends {@link #toXML()}). The element keeps
 * only the stanza's name and attributes, for whoever reads its addresses.
 */
public final class SerializedStanza extends Packet {
    private final String xml;

    private SerializedStanza(Element head, String xml) {
        super(head, true);
        this.xml = xml;
    }

    public static SerializedStanza of(Packet packet) {
        if (packet instanceof SerializedStanza s) {
            return s;
        }
        Element head = DocumentHelper.createElement(packet.getElement().getQName());
        for (Attribute a : packet.getElement().attributes()) {
            head.addAttribute(a.getQName(), a.getValue());
        }
        return new SerializedStanza(head, packet.toXML());
    }

    @Override
    public String toXML() {
        return xml;
    }

    /** Immutable: the copy is the same stanza. */
    @Override
    public SerializedStanza createCopy() {
        return this;
    }
}
