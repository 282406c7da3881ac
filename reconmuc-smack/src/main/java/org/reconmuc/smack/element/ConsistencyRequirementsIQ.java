package org.reconmuc.smack.element;

import java.util.Objects;
import org.jivesoftware.smack.packet.IQ;
import org.jxmpp.jid.Jid;
import org.reconmuc.codec.XmlNamespaces;

/**
 * An IQ to a room with {@code <consistency-requirements/>} (reconmuc.md §4.1–§4.4): a set states
 * or updates the occupant's requirements, a get (empty) reads them, and the result carries the
 * effective requirements in the namespace of the request. Open for subclasses that only add
 * factories.
 */
public class ConsistencyRequirementsIQ extends IQ {
    public static final String ELEMENT = "consistency-requirements";
    public static final String NAMESPACE = XmlNamespaces.RECONMUC;

    private final ConsistencyRequirements requirements;

    /** In {@code urn:reconmuc:0}. */
    public ConsistencyRequirementsIQ(ConsistencyRequirements requirements) {
        this(NAMESPACE, requirements);
    }

    /** In {@code urn:reconmuc:0} or the paper's {@code http://joom.com/extensions}. */
    public ConsistencyRequirementsIQ(String namespace, ConsistencyRequirements requirements) {
        super(ELEMENT, namespace);
        if (!XmlNamespaces.isRequirementsNamespace(namespace)) {
            throw new IllegalArgumentException("requirements are in " + NAMESPACE + " or " + XmlNamespaces.JOOM);
        }
        this.requirements = Objects.requireNonNull(requirements, "requirements");
    }

    /** A set to {@code room} stating {@code requirements}. */
    public static ConsistencyRequirementsIQ set(Jid room, ConsistencyRequirements requirements) {
        ConsistencyRequirementsIQ iq = new ConsistencyRequirementsIQ(requirements);
        iq.setType(Type.set);
        iq.setTo(room);
        return iq;
    }

    /** A get to {@code room} asking for the effective requirements. */
    public static ConsistencyRequirementsIQ get(Jid room) {
        ConsistencyRequirementsIQ iq = new ConsistencyRequirementsIQ(ConsistencyRequirements.empty());
        iq.setType(Type.get);
        iq.setTo(room);
        return iq;
    }

    public ConsistencyRequirements getRequirements() {
        return requirements;
    }

    @Override
    protected IQChildElementXmlStringBuilder getIQChildElementBuilder(IQChildElementXmlStringBuilder xml) {
        if (requirements.isEmpty()) {
            xml.setEmptyElement();
            return xml;
        }
        xml.rightAngleBracket();
        requirements.appendChildren(xml);
        return xml;
    }
}
