package org.reconmuc.smack.element;

import java.util.ArrayList;
import java.util.List;
import javax.xml.namespace.QName;
import org.jivesoftware.smack.packet.ExtensionElement;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.packet.XmlEnvironment;
import org.jivesoftware.smack.util.XmlStringBuilder;
import org.reconmuc.codec.XmlNamespaces;

/**
 * {@code <topic xmlns='urn:reconmuc:0'>gossip</topic>} in a groupchat message (reconmuc.md §4.5,
 * §5.3), or the paper's {@code http://joom.com/extensions} form. The text is kept as sent; compare
 * topics with {@link org.reconmuc.codec.Topics#normalize}. Immutable.
 */
public final class TopicElement implements ExtensionElement {
    public static final String ELEMENT = "topic";
    public static final String NAMESPACE = XmlNamespaces.RECONMUC;
    public static final QName QNAME = new QName(NAMESPACE, ELEMENT);

    private final String namespace;
    private final String topic;

    /** A topic in {@code urn:reconmuc:0}. */
    public TopicElement(String topic) {
        this(NAMESPACE, topic);
    }

    /** A topic in {@code urn:reconmuc:0} or the paper's namespace. */
    public TopicElement(String namespace, String topic) {
        if (!XmlNamespaces.isRequirementsNamespace(namespace)) {
            throw new IllegalArgumentException("a topic is in " + NAMESPACE + " or " + XmlNamespaces.JOOM + ", not " + namespace);
        }
        this.namespace = namespace;
        this.topic = topic;
    }

    /** The topic as written in the element. */
    public String getTopic() {
        return topic;
    }

    @Override
    public String getElementName() {
        return ELEMENT;
    }

    @Override
    public String getNamespace() {
        return namespace;
    }

    @Override
    public XmlStringBuilder toXML(XmlEnvironment enclosingNamespace) {
        return new XmlStringBuilder(this, enclosingNamespace).rightAngleBracket().escape(topic).closeElement(this);
    }

    /** The topic elements of a stanza in either namespace, in document order. */
    public static List<TopicElement> from(Stanza stanza) {
        List<TopicElement> topics = new ArrayList<>();
        for (ExtensionElement e : stanza.getExtensions()) {
            if (e instanceof TopicElement t) {
                topics.add(t);
            }
        }
        return topics;
    }
}
