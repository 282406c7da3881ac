package org.reconmuc.spec;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.MalformedBatchException;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * The reference implementation of the scenario matching rules M1–M7
 * ({@code reconmuc/scenarios/README.md}): matches a template element from a {@code <receive/>}
 * step against a received stanza, with scenario-wide captures. Not thread-safe; use one per
 * scenario run.
 */
public final class TemplateMatcher {
    private static final Pattern CAPTURE = Pattern.compile("\\{([A-Za-z][A-Za-z0-9_-]*)}");

    private Map<String, String> captures;
    private String reason;

    /** A matcher with no captures yet. */
    /** Per recipient (full JID), the decoder that reads its batches; per received batch, its items. */
    private final Map<String, BatchDecoder> decoders = new HashMap<>();
    private final Map<Element, List<Element>> decodedBatches = new java.util.IdentityHashMap<>();

    public TemplateMatcher() {
        this.captures = new HashMap<>();
    }

    /** The captures made so far (name to value), read-only. */
    public Map<String, String> captures() {
        return Collections.unmodifiableMap(captures);
    }

    /** Binds a capture, as a {@code capture-stanza-id} on a send step does. */
    public void bind(String name, String value) {
        if (!CAPTURE.matcher("{" + name + "}").matches()) {
            throw new IllegalArgumentException("Not a capture name: " + name);
        }
        String old = captures.putIfAbsent(name, value);
        if (old != null && !old.equals(value)) {
            throw new IllegalStateException("{" + name + "} is already captured as '" + old + "', not '" + value + "'");
        }
    }

    /**
     * If {@code value} is exactly {@code {name}}, the captured value (an error if none), else the
     * value itself: how a send step substitutes captures.
     */
    public String substitute(String value) {
        var m = CAPTURE.matcher(value.strip());
        if (!m.matches()) {
            return value;
        }
        String v = captures.get(m.group(1));
        if (v == null) {
            throw new IllegalStateException("{" + m.group(1) + "} is used before it is captured");
        }
        return v;
    }

    /**
     * Matches; on success keeps the captures made, on failure discards them.
     *
     * @return empty if {@code received} matches {@code template}, else why not
     */
    public Optional<String> mismatch(Element template, Element received) {
        Map<String, String> work = new HashMap<>(captures);
        reason = null;
        if (element(template, received, work, "/" + received.getLocalName())) {
            captures = work;
            return Optional.empty();
        }
        return Optional.of(reason == null ? "no match" : reason);
    }

    /**
     * The items of a received batch, decoded once (a deflate stream's batches must be read in
     * order, each once) by the decoder of the session it was sent to.
     */
    private List<Element> decodedItems(Element batch) throws MalformedBatchException {
        List<Element> items = decodedBatches.get(batch);
        if (items == null) {
            String to = batch.getParentNode() instanceof Element m ? m.getAttribute("to") : "";
            items = DomBatches.items(batch, decoders.computeIfAbsent(to, k -> new BatchDecoder()));
            decodedBatches.put(batch, items);
        }
        return items;
    }

    /** {@link #mismatch} as a boolean. */
    public boolean matches(Element template, Element received) {
        return mismatch(template, received).isEmpty();
    }

    /** True if {@code value} is a capture reference {@code {name}}. */
    public static boolean isCapture(String value) {
        return CAPTURE.matcher(value).matches();
    }

    // ------------------------------------------------------------------------------------------

    private boolean fail(String path, String why) {
        if (reason == null) {
            reason = path + ": " + why;
        }
        return false;
    }

    private static String ns(Node n) {
        String uri = n.getNamespaceURI();
        return uri == null || uri.isEmpty() ? XmlNamespaces.JABBER_CLIENT : uri;
    }

    private static boolean directive(Element e, String name) {
        return "true".equals(e.getAttributeNS(Scenarios.NAMESPACE, name))
                || "1".equals(e.getAttributeNS(Scenarios.NAMESPACE, name));
    }

