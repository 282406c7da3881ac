package org.reconmuc.smack.element;

import java.util.Objects;
import javax.xml.namespace.QName;
import org.jivesoftware.smack.packet.ExtensionElement;
import org.jivesoftware.smack.packet.XmlEnvironment;
import org.jivesoftware.smack.util.XmlStringBuilder;
import org.reconmuc.codec.XmlNamespaces;

/**
 * {@code <presences xmlns='urn:reconmuc:0' level='…'/>} in a presence to the room (reconmuc.md
 * §4.13, §5.17): add it to the join ({@code MucEnterConfiguration.Builder#withPresence}) or to any
 * later presence to the occupant JID to choose whose presences the room sends. Immutable.
 */
public final class PresencesElement implements ExtensionElement {
    public static final String ELEMENT = "presences";
    public static final String NAMESPACE = XmlNamespaces.RECONMUC;
    public static final QName QNAME = new QName(NAMESPACE, ELEMENT);
    /** The feature of a room that honours presence levels (reconmuc.md §7 rule 6). */
    public static final String FEATURE = NAMESPACE + "#presences";

    private final PresenceLevel level;

    public PresencesElement(PresenceLevel level) {
        this.level = Objects.requireNonNull(level);
    }

    public PresenceLevel getLevel() {
        return level;
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
        return new XmlStringBuilder(this, enclosingNamespace).attribute("level", level.value()).closeEmptyElement();
    }
}
