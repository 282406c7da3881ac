package org.reconmuc.component.relaxed;

import org.dom4j.Attribute;
import org.dom4j.Element;
import org.reconmuc.codec.XmlText;
import org.xmpp.packet.Message;

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

    @Override
    public PrerenderedMessage createCopy() {
        return new PrerenderedMessage(element.createCopy(), payload);
    }
}
