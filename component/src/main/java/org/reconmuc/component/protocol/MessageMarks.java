package org.reconmuc.component.protocol;

import java.util.LinkedHashSet;
import java.util.Set;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.codec.Topics;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.consistency.FilterKey;

/**
 * What the engine needs to know of a groupchat message, read from its XML: its topics
 * ({@code <topic/>} elements and {@code #hashtags}), the stanza-id it replies to (XEP-0461) or
 * reacts to (XEP-0444), and the nicks it addresses ({@code nick:} / {@code nick,} or XEP-0372 mentions).
 */
public final class MessageMarks {
    public static final String TOPIC = "topic";
    /** A service considers at most this many topics, or addressees, per message (reconmuc.md §5.3, §5.5). */
    public static final int MAX_MARKS = Topics.MAX_PER_MESSAGE;
    /** A nick address is at most this long, so the prefix scan is bounded. */
    private static final int MAX_NICK = 64;

    private MessageMarks() {
    }

    /** The message's topics: its {@code <topic/>} elements, or, when it has none, its hashtags. */
    public static Set<FilterKey> topics(Element message) {
        Set<FilterKey> topics = new LinkedHashSet<>();
        boolean tagged = false;
        for (Element child : message.elements()) {
            if (TOPIC.equals(child.getName()) && XmlNamespaces.isRequirementsNamespace(child.getNamespaceURI())) {
                tagged = true;
                String t = Topics.normalize(child.getText());
                if (Topics.isValid(t) && topics.size() < MAX_MARKS) {
                    topics.add(FilterKey.topic(t));
                }
            }
        }
        String body = message.elementText("body");
        if (!tagged && body != null) {
            for (String tag : Topics.hashtags(body)) {
                topics.add(FilterKey.topic(tag));
            }
        }
        return topics;
    }

    /** The room stanza-id of the message this one replies to (XEP-0461), or null. */
    public static String replyTo(Element message) {
        Element reply = reply(message);
        return reply == null ? null : reply.attributeValue("id");
    }

    /** The nick the XEP-0461 reply's {@code to} names in this room, or null. */
    public static String replyToNick(Element message, String roomJid) {
        Element reply = reply(message);
        String to = reply == null ? null : reply.attributeValue("to");
        return to != null && to.startsWith(roomJid + "/") && to.length() > roomJid.length() + 1
                ? to.substring(roomJid.length() + 1) : null;
    }

    /** The room stanza-id of the message this one reacts to (XEP-0444 {@code <reactions id/>}), or null. */
    public static String reactsTo(Element message) {
        Element reactions = message.element(QName.get("reactions", XmlNamespaces.REACTIONS));
        String id = reactions == null ? null : reactions.attributeValue("id");
        return id == null || id.isEmpty() ? null : id;
    }

    private static Element reply(Element message) {
        return message.element(QName.get("reply", XmlNamespaces.REPLY));
    }

    /** RFC 3986 percent-decoding of an XMPP URI's resource (XEP-0147); malformed escapes stay as written. */
    private static String percentDecoded(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()
                    && Character.digit(s.charAt(i + 1), 16) >= 0 && Character.digit(s.charAt(i + 2), 16) >= 0) {
                out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
        }
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Nicks this message addresses: a {@code nick:} or {@code nick,} prefix, and XEP-0372 mentions of the room. */
    public static Set<String> addressed(Element message, String roomJid) {
        Set<String> nicks = new LinkedHashSet<>();
        String body = message.elementText("body");
        if (body != null) {
            int end = Math.min(body.length(), MAX_NICK + 1);
            for (int i = 0; i < end; i++) {
                char c = body.charAt(i);
                if (c == ':' || c == ',') {
                    if (i > 0) {
                        nicks.add(body.substring(0, i).trim());
                    }
                    break;
                }
                if (c == '\n') {
                    break;
                }
            }
        }
        String prefix = "xmpp:" + roomJid + "/";
        for (Element child : message.elements()) {
            if ("reference".equals(child.getName()) && XmlNamespaces.REFERENCE.equals(child.getNamespaceURI())
                    && "mention".equals(child.attributeValue("type"))) {
                String uri = child.attributeValue("uri");
                if (uri != null && uri.startsWith(prefix) && uri.length() > prefix.length() && nicks.size() < MAX_MARKS) {
                    nicks.add(percentDecoded(uri.substring(prefix.length())));
                }
            }
        }
        return nicks;
    }
}
