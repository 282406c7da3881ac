package org.reconmuc.component.transport;

import org.dom4j.Attribute;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.reconmuc.codec.XmlText;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * A stanza rendered to XML text once, without a recipient: a broadcast is rendered once and
 * {@link #to addressed} to each session by splicing a {@code to} attribute into the same text.
 * Immutable; the DOM a server in the same process needs is parsed from the text only when asked
 * ({@link OutgoingStanza#toPacket()}), once per rendering.
 */
public final class RenderedStanza {
    private final String name;
    private final String from;
    /** The text up to the end of the element's name ({@code <message}), where {@code to} goes. */
    private final String head;
    /** The rest of the text: attributes, children and the end tag. */
    private final String tail;
    /** {@link StreamXml#firstForbiddenCharacter} of the text, computed once. */
    private final int forbiddenCharacter;
    private volatile Packet parsed;

    private RenderedStanza(String name, String from, String xml) {
        this.name = name;
        this.from = from;
        int split = 1 + name.length();
        this.head = xml.substring(0, split);
        this.tail = xml.substring(split);
        this.forbiddenCharacter = StreamXml.firstForbiddenCharacter(xml);
    }

    /**
     * Renders {@code packet} (its {@code toXML()}, which a pre-rendered message splices from cached
     * text) without its {@code to}; the packet is left as it was, but for the place of its
     * {@code to} attribute among the others.
     */
    public static RenderedStanza of(Packet packet) {
        Element e = packet.getElement();
        Attribute to = e.attribute("to");
        if (to != null) {
            e.remove(to);
        }
        try {
            return new RenderedStanza(e.getName(), e.attributeValue("from"), packet.toXML());
        } finally {
            if (to != null) {
                e.add(to);
            }
        }
    }

    /** The stanza for one recipient. */
    public OutgoingStanza to(JID recipient) {
        return to(recipient == null ? null : recipient.toString());
    }

    /** The stanza for one recipient ({@code null}: none, the text as rendered). */
    public OutgoingStanza to(String recipient) {
        if (recipient == null) {
            return new OutgoingStanza(this, name, from, null, head + tail, forbiddenCharacter);
        }
        StringBuilder xml = new StringBuilder(head.length() + tail.length() + recipient.length() + 8)
                .append(head).append(" to=\"");
        XmlText.appendAttribute(xml, recipient).append('"').append(tail);
        return new OutgoingStanza(this, name, from, recipient, xml.toString(), forbiddenCharacter);
    }

    /** {@code message}, {@code presence} or {@code iq}. */
    public String name() {
        return name;
    }

    /** The sender's address, as rendered (null if none). */
    public String from() {
        return from;
    }

    /** The stanza as a Tinder packet without {@code to}: parsed once, shared; callers copy it. */
    Packet parsed() {
        Packet p = parsed;
        if (p == null) {
            p = parse(name, head + tail);
            parsed = p;
        }
        return p;
    }

    static Packet parse(String name, String xml) {
        try {
            Element e = DocumentHelper.parseText(xml).getRootElement();
            return switch (name) {
                case "message" -> new Message(e, true);
                case "presence" -> new Presence(e, true);
                default -> new IQ(e, true);
            };
        } catch (DocumentException e) {
            throw new IllegalStateException("a rendered stanza is not well-formed XML", e);
        }
    }
}
