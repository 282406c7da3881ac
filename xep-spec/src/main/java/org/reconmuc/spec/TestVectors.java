package org.reconmuc.spec;

import java.util.List;

/**
 * The example stanzas of {@code reconmuc.md}, one stanza per file under
 * {@code reconmuc/vectors/} on the classpath. Each file starts with an XML comment saying what it
 * shows and which section it illustrates, followed by the stanza. Stanzas at the top level carry no
 * namespace declaration, as in the XEPs: read them as {@code jabber:client}.
 */
public final class TestVectors {
    static final String DIR = "vectors";

    private TestVectors() {
    }

    /** The names of all vectors (file names without ".xml"), sorted. */
    public static List<String> list() {
        return Resources.xmlNames(DIR);
    }

    /**
     * The whole file, leading comment included.
     *
     * @param name a name from {@link #list()}, with or without ".xml"
     * @throws IllegalArgumentException if there is no such vector
     */
    public static String read(String name) {
        return Resources.xml(DIR, name);
    }

    /**
     * The stanza alone: the file without its leading comment and the line break after it, and
     * without the final line break. For the paper's listings ({@code paper-listing-1..3}) this is
     * the listing exactly as printed in the paper.
     */
    public static String stanza(String name) {
        return stripLeadingComment(read(name));
    }

    static String stripLeadingComment(String text) {
        String t = text;
        if (t.startsWith("<!--")) {
            int end = t.indexOf("-->");
            if (end < 0) {
                throw new IllegalStateException("Unterminated leading comment");
            }
            t = t.substring(end + 3);
            if (t.startsWith("\r\n")) {
                t = t.substring(2);
            } else if (t.startsWith("\n")) {
                t = t.substring(1);
            }
        }
        if (t.endsWith("\r\n")) {
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("\n")) {
            t = t.substring(0, t.length() - 1);
        }
        return t;
    }
}
