package org.reconmuc.component.transport;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.dom4j.DocumentFactory;
import org.dom4j.Element;
import org.dom4j.QName;

/**
 * The XML a component connection writes by itself (XEP-0114 stream header, handshake, stream
 * errors, error replies to stanzas it will not hand on), and the checks of outgoing stanzas that
 * would make a server close the stream. Pure functions: no sockets, no state.
 */
final class StreamXml {
    static final String NS_ACCEPT = StanzaParser.NS_ACCEPT;
    static final String NS_STREAM = "http://etherx.jabber.org/streams";
    static final String NS_STREAM_ERRORS = "urn:ietf:params:xml:ns:xmpp-streams";
    static final String NS_STANZA_ERRORS = "urn:ietf:params:xml:ns:xmpp-stanzas";
    static final String CLOSE_STREAM = "</stream:stream>";

    private StreamXml() {
    }

    static String streamHeader(String domain) {
        return "<?xml version='1.0'?><stream:stream xmlns='" + NS_ACCEPT + "' xmlns:stream='" + NS_STREAM
                + "' to='" + escape(domain) + "'>";
    }

    static String handshake(String streamId, String secret) {
        return "<handshake>" + handshakeDigest(streamId, secret) + "</handshake>";
    }

    static String streamError(String condition, String text) {
        return "<stream:error><" + condition + " xmlns='" + NS_STREAM_ERRORS + "'/>"
                + (text == null ? "" : "<text xmlns='" + NS_STREAM_ERRORS + "'>" + escape(text) + "</text>")
                + "</stream:error>";
    }

    /** Lowercase hex SHA-1 of (stream id + secret), XEP-0114 section 3. */
    static String handshakeDigest(String streamId, String secret) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            return HexFormat.of().formatHex(sha1.digest((streamId + secret).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is always available", e);
        }
    }

    /** The condition and text of a {@code <stream:error/>} the server sent. */
    record ServerStreamError(String condition, String text) {
        static ServerStreamError of(Element error) {
            String condition = null;
            String text = null;
            for (Element child : error.elements()) {
                if (!NS_STREAM_ERRORS.equals(child.getNamespaceURI())) {
                    continue;
                }
                if ("text".equals(child.getName())) {
                    text = child.getTextTrim();
                } else if (condition == null) {
                    condition = child.getName();
                }
            }
            return new ServerStreamError(condition == null ? "undefined" : condition, text);
        }

        String describe() {
            return "the server sent stream error '" + condition + "'"
                    + (text == null || text.isEmpty() ? "" : " (" + text + ")");
        }
    }

    /**
     * The error reply (same stanza kind, type error, a {@code modify} error with {@code condition}
     * and {@code text}) to a received stanza that will not be handed on; null for one that must
     * not be answered (an error itself, an IQ result, no sender, not a stanza). Sent from its
     * {@code to}, or from {@code domain} when it has none.
     */
    static Element errorReply(Element original, String domain, String condition, String text) {
        String kind = original.getName();
        if (!kind.equals("message") && !kind.equals("presence") && !kind.equals("iq")) {
            return null;
        }
        String from = original.attributeValue("from");
        String type = original.attributeValue("type");
        // RFC 6120 8.2.3: an IQ result is not answered with an error either.
        if ("error".equals(type) || kind.equals("iq") && "result".equals(type) || from == null || from.isEmpty()) {
            return null;
        }
        String to = original.attributeValue("to");
        DocumentFactory df = DocumentFactory.getInstance();
        Element reply = df.createElement(kind);
        reply.addAttribute("from", to == null || to.isEmpty() ? domain : to);
        reply.addAttribute("to", from);
        String id = original.attributeValue("id");
        if (id != null) {
            reply.addAttribute("id", id);
        }
        reply.addAttribute("type", "error");
        Element error = reply.addElement("error");
        error.addAttribute("type", "modify");
        error.add(df.createElement(QName.get(condition, NS_STANZA_ERRORS)));
        Element textElement = df.createElement(QName.get("text", NS_STANZA_ERRORS));
        textElement.setText(text);
        error.add(textElement);
        return reply;
    }

    /** Why the server would close the stream over this outgoing stanza, or null if it would not. */
    static String outgoingProblem(String domain, String from, String xml) {
        return outgoingProblem(domain, from, firstForbiddenCharacter(xml));
    }

    /** As above, for a stanza whose first forbidden character was found already ({@code -1}: none). */
    static String outgoingProblem(String domain, String from, int forbiddenCharacter) {
        if (from == null || from.isEmpty()) {
            return "it has no 'from' address";
        }
        if (!domainOf(from).equalsIgnoreCase(domain)) {
            return "its 'from' address " + from + " is not in " + domain;
        }
        if (forbiddenCharacter >= 0) {
            return String.format("it contains the character U+%04X, which XML does not allow", forbiddenCharacter);
        }
        return null;
    }

    static String domainOf(String jid) {
        int slash = jid.indexOf('/');
        String bare = slash >= 0 ? jid.substring(0, slash) : jid;
        int at = bare.indexOf('@');
        return at >= 0 ? bare.substring(at + 1) : bare;
    }

    /**
     * The first character (or character reference, as dom4j writes control characters as
     * {@code &#1;}) in serialized XML that XML 1.0 does not allow, or -1.
     */
    static int firstForbiddenCharacter(String xml) {
        int n = xml.length();
        for (int i = 0; i < n; i++) {
            char c = xml.charAt(i);
            if (c >= 0x20 && c < 0xD800) {
                if (c == '&' && i + 2 < n && xml.charAt(i + 1) == '#') {
                    int cp = characterReference(xml, i + 2);
                    if (cp >= 0 && !isXmlChar(cp)) {
                        return cp;
                    }
                }
                continue;
            }
            if (c == '\t' || c == '\n' || c == '\r') {
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(xml.charAt(i + 1))) {
                i++;
                continue;
            }
            if (!isXmlChar(c) || Character.isSurrogate(c)) {
                return c;
            }
        }
        return -1;
    }

    private static int characterReference(String xml, int from) {
        boolean hex = from < xml.length() && xml.charAt(from) == 'x';
        int i = hex ? from + 1 : from;
        long value = 0;
        int digits = 0;
        for (; i < xml.length() && digits < 9; i++, digits++) {
            int d = Character.digit(xml.charAt(i), hex ? 16 : 10);
            if (d < 0) {
                break;
            }
            value = value * (hex ? 16 : 10) + d;
        }
        return digits > 0 && i < xml.length() && xml.charAt(i) == ';' ? (int) Math.min(value, Integer.MAX_VALUE) : -1;
    }

    private static boolean isXmlChar(int cp) {
        return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF)
                || (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("'", "&apos;").replace("\"", "&quot;");
    }
}
