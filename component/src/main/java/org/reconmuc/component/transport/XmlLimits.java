package org.reconmuc.component.transport;

import javax.xml.stream.XMLInputFactory;

/**
 * The XML limits of what the component reads from its server, in one place and the same on every
 * JDK: the JDK's parser has limits of its own (name length 1,000 and 10,000 attributes on JDK 17;
 * on newer JDKs also 100 levels, 200 attributes and smaller entity sizes), which used to close
 * the whole component stream over one stanza that Prosody had accepted and forwarded.
 *
 * <p>What bounds a received stanza is what the framer measures before any parsing:
 * {@code max-stanza-bytes} (real bytes on the wire) and {@link #MAX_DEPTH} levels. The parser's
 * own limits are set so that it never refuses what the framer let through: a name, an attribute
 * count or a text node can take the whole stanza, as they can in the servers in front of us.
 * Prosody 0.12 (expat through lxp) bounds a client's stanza by {@code c2s_stanza_size_limit}
 * (256 KiB by default) and {@code c2s_max_child_elements} (25,000 elements), with no limit on
 * names, attribute count or depth;
 * ejabberd (fast_xml, libexpat too) only by {@code max_stanza_size} (262,144 bytes in its
 * example configuration). Our default {@code max-stanza-bytes} is that same 256 KiB, but counted
 * on our link, after the server wrote the stanza again: Prosody escapes every {@code ' " < > &}
 * in text and attribute values as an entity (up to six bytes for one) and adds the sender's
 * full JID, so a stanza near its limit, or one full of such characters, can be larger here than
 * the client sent it. Such a stanza is refused with {@code policy-violation}, never the link.
 *
 * <p>Depth and attributes per element are the two places where the component is narrower than
 * those servers, on purpose, and fixed rather than settings for that reason: 128 levels (the
 * stanza element is level 1) and {@value #MAX_ATTRIBUTES} attributes on one element are far more
 * than any XMPP payload uses (XHTML-IM and data forms stay under 10 levels and 10 attributes).
 * Deeper stanzas are only made to exhaust a recursive consumer; thousands of attributes only to
 * burn CPU: dom4j copies an element's attributes in quadratic time ({@code createCopy}, which
 * the rooms use on every message), 1.5 s for 30,000 attributes, which 256 KiB can hold. Such a
 * stanza is answered with {@code policy-violation}, never with the loss of the stream.
 *
 * <p>Entities: the framer refuses DTDs and every reference but the five predefined ones and
 * character references, and the factory does not support DTDs, so no entity can be declared;
 * the limits on declared entities are set to the least anyway. The JDK counts predefined and
 * character references against its entity-size limits (JDK 24: 100,000), so those are off:
 * each such reference stands for one character of a stanza whose size is already bounded.
 */
final class XmlLimits {

    /** Deepest element nesting accepted in a received stanza (the stanza element is level 1). */
    static final int MAX_DEPTH = 128;

    /** Most attributes accepted on one element of a received stanza (checked by {@link StanzaParser}). */
    static final int MAX_ATTRIBUTES = 1000;

    private static final int NONE = Integer.MAX_VALUE;

    private XmlLimits() {
    }

    /**
     * Sets the JDK parser's limits on {@code factory}. "None" is written as the largest int, not
     * as the JDK's 0: JDK 17 takes a name limit of 0 literally where it checks namespace URIs.
     */
    static void apply(XMLInputFactory factory) {
        // The stanza is parsed inside the stream's root element: one level more.
        factory.setProperty("jdk.xml.maxElementDepth", MAX_DEPTH + 1);
        factory.setProperty("jdk.xml.maxXMLNameLimit", NONE);
        // Ours is checked by the parser, so that its refusal is told apart from XML errors.
        factory.setProperty("jdk.xml.elementAttributeLimit", NONE);
        factory.setProperty("jdk.xml.totalEntitySizeLimit", NONE);
        factory.setProperty("jdk.xml.maxGeneralEntitySizeLimit", NONE);
        factory.setProperty("jdk.xml.entityExpansionLimit", 1);
        factory.setProperty("jdk.xml.maxParameterEntitySizeLimit", 1);
    }
}
