package org.reconmuc.component.protocol;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dom4j.Element;
import org.reconmuc.component.consistency.FilterKey;

/**
 * What the engine needs to know of a groupchat message, read from its XML: its topics
 * ({@code <topic/>} elements and {@code #hashtags}), the stanza-id it replies to (XEP-0461),
 * and the nicks it addresses ({@code nick:} / {@code nick,} or XEP-0372 mentions).
 */
public final class MessageMarks {
    public static final String TOPIC = "topic";
    private static final Pattern HASHTAG = Pattern.compile("(?<![\\p{L}\\p{N}_#&])#([\\p{L}\\p{N}_-]{1,64})");
    /** A nick address is at most this long, so the prefix scan is bounded. */
    private static final int MAX_NICK = 64;

    private MessageMarks() {
    }

    public static Set<FilterKey> topics(Element message) {
        Set<FilterKey> topics = new LinkedHashSet<>();
        for (Element child : message.elements()) {
            if (TOPIC.equals(child.getName()) && ReconMucNamespaces.isRequirementsNamespace(child.getNamespaceURI())) {
                String t = child.getTextTrim();
                if (!t.isEmpty() && t.length() <= 256) {
                    FilterKey k = FilterKey.topic(t);
                    if (!k.value().isEmpty()) {
                        topics.add(k);
                    }
                }
            }
        }
        String body = message.elementText("body");
        if (body != null) {
            Matcher m = HASHTAG.matcher(body);
            while (m.find()) {
                topics.add(FilterKey.topic(m.group(1)));
            }
        }
        return topics;
    }

    /** The room stanza-id of the message this one replies to, or null. */
    public static String replyTo(Element message) {
        for (Element child : message.elements()) {
            if ("reply".equals(child.getName()) && ReconMucNamespaces.REPLY.equals(child.getNamespaceURI())) {
                return child.attributeValue("id");
            }
        }
        return null;
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
            if ("reference".equals(child.getName()) && ReconMucNamespaces.REFERENCE.equals(child.getNamespaceURI())
                    && "mention".equals(child.attributeValue("type"))) {
                String uri = child.attributeValue("uri");
                if (uri != null && uri.startsWith(prefix) && uri.length() > prefix.length()) {
                    nicks.add(uri.substring(prefix.length()));
                }
            }
        }
        return nicks;
    }
}
