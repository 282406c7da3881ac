package org.reconmuc.smack.reply.element;

import javax.xml.namespace.QName;
import org.jivesoftware.smack.packet.ExtensionElement;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.packet.XmlEnvironment;
import org.jivesoftware.smack.util.XmlStringBuilder;
import org.reconmuc.codec.XmlNamespaces;

/**
 * {@code <reply xmlns='urn:xmpp:reply:0' to='room@service/nick' id='stanza-id'/>} (XEP-0461): in a
 * groupchat, {@code id} is the parent's stanza-id assigned by the room and {@code to} the parent's
 * author as an occupant JID. Immutable.
 */
public final class ReplyElement implements ExtensionElement {
    public static final String ELEMENT = "reply";
    public static final String NAMESPACE = XmlNamespaces.REPLY;
    public static final QName QNAME = new QName(NAMESPACE, ELEMENT);

    private final String to;
    private final String id;

    /** {@code to} may be null (XEP-0461 makes it optional); {@code id} may not. */
    public ReplyElement(String to, String id) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("a reply names its parent's id");
        }
        this.to = to;
        this.id = id;
    }

    /** The parent's author (an occupant JID in a room), or null. */
    public String getTo() {
        return to;
    }

    /** The parent's id: in a room, the stanza-id the room gave it. */
    public String getId() {
        return id;
    }

    @Override
    public String getElementName() {
        return ELEMENT;
    }

    @Override
    public String getNamespace() {
        return NAMESPACE;
    }

    @Override
    public XmlStringBuilder toXML(XmlEnvironment enclosingNamespace) {
        XmlStringBuilder xml = new XmlStringBuilder(this, enclosingNamespace);
        xml.optAttribute("to", to);
        xml.attribute("id", id);
        return xml.closeEmptyElement();
    }

    /** The first reply of a stanza, or null. */
    public static ReplyElement from(Stanza stanza) {
        return stanza.getExtension(ReplyElement.class);
    }
}
