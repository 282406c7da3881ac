package org.reconmuc.smack.element;

import java.util.Objects;
import org.jivesoftware.smack.packet.NamedElement;
import org.jivesoftware.smack.packet.XmlEnvironment;
import org.jivesoftware.smack.util.XmlStringBuilder;

/**
 * {@code <filter-entry element='topic' value='gossip' active='true'/>} (reconmuc.md §5.4): in a
 * request, adds ({@code active} true or absent) or removes a filter; in a result, one active
 * filter. Immutable.
 */
public final class FilterEntry implements NamedElement {
    public static final String ELEMENT = "filter-entry";

    /** What the entry matches: the {@code element} attribute. */
    public enum Kind {
        TOPIC("topic"), NICK("nick");

        private final String attribute;

        Kind(String attribute) {
            this.attribute = attribute;
        }

        public String attribute() {
            return attribute;
        }

        /** The kind with this attribute value, or null. */
        public static Kind fromAttribute(String value) {
            for (Kind k : values()) {
                if (k.attribute.equals(value)) {
                    return k;
                }
            }
            return null;
        }
    }

    private final Kind kind;
    private final String value;
    private final Boolean active;

    /** {@code active} null leaves the attribute out, which means true. */
    public FilterEntry(Kind kind, String value, Boolean active) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.value = Objects.requireNonNull(value, "value");
        this.active = active;
    }

    public static FilterEntry topic(String topic, boolean active) {
        return new FilterEntry(Kind.TOPIC, topic, active);
    }

    public static FilterEntry nick(String nick, boolean active) {
        return new FilterEntry(Kind.NICK, nick, active);
    }

    public Kind getKind() {
        return kind;
    }

    public String getValue() {
        return value;
    }

    /** Whether the entry adds (true) or removes (false) its filter; an absent attribute is true. */
    public boolean isActive() {
        return active == null || active;
    }

    @Override
    public String getElementName() {
        return ELEMENT;
    }

    @Override
    public XmlStringBuilder toXML(XmlEnvironment enclosingNamespace) {
        XmlStringBuilder xml = new XmlStringBuilder(this);
        xml.attribute("element", kind.attribute());
        xml.attribute("value", value);
        if (active != null) {
            xml.attribute("active", active);
        }
        return xml.closeEmptyElement();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FilterEntry f && kind == f.kind && value.equals(f.value) && isActive() == f.isActive();
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, value, isActive());
    }

    @Override
    public String toString() {
        return kind.attribute() + "=" + value + (isActive() ? "" : " (off)");
    }
}
