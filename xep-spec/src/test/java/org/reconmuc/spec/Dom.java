package org.reconmuc.spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.transform.dom.DOMSource;
import org.reconmuc.codec.XmlNamespaces;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/** Test helpers over DOM trees and the module's source files. */
final class Dom {
    static final Set<String> OURS = Set.of(XmlNamespaces.RECONMUC, XmlNamespaces.JOOM);

    private Dom() {
    }

    /** The outermost elements in urn:reconmuc:0 or http://joom.com/extensions, in document order. */
    static List<Element> outermostOurs(Element root) {
        List<Element> found = new ArrayList<>();
        collect(root, found);
        return found;
    }

    private static void collect(Element e, List<Element> found) {
        if (e.getNamespaceURI() != null && OURS.contains(e.getNamespaceURI())) {
            found.add(e);
            return;
        }
        for (Element c : TemplateMatcher.children(e)) {
            collect(c, found);
        }
    }

    /** All descendants (and self) with that namespace and local name, in document order. */
    static List<Element> all(Element root, String ns, String local) {
        List<Element> found = new ArrayList<>();
        walk(root, ns, local, found);
        return found;
    }

    private static void walk(Element e, String ns, String local, List<Element> found) {
        String uri = e.getNamespaceURI() == null ? XmlNamespaces.JABBER_CLIENT : e.getNamespaceURI();
        if (uri.equals(ns) && e.getLocalName().equals(local)) {
            found.add(e);
        }
        for (Element c : TemplateMatcher.children(e)) {
            walk(c, ns, local, found);
        }
    }

    /** Null if valid, else the validator's message. */
    static String validationError(Element e) {
        try {
            Schemas.validator(Schemas.forNamespace(e.getNamespaceURI())).validate(new DOMSource(e));
            return null;
        } catch (SAXException ex) {
            return ex.getMessage();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** A deep copy without white-space-only text nodes, for structural comparison. */
    static Node normalized(Node n) {
        Node copy = n.cloneNode(true);
        strip(copy);
        copy.normalize();
        return copy;
    }

    private static void strip(Node n) {
        Node c = n.getFirstChild();
        while (c != null) {
            Node next = c.getNextSibling();
            if (c.getNodeType() == Node.TEXT_NODE && c.getNodeValue().isBlank()) {
                n.removeChild(c);
            } else {
                strip(c);
            }
            c = next;
        }
    }

    /** The module directory (surefire runs tests there). */
    static Path moduleDir() {
        Path p = Path.of("").toAbsolutePath();
        if (Files.exists(p.resolve("reconmuc.md"))) {
            return p;
        }
        if (Files.exists(p.resolve("xep-spec/reconmuc.md"))) {
            return p.resolve("xep-spec");
        }
        throw new IllegalStateException("Cannot find the xep-spec module directory from " + p);
    }

    static Path resources() {
        return moduleDir().resolve("src/main/resources/reconmuc");
    }

    static List<String> xmlFilesIn(String dir) {
        try (Stream<Path> s = Files.list(resources().resolve(dir))) {
            return s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".xml")).sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String specText() {
        try {
            return Files.readString(moduleDir().resolve("reconmuc.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Section numbers ("4", "4.1", "5.11") of the headings of reconmuc.md, with their titles. */
    static java.util.Map<String, String> sections() {
        java.util.Map<String, String> map = new java.util.HashMap<>();
        Matcher m = Pattern.compile("(?m)^#{2,4} (\\d+(?:\\.\\d+)?)\\.? (.+)$").matcher(specText());
        while (m.find()) {
            map.put(m.group(1), m.group(2).strip());
        }
        return map;
    }
}
