package org.reconmuc.component.transport;

import java.util.List;
import org.dom4j.Attribute;
import org.dom4j.DocumentException;
import org.dom4j.Element;
import org.reconmuc.component.protocol.Dom4jText;
import org.reconmuc.codec.XmlNamespaces;
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
    /** Of type {@code error}. */
    private final boolean error;
    /** Where in {@link #tail} the start tag's attributes end (at its {@code >} or {@code />}). */
    private final int attributesEnd;
    /** {@link StreamXml#firstForbiddenCharacter} of the text, computed once. */
    private final int forbiddenCharacter;
    private volatile Packet parsed;

    private RenderedStanza(String name, String from, String type, String xml) {
        this.name = name;
        this.from = from;
        this.error = "error".equals(type);
        int split = 1 + name.length();
        this.head = xml.substring(0, split);
        this.tail = xml.substring(split);
        this.attributesEnd = attributesEnd(tail);
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
            return new RenderedStanza(e.getName(), e.attributeValue("from"), e.attributeValue("type"), packet.toXML());
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

    /**
     * The stanza as one XEP-0033 multicast to {@code service}: the same text, addressed to the
     * service, with a {@code bcc} address per recipient as its first child. The service removes the
     * addresses and gives each recipient the copy {@link #to} would have made.
     */
    public String multicast(String service, List<String> recipients) {
        int addressesLength = 60;
        for (String r : recipients) {
            addressesLength += r.length() + 32;
        }
        StringBuilder xml = new StringBuilder(head.length() + tail.length() + service.length() + addressesLength)
                .append(head).append(" to=\"");
        XmlText.appendAttribute(xml, service).append('"').append(tail, 0, attributesEnd)
                .append("><addresses xmlns=\"").append(XmlNamespaces.ADDRESS).append("\">");
        for (String r : recipients) {
            xml.append("<address type=\"bcc\" jid=\"");
            XmlText.appendAttribute(xml, r).append("\"/>");
        }
        xml.append("</addresses>");
        if (tail.startsWith("/>", attributesEnd)) {
            return xml.append("</").append(name).append('>').toString();
        }
        return xml.append(tail, attributesEnd + 1, tail.length()).toString();
    }

    /** Where the attributes of the start tag at the beginning of {@code tail} end, outside quoted values. */
    private static int attributesEnd(String tail) {
        char quote = 0;
        for (int i = 0; i < tail.length(); i++) {
            char c = tail.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '>') {
                return i;
            } else if (c == '/' && i + 1 < tail.length() && tail.charAt(i + 1) == '>') {
                return i;
            }
        }
        throw new IllegalStateException("a rendered stanza has no end to its start tag");
    }

    /** True if a multicast service may carry it: a message or presence, not an error (XEP-0033 §4). */
    public boolean multicastable() {
        return !error && !"iq".equals(name);
    }

    /** True for an error reply. */
    public boolean error() {
        return error;
    }

    /** The length of the text without a recipient. */
    public int length() {
        return head.length() + tail.length();
    }

    /** {@link StreamXml#firstForbiddenCharacter} of the text. */
    int forbiddenCharacter() {
        return forbiddenCharacter;
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
            Element e = Dom4jText.parse(xml);
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
