package org.reconmuc.codec;

import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;

/**
 * Writes one element, as a pull parser reports it, into XML text that declares every namespace it
 * uses: what was inherited from ancestors on the wire is declared where the copy needs it, so the
 * text parses on its own with any parser. Parser-neutral (StAX in the codec, Smack's parser in
 * clients); the caller feeds it events in document order. Empty elements are written {@code <x/>}.
 */
public final class XmlElementWriter {
    private final StringBuilder out;
    /** Open elements: their qualified names and the bindings each declared. */
    private final List<String> names = new ArrayList<>();
    private final List<List<String[]>> declared = new ArrayList<>();
    private boolean startTagOpen;
    /** The default namespace in scope where the written element will stand ("" at the root of a document). */
    private final String inheritedDefault;

    public XmlElementWriter(StringBuilder out) {
        this(out, "");
    }

    /**
     * A writer for an element that will stand where {@code inheritedDefault} is the default
     * namespace (e.g. inside a batch: {@code urn:reconmuc:0}): elements in it need no declaration.
     */
    public XmlElementWriter(StringBuilder out, String inheritedDefault) {
        this.out = out;
        this.inheritedDefault = inheritedDefault;
    }

    /** How many elements are open. */
    public int depth() {
        return names.size();
    }

    /** Opens an element; its start tag stays open for {@link #attribute}s until the next event. */
    public void startElement(String prefix, String namespace, String localName) {
        closeStartTag();
        String p = nullToEmpty(prefix);
        String name = p.isEmpty() ? localName : p + ":" + localName;
        out.append('<').append(name);
        names.add(name);
        declared.add(null);
        declare(p, nullToEmpty(namespace));
        startTagOpen = true;
    }

    /** An attribute of the element just opened (prefix {@code xml} needs no declaration). */
    public void attribute(String prefix, String namespace, String localName, String value) {
        if (!startTagOpen) {
            throw new IllegalStateException("attribute outside a start tag");
        }
        String p = nullToEmpty(prefix);
        if (!p.isEmpty() && !XMLConstants.XML_NS_PREFIX.equals(p)) {
            declare(p, nullToEmpty(namespace));
        }
        out.append(' ').append(p.isEmpty() ? localName : p + ":" + localName).append("=\"");
        XmlText.appendAttribute(out, value).append('"');
    }

    /** Character data of the current element. */
    public void text(CharSequence text) {
        if (text.length() == 0) {
            return;
        }
        closeStartTag();
        XmlText.appendText(out, text);
    }

    /**
     * A comment, written as is: XMPP allows none (RFC 6120 §11.1), so the copy keeps it for a
     * strict reader to refuse rather than hiding it.
     */
    public void comment(String text) {
        closeStartTag();
        out.append("<!--").append(text).append("-->");
    }

    /** A processing instruction, written as is, for the same reason as {@link #comment}. */
    public void processingInstruction(String text) {
        closeStartTag();
        out.append("<?").append(text).append("?>");
    }

    /** Closes the current element. */
    public void endElement() {
        int last = names.size() - 1;
        if (startTagOpen) {
            out.append("/>");
            startTagOpen = false;
        } else {
            out.append("</").append(names.get(last)).append('>');
        }
        names.remove(last);
        declared.remove(last);
    }

    private void closeStartTag() {
        if (startTagOpen) {
            out.append('>');
            startTagOpen = false;
        }
    }

    /** Declares {@code prefix} for {@code uri} on the open start tag unless the written scope binds it so already. */
    private void declare(String prefix, String uri) {
        if (uri.equals(lookup(prefix))) {
            return;
        }
        if (!prefix.isEmpty() && uri.isEmpty()) {
            throw new IllegalArgumentException("prefix '" + prefix + "' bound to no namespace");
        }
        int last = declared.size() - 1;
        if (declared.get(last) == null) {
            declared.set(last, new ArrayList<>(2));
        }
        declared.get(last).add(new String[] {prefix, uri});
        out.append(prefix.isEmpty() ? " xmlns=\"" : " xmlns:" + prefix + "=\"");
        XmlText.appendAttribute(out, uri).append('"');
    }

    private String lookup(String prefix) {
        for (int i = declared.size() - 1; i >= 0; i--) {
            List<String[]> bindings = declared.get(i);
            if (bindings != null) {
                for (int j = bindings.size() - 1; j >= 0; j--) {
                    if (bindings.get(j)[0].equals(prefix)) {
                        return bindings.get(j)[1];
                    }
                }
            }
        }
        return prefix.isEmpty() ? inheritedDefault : null; // outside the copied element: what it inherits, no prefixes
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
