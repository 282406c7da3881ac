package org.reconmuc.component.protocol;

import java.util.ArrayList;
import java.util.List;
import javax.xml.transform.dom.DOMSource;
import javax.xml.validation.Validator;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.Topics;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.FilterKey;
import org.reconmuc.component.consistency.Requirements;
import org.reconmuc.component.protocol.ProtocolException.Kind;
import org.reconmuc.spec.Schemas;
import org.xml.sax.SAXException;

/**
 * A {@code <consistency-requirements/>} element as sent by a client: only what it names
 * changes (partial update). Null fields were not given. {@code presences} is the presence level
 * a {@code <presences/>} child asks for (urn:reconmuc:0 only; {@link PresencesElement}).
 */
public record RequirementsRequest(String namespace, List<Entry> entries, Long timeSeconds, Integer volume,
        Aggregation aggregation, boolean standard, PresenceLevel presences) {

    public static final String ELEMENT = "consistency-requirements";
    /**
     * The longest nick filter value, in UTF-8 bytes: a nick is a JID's resourcepart, at most 1023
     * bytes (RFC 7622 §3.4), so a longer value names no occupant and would only take memory.
     */
    public static final int MAX_NICK_BYTES = 1023;
    /** The longest topic filter value before normalisation (white space and '#' around at most 64 characters). */
    public static final int MAX_RAW_TOPIC_CHARS = 1023;

    /** One {@code <filter-entry/>}: add ({@code active}) or remove a filter. */
    public record Entry(FilterKey key, boolean active) {
    }

    public boolean isEmpty() {
        return entries.isEmpty() && timeSeconds == null && volume == null && aggregation == null && !standard
                && presences == null;
    }

    /** Parses the element; malformed content is a {@link Kind#BAD_REQUEST} with a reason. */
    public static RequirementsRequest parse(Element e) throws ProtocolException {
        String ns = e.getNamespaceURI();
        if (!ELEMENT.equals(e.getName()) || !XmlNamespaces.isRequirementsNamespace(ns)) {
            throw new ProtocolException(Kind.BAD_REQUEST, "expected <" + ELEMENT + " xmlns='" + XmlNamespaces.RECONMUC + "'/>");
        }
        List<Entry> entries = new ArrayList<>();
        Long time = null;
        Integer volume = null;
        Aggregation aggregation = null;
        boolean standard = false;
        PresenceLevel presences = null;
        for (Element child : e.elements()) {
            if (!ns.equals(child.getNamespaceURI())) {
                throw new ProtocolException(Kind.BAD_REQUEST, "unknown element <" + child.getName() + " xmlns='"
                        + child.getNamespaceURI() + "'/> in <" + ELEMENT + "/>");
            }
            switch (child.getName()) {
                case "filter" -> entries.addAll(parseFilter(child, ns));
                case "time" -> time = positive(child, "time");
                case "volume" -> {
                    long v = positive(child, "volume");
                    volume = (int) Math.min(v, Integer.MAX_VALUE);
                }
                case "aggregation" -> {
                    String text = child.getTextTrim();
                    aggregation = Aggregation.parse(text);
                    if (aggregation == null) {
                        throw new ProtocolException(Kind.BAD_REQUEST,
                                "<aggregation/> must be 'none', 'plain', 'deflate', 'compact', 'compact-live', 'compact-deflate' or 'compact-deflate-live', not '"
                                        + text + "'");
                    }
                }
                case "standard" -> standard = true;
                case PresencesElement.ELEMENT -> {
                    if (!PresencesElement.NAMESPACE.equals(ns)) {
                        throw new ProtocolException(Kind.BAD_REQUEST, "<" + PresencesElement.ELEMENT + "/> is urn:reconmuc:0's, not '"
                                + ns + "''s");
                    }
                    presences = PresencesElement.parse(child).level();
                }
                default -> throw new ProtocolException(Kind.BAD_REQUEST, "unknown element <" + child.getName()
                        + "/> in <" + ELEMENT + "/>");
            }
        }
        if (standard && (!entries.isEmpty() || time != null || volume != null || aggregation != null || presences != null)) {
            throw new ProtocolException(Kind.BAD_REQUEST, "<standard/> cannot be combined with other requirements");
        }
        checkSchema(e);
        for (Entry entry : entries) {
            if (entry.key().kind() == FilterKey.Kind.NICK
                    && entry.key().value().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_NICK_BYTES) {
                throw new ProtocolException(Kind.POLICY_VIOLATION, "a nick filter value may have at most " + MAX_NICK_BYTES
                        + " bytes in UTF-8, the longest a nick can be (RFC 7622)");
            }
        }
        return new RequirementsRequest(ns, List.copyOf(entries), time, volume, aggregation, standard, presences);
    }

    /**
     * A validator per namespace and thread (each validation starts afresh; reset() would drop its secure
     * processing settings): making one costs several times the
     * validation of a request, and a room of 100,000 relaxed occupants gets 100,000 of them to fill.
     */
    private static final ThreadLocal<java.util.Map<String, Validator>> VALIDATORS =
            ThreadLocal.withInitial(java.util.HashMap::new);

    /**
     * The last word on syntax is the protocol's schema (xep-spec): a request it rejects is a
     * bad-request even where the checks above found nothing to say.
     */
    private static void checkSchema(Element e) throws ProtocolException {
        try {
            Validator validator = VALIDATORS.get().computeIfAbsent(e.getNamespaceURI(),
                    ns -> Schemas.validator(Schemas.forNamespace(ns)));
            validator.validate(new DOMSource(SecureXml.parse(e.asXML()).getDocumentElement()));
        } catch (SAXException | IllegalArgumentException ex) {
            String why = ex.getMessage() == null ? "" : ex.getMessage().replaceFirst("^cvc-[a-zA-Z.0-9-]*: ", "");
            throw new ProtocolException(Kind.BAD_REQUEST, "not valid per the protocol's schema: " + why);
        } catch (java.io.IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static List<Entry> parseFilter(Element filter, String ns) throws ProtocolException {
        List<Entry> entries = new ArrayList<>();
        for (Element entry : filter.elements()) {
            if (!"filter-entry".equals(entry.getName()) || !ns.equals(entry.getNamespaceURI())) {
                throw new ProtocolException(Kind.BAD_REQUEST, "<filter/> may only hold <filter-entry/> elements");
            }
            String element = entry.attributeValue("element");
            String value = entry.attributeValue("value");
            String active = entry.attributeValue("active", "true");
            if (element == null || value == null || value.isBlank()) {
                throw new ProtocolException(Kind.BAD_REQUEST, "<filter-entry/> needs 'element' and a non-empty 'value'");
            }
            FilterKey.Kind kind = FilterKey.Kind.fromElement(element);
            if (kind == null) {
                throw new ProtocolException(Kind.BAD_REQUEST, "unsupported filter element '" + element
                        + "': use 'topic' or 'nick'");
            }
            if (!active.equals("true") && !active.equals("false") && !active.equals("1") && !active.equals("0")) {
                throw new ProtocolException(Kind.BAD_REQUEST, "'active' must be true or false, not '" + active + "'");
            }
            if (kind == FilterKey.Kind.TOPIC) {
                if (value.length() > MAX_RAW_TOPIC_CHARS || !Topics.isValid(Topics.normalize(value))) {
                    throw new ProtocolException(Kind.BAD_REQUEST, "a topic has 1 to " + Topics.MAX_LENGTH
                            + " characters after an optional '#', not '" + (value.length() > 80 ? value.substring(0, 80) + "…" : value) + "'");
                }
            }
            FilterKey key = kind == FilterKey.Kind.TOPIC ? FilterKey.topic(value) : FilterKey.nick(value);
            entries.add(new Entry(key, active.equals("true") || active.equals("1")));
        }
        return entries;
    }

    private static long positive(Element e, String name) throws ProtocolException {
        String text = e.getTextTrim();
        long v;
        try {
            v = Long.parseLong(text);
        } catch (NumberFormatException ex) {
            throw new ProtocolException(Kind.BAD_REQUEST, "<" + name + "/> must be a whole number, not '" + text + "'");
        }
        if (v <= 0) {
            throw new ProtocolException(Kind.BAD_REQUEST, "<" + name + "/> must be positive, not " + v);
        }
        return v;
    }

    /** The element for the effective requirements (an IQ result), in {@code namespace}. */
    public static Element render(String namespace, Requirements r) {
        Element e = DocumentHelper.createElement(QName.get(ELEMENT, namespace));
        if (r == null) {
            e.addElement("standard");
            return e;
        }
        Element filter = e.addElement("filter");
        r.filters().forEach(k -> {
                    Element entry = filter.addElement("filter-entry");
                    entry.addAttribute("element", k.kind().element());
                    entry.addAttribute("value", k.value());
                    entry.addAttribute("active", "true");
                });
        e.addElement("time").setText(Long.toString(r.timeMillis() / 1000));
        e.addElement("volume").setText(Integer.toString(r.volume()));
        e.addElement("aggregation").setText(r.aggregation().xmlValue());
        return e;
    }
}
