package org.reconmuc.codec;

/** Escaping of text and attribute values for XML written by hand (batches are concatenated text). */
public final class XmlText {

    private XmlText() {
    }

    /** Appends {@code text} as character data: {@code & < >} escaped, and CR kept as a reference. */
    public static StringBuilder appendText(StringBuilder out, CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '\r' -> out.append("&#13;");
                default -> out.append(c);
            }
        }
        return out;
    }

    /**
     * Appends {@code value} for an attribute delimited by {@code "}: markup and the quote escaped,
     * and TAB, LF and CR as references, which attribute-value normalisation would otherwise turn
     * into spaces.
     */
    public static StringBuilder appendAttribute(StringBuilder out, CharSequence value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\t' -> out.append("&#9;");
                case '\n' -> out.append("&#10;");
                case '\r' -> out.append("&#13;");
                default -> out.append(c);
            }
        }
        return out;
    }

    /** Whether {@code s} is empty or only XML white space (space, TAB, CR, LF). */
    public static boolean isWhiteSpace(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return false;
            }
        }
        return true;
    }

    /** {@code s} without its XML white space (base64 text may be wrapped). */
    public static String withoutWhiteSpace(CharSequence s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                b.append(c);
            }
        }
        return b.toString();
    }
}
