package org.reconmuc.component.transport;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import org.dom4j.DocumentFactory;
import org.dom4j.Element;
import org.xmpp.packet.JID;

/**
 * What an error reply needs of a received stanza that will not be parsed (too large, too deep,
 * or refused by the parser): its kind and its {@code from}, {@code to}, {@code id} and
 * {@code type}, read lexically from its start tag as the framer cut it out. The framer already
 * checked the tag's lexical structure (quotes, references); this reads no further than the
 * first {@code >} outside quotes, so a huge or broken stanza costs no more than its start tag.
 *
 * <p>It answers only when the reply is safe to send: the element is an unprefixed
 * {@code message}, {@code presence} or {@code iq} in the stream's content namespace, each of the
 * four attributes appears at most once, {@code from} and {@code to} are valid addresses, and the
 * tag is valid UTF-8. Anything less and the stanza is dropped unanswered: a reply to an address
 * we cannot be sure of could go to the wrong party or make the server close our stream.
 */
final class StanzaHead {

    private StanzaHead() {
    }

    /**
     * The start tag at the beginning of {@code frame} as an element with the four attributes
     * (those present) and no children; null if it cannot be read safely (see above).
     */
    static Element read(byte[] frame) {
        if (frame == null) {
            return null;
        }
        int n = frame.length;
        int i = 1;   // frame[0] is '<'
        int nameStart = i;
        while (i < n && !isSpace(frame[i]) && frame[i] != '/' && frame[i] != '>') {
            i++;
        }
        String name = ascii(frame, nameStart, i);
        if (!name.equals("message") && !name.equals("presence") && !name.equals("iq")) {
            return null;
        }
        Map<String, String> attributes = new HashMap<>();
        while (true) {
            while (i < n && isSpace(frame[i])) {
                i++;
            }
            if (i >= n) {
                return null;   // no end of the start tag within the frame
            }
            if (frame[i] == '/' || frame[i] == '>') {
                break;
            }
            int attrStart = i;
            while (i < n && frame[i] != '=' && !isSpace(frame[i]) && frame[i] != '>') {
                i++;
            }
            int attrEnd = i;
            while (i < n && isSpace(frame[i])) {
                i++;
            }
            if (i >= n || frame[i] != '=') {
                return null;
            }
            i++;
            while (i < n && isSpace(frame[i])) {
                i++;
            }
            if (i >= n || frame[i] != '"' && frame[i] != '\'') {
                return null;
            }
            byte quote = frame[i++];
            int valueStart = i;
            while (i < n && frame[i] != quote) {
                i++;
            }
            if (i >= n) {
                return null;
            }
            String attr = ascii(frame, attrStart, attrEnd);
            if (attr.equals("from") || attr.equals("to") || attr.equals("id") || attr.equals("type")
                    || attr.equals("xmlns")) {
                String value = value(frame, valueStart, i);
                if (value == null || attributes.put(attr, value) != null) {
                    return null;   // undecodable, or given twice: which one would the server mean?
                }
            }
            i++;
        }
        String ns = attributes.remove("xmlns");
        if (ns != null && !StanzaParser.CONTENT_NAMESPACES.contains(ns)) {
            return null;
        }
        if (!isJid(attributes.get("from")) || attributes.containsKey("to") && !isJid(attributes.get("to"))) {
            return null;
        }
        Element e = DocumentFactory.getInstance().createElement(name);
        for (String a : new String[] {"from", "to", "id", "type"}) {
            if (attributes.containsKey(a)) {
                e.addAttribute(a, attributes.get(a));
            }
        }
        return e;
    }

    private static boolean isJid(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        try {
            new JID(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** An attribute value with its references replaced; null if it is not valid UTF-8 or has a bad reference. */
    private static String value(byte[] frame, int from, int to) {
        String raw;
        try {
            raw = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(frame, from, to - from)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        StringBuilder out = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '<') {
                return null;
            }
            if (c != '&') {
                out.append(c);
                continue;
            }
            int semi = raw.indexOf(';', i);
            if (semi < 0) {
                return null;
            }
            String ref = raw.substring(i + 1, semi);
            switch (ref) {
                case "lt" -> out.append('<');
                case "gt" -> out.append('>');
                case "amp" -> out.append('&');
                case "quot" -> out.append('"');
                case "apos" -> out.append('\'');
                default -> {
                    int cp = characterReference(ref);
                    if (cp < 0) {
                        return null;
                    }
                    out.appendCodePoint(cp);
                }
            }
            i = semi;
        }
        return out.toString();
    }

    private static int characterReference(String ref) {
        if (ref.length() < 2 || ref.charAt(0) != '#' || ref.length() > 10) {
            return -1;
        }
        boolean hex = ref.charAt(1) == 'x';
        try {
            int cp = Integer.parseInt(ref.substring(hex ? 2 : 1), hex ? 16 : 10);
            return Character.isValidCodePoint(cp) && (cp < 0xD800 || cp > 0xDFFF) ? cp : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String ascii(byte[] b, int from, int to) {
        return new String(b, from, Math.max(0, to - from), StandardCharsets.ISO_8859_1);
    }

    private static boolean isSpace(byte b) {
        return XmlFramer.isXmlWhitespace(b);
    }
}
