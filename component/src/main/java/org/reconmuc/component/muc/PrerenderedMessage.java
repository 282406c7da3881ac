package org.reconmuc.component.muc;

import org.dom4j.Attribute;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.reconmuc.codec.XmlText;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * A message whose payload is XML text already: its element holds only the stanza's attributes,
 * and {@link #toXML()} splices the payload in. A batch is built by concatenating its items'
 * cached XML, instead of copying every item into a new DOM for every recipient.
 */
final class PrerenderedMessage extends Message {
    private final String payload;

    PrerenderedMessage(String payload) {
        this.payload = payload;
    }

    private PrerenderedMessage(Element head, String payload) {
        super(head, true);
        this.payload = payload;
    }

    @Override
    public String toXML() {
        StringBuilder xml = new StringBuilder(payload.length() + 160).append("<message");
        for (Attribute a : element.attributes()) {
            xml.append(' ').append(a.getQualifiedName()).append("=\"");
            XmlText.appendAttribute(xml, a.getValue()).append('"');
        }
        return xml.append('>').append(payload).append("</message>").toString();
    }

    /**
     * The stanza as a plain message whose DOM holds everything, for a server in the same process
     * (Openfire) that reads the DOM rather than {@link #toXML()}; other packets are returned as they are.
     */
    static Packet standalone(Packet packet) {
        if (!(packet instanceof PrerenderedMessage prerendered)) {
            return packet;
        }
        try {
            return new Message(DocumentHelper.parseText(prerendered.toXML()).getRootElement(), true);
        } catch (DocumentException e) {
            throw new IllegalStateException("a pre-rendered message is not well-formed XML", e);
        }
    }

    @Override
    public PrerenderedMessage createCopy() {
        return new PrerenderedMessage(element.createCopy(), payload);
    }
}
