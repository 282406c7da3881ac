package org.reconmuc.component.protocol;

import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.protocol.ProtocolException.Kind;

/**
 * {@code <presences xmlns='urn:reconmuc:0' level='all|moderators|none'/>}: the presence level an
 * occupant asks for (reconmuc.md §5.17), in its presence to the room (any occupant, on entry or
 * later) or in its {@code <consistency-requirements/>} (a relaxed occupant).
 */
public record PresencesElement(PresenceLevel level) {
    public static final String ELEMENT = "presences";
    public static final String NAMESPACE = XmlNamespaces.RECONMUC;
    /** disco#info feature of a room that honours presence levels (reconmuc.md §7 rule 6). */
    public static final String FEATURE = XmlNamespaces.RECONMUC + "#presences";

    /** The element {@code parent} carries in {@code namespace} (a stanza: {@link #NAMESPACE}), or null. */
    public static Element in(Element parent, String namespace) {
        return parent.element(QName.get(ELEMENT, namespace));
    }

    /** Parses the element; a missing or unknown level is a {@link Kind#BAD_REQUEST} with a reason. */
    public static PresencesElement parse(Element e) throws ProtocolException {
        String value = e.attributeValue("level");
        PresenceLevel level = PresenceLevel.parse(value == null ? null : value.trim());
        if (level == null) {
            throw new ProtocolException(Kind.BAD_REQUEST, "<" + ELEMENT + "/> needs level='all', 'moderators' or 'none', not "
                    + (value == null ? "none" : "'" + (value.length() > 40 ? value.substring(0, 40) + "…" : value) + "'"));
        }
        if (!e.elements().isEmpty()) {
            throw new ProtocolException(Kind.BAD_REQUEST, "<" + ELEMENT + "/> is empty");
        }
        return new PresencesElement(level);
    }

    public Element render(String namespace) {
        Element e = DocumentHelper.createElement(QName.get(ELEMENT, namespace));
        e.addAttribute("level", level.xmlValue());
        return e;
    }
}
