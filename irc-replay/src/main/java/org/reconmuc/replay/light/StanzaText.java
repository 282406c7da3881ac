package org.reconmuc.replay.light;

/**
 * Reads what a light session needs from the text of one stanza, as a server serialises it
 * (attributes in single or double quotes, character references for the five XML entities): the
 * element's name, an attribute of its start tag, whether it holds an element, and an attribute of
 * a child. No tree is built: a stanza is read once, for a few values, and let go.
 */
final class StanzaText {
    private StanzaText() {
    }

    /** The name of the element {@code xml} starts with (its prefix included), e.g. {@code message}. */
    static String name(String xml) {
        int end = 1;
        while (end < xml.length() && !isNameEnd(xml.charAt(end))) {
            end++;
        }
        return xml.substring(1, end);
    }

    /** The value of attribute {@code attr} of the start tag at {@code tagStart}, unescaped, or null. */
    static String attribute(String xml, int tagStart, String attr) {
        int end = tagEnd(xml, tagStart);
        int i = tagStart + 1;
        while (i < end && !isNameEnd(xml.charAt(i))) {
            i++;
        }
        while (i < end) {
            char c = xml.charAt(i);
            if (Character.isWhitespace(c) || c == '/') {
                i++;
                continue;
            }
            int nameStart = i;
            while (i < end && xml.charAt(i) != '=' && !Character.isWhitespace(xml.charAt(i))) {
                i++;
            }
            String name = xml.substring(nameStart, i);
            while (i < end && xml.charAt(i) != '\'' && xml.charAt(i) != '"') {
                i++;
            }
            if (i >= end) {
                return null;
            }
            char quote = xml.charAt(i);
            int valueEnd = xml.indexOf(quote, i + 1);
            if (valueEnd < 0) {
                return null;
            }
            if (name.equals(attr)) {
                return unescape(xml.substring(i + 1, valueEnd));
            }
            i = valueEnd + 1;
        }
        return null;
    }

    /** The attribute {@code attr} of the element's own start tag. */
    static String attribute(String xml, String attr) {
        return attribute(xml, 0, attr);
    }

    /**
     * Where the first start tag named {@code name} whose {@code xmlns} is {@code ns} (null: any)
     * starts, at or after {@code from}; -1 if none.
     */
    static int element(String xml, int from, String name, String ns) {
        int i = from;
        while ((i = xml.indexOf('<', i)) >= 0) {
            int n = i + 1;
            if (xml.startsWith(name, n) && n + name.length() < xml.length() && isNameEnd(xml.charAt(n + name.length()))
                    && (ns == null || ns.equals(attribute(xml, i, "xmlns")))) {
                return i;
            }
            i = n;
        }
        return -1;
    }

    /** The text between the start tag at {@code tagStart} and its end tag (no nested element of the same name), unescaped. */
    static String text(String xml, int tagStart) {
        int open = tagEnd(xml, tagStart);
        if (xml.charAt(open - 1) == '/') {
            return "";
        }
        int close = xml.indexOf('<', open + 1);
        return close < 0 ? null : unescape(xml.substring(open + 1, close));
    }

    /** Where the start tag at {@code tagStart} ends (its {@code >}), outside quotes. */
    static int tagEnd(String xml, int tagStart) {
        char quote = 0;
        for (int i = tagStart + 1; i < xml.length(); i++) {
            char c = xml.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '>') {
                return i;
            }
        }
        return xml.length();
    }

    private static boolean isNameEnd(char c) {
        return c == ' ' || c == '>' || c == '/' || c == '\t' || c == '\n' || c == '\r';
    }

    static String unescape(String s) {
        if (s.indexOf('&') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int semi;
            if (c != '&' || (semi = s.indexOf(';', i)) < 0) {
                b.append(c);
                continue;
            }
            String ref = s.substring(i + 1, semi);
            switch (ref) {
                case "amp" -> b.append('&');
                case "lt" -> b.append('<');
                case "gt" -> b.append('>');
                case "apos" -> b.append('\'');
                case "quot" -> b.append('"');
                default -> {
                    if (ref.startsWith("#x")) {
                        b.appendCodePoint(Integer.parseInt(ref.substring(2), 16));
                    } else if (ref.startsWith("#")) {
                        b.appendCodePoint(Integer.parseInt(ref.substring(1)));
                    } else {
                        b.append('&').append(ref).append(';');
                    }
                }
            }
            i = semi;
        }
        return b.toString();
    }

    /** Text escaped for an XML attribute or element (the five entities); characters XML 1.0 forbids are left out. */
    static String escape(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '\'' -> "&apos;";
                case '"' -> "&quot;";
                default -> c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0xFFFE || c == 0xFFFF ? "" : null;
            };
            if (rep != null && b == null) {
                b = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (b != null) {
                if (rep != null) {
                    b.append(rep);
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
    }
}