    private boolean element(Element t, Element r, Map<String, String> work, String path) {
        // M1
        if (!ns(t).equals(ns(r)) || !t.getLocalName().equals(r.getLocalName())) {
            return fail(path, "expected {" + ns(t) + "}" + t.getLocalName() + ", got {" + ns(r) + "}" + r.getLocalName());
        }
        boolean exact = directive(t, "exact");
        boolean delay = XmlNamespaces.DELAY.equals(ns(t)) && "delay".equals(t.getLocalName());
        // M2
        int templateAttributes = 0;
        NamedNodeMap attrs = t.getAttributes();
        for (int i = 0; i < attrs.getLength(); i++) {
            Attr a = (Attr) attrs.item(i);
            if (XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(a.getNamespaceURI())
                    || Scenarios.NAMESPACE.equals(a.getNamespaceURI())) {
                continue;
            }
            templateAttributes++;
            String local = a.getLocalName() == null ? a.getName() : a.getLocalName();
            Attr ra = a.getNamespaceURI() == null ? r.getAttributeNodeNS(null, local)
                    : r.getAttributeNodeNS(a.getNamespaceURI(), local);
            if (ra == null) {
                return fail(path, "missing attribute " + a.getName());
            }
            boolean stamp = delay && a.getNamespaceURI() == null && "stamp".equals(local);
            if (!value(a.getValue(), ra.getValue(), stamp, work)) {
                return fail(path, "attribute " + a.getName() + "='" + ra.getValue() + "' does not match '" + a.getValue() + "'");
            }
        }
        if (exact && countAttributes(r) != templateAttributes) {
            return fail(path, "sc:exact: extra attributes");
        }
        // M7, M8: an encoded or compact batch's children are its items, inflated and expanded.
        List<Element> rChildren;
        if (XmlNamespaces.RECONMUC.equals(ns(r)) && Batch.ELEMENT.equals(r.getLocalName())
                && (r.hasAttribute(Batch.ENCODING) || r.hasAttribute(Batch.FORM))) {
            try {
                rChildren = decodedItems(r);
            } catch (MalformedBatchException e) {
                String kind = r.hasAttribute(Batch.ENCODING) ? r.getAttribute(Batch.ENCODING) : r.getAttribute(Batch.FORM);
                return fail(path, kind + " batch: " + e.getMessage());
            }
        } else {
            rChildren = children(r);
        }
        List<Element> tChildren = new ArrayList<>();
        List<Element> absent = new ArrayList<>();
        for (Element c : children(t)) {
            (directive(c, "absent") ? absent : tChildren).add(c);
        }
        // M4
        if (children(t).isEmpty()) {
            String tt = text(t);
            if (!tt.isEmpty()) {
                if (!value(tt, text(r), false, work)) {
                    return fail(path, "text '" + text(r) + "' does not match '" + tt + "'");
                }
            } else if (exact && !text(r).isEmpty()) {
                return fail(path, "sc:exact: unexpected text '" + text(r) + "'");
            }
        }
        // M3 / M6
        if (exact && rChildren.size() != tChildren.size()) {
            return fail(path, "sc:exact: " + rChildren.size() + " children, expected " + tChildren.size());
        }
        int next = 0;
        for (Element tc : tChildren) {
            boolean found = false;
            String childPath = path + "/" + tc.getLocalName();
            String closest = null;
            while (next < rChildren.size()) {
                Element rc = rChildren.get(next++);
                Map<String, String> attempt = new HashMap<>(work);
                String saved = reason;
                reason = null;
                if (element(tc, rc, attempt, childPath)) {
                    work.clear();
                    work.putAll(attempt);
                    reason = saved;
                    found = true;
                    break;
                }
                if (exact) {
                    reason = saved == null ? reason : saved;
                    return false; // one to one: the inner failure is the reason
                }
                if (closest == null && ns(tc).equals(ns(rc)) && tc.getLocalName().equals(rc.getLocalName())) {
                    closest = reason; // same name: its failure says most
                }
                reason = saved; // try the next received child
            }
            if (!found) {
                return fail(childPath, closest == null ? "no matching child (in order)"
                        : "no matching child (in order); first candidate failed at " + closest);
            }
        }
        for (Element tc : absent) {
            for (Element rc : rChildren) {
                String saved = reason;
                if (element(tc, rc, new HashMap<>(work), path + "/" + tc.getLocalName())) {
                    reason = saved;
                    return fail(path, "a child matches <" + tc.getLocalName() + " sc:absent='true'/>");
                }
                reason = saved;
            }
        }
        return true;
    }

    private boolean value(String template, String received, boolean stamp, Map<String, String> work) {
        if ("*".equals(template)) {
            return true;
        }
        var m = CAPTURE.matcher(template);
        if (m.matches()) {
            String old = work.get(m.group(1));
            if (old == null) {
                work.put(m.group(1), received);
                return true;
            }
            return old.equals(received);
        }
        if (stamp) {
            try {
                return OffsetDateTime.parse(template).toInstant().equals(OffsetDateTime.parse(received).toInstant());
            } catch (DateTimeParseException e) {
                return template.equals(received);
            }
        }
        return template.equals(received);
    }

    private static int countAttributes(Element e) {
        int n = 0;
        NamedNodeMap attrs = e.getAttributes();
        for (int i = 0; i < attrs.getLength(); i++) {
            if (!XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(attrs.item(i).getNamespaceURI())) {
                n++;
            }
        }
        return n;
    }

    static List<Element> children(Element e) {
        List<Element> list = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.ELEMENT_NODE) {
                list.add((Element) n);
            }
        }
        return list;
    }

    /** Text content with leading and trailing XML white space (space, tab, CR, LF) removed. */
    static String text(Element e) {
        String s = e.getTextContent();
        int b = 0;
        int end = s.length();
        while (b < end && isXmlSpace(s.charAt(b))) {
            b++;
        }
        while (end > b && isXmlSpace(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(b, end);
    }

    private static boolean isXmlSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
