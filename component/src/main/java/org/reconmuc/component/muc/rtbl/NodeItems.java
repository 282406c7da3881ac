package org.reconmuc.component.muc.rtbl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dom4j.Element;

/**
 * What one XEP-0060 {@code <items/>} element says of a node: the ids of the items published (an
 * items result, §6.5, or a notification, §7.1.2) and of those retracted (§7.2.2), and whether the
 * node was purged (§8.5). Ids are compared in lower case: a hash in hex names the same user in
 * either case.
 */
public record NodeItems(String node, List<String> published, List<String> retracted, boolean purged) {
    public static final String ELEMENT = "items";
    /** The namespace of requests and their results. */
    public static final String NAMESPACE = "http://jabber.org/protocol/pubsub";
    /** The namespace of notifications. */
    public static final String EVENT_NAMESPACE = "http://jabber.org/protocol/pubsub#event";
    public static final String PUBSUB = "pubsub";
    public static final String EVENT = "event";

    public NodeItems {
        published = List.copyOf(published);
        retracted = List.copyOf(retracted);
    }

    /** The items of an items result ({@code <pubsub><items node=''>…}), or null if it has none. */
    public static NodeItems fromResult(Element pubsub) {
        Element items = pubsub == null ? null : pubsub.element(ELEMENT);
        return items == null ? null : read(items.attributeValue("node"), items, false);
    }

    /** What a notification ({@code <event><items/>} or {@code <event><purge/>}) says, or null if neither. */
    public static NodeItems fromEvent(Element event) {
        if (event == null) {
            return null;
        }
        Element items = event.element(ELEMENT);
        if (items != null) {
            return read(items.attributeValue("node"), items, false);
        }
        Element purge = event.element("purge");
        return purge == null ? null : read(purge.attributeValue("node"), purge, true);
    }

    private static NodeItems read(String node, Element items, boolean purged) {
        List<String> published = new ArrayList<>();
        List<String> retracted = new ArrayList<>();
        for (Element child : items.elements()) {
            String id = child.attributeValue("id");
            if (id == null || id.isBlank()) {
                continue;
            }
            if ("item".equals(child.getName())) {
                published.add(id.toLowerCase(Locale.ROOT));
            } else if ("retract".equals(child.getName())) {
                retracted.add(id.toLowerCase(Locale.ROOT));
            }
        }
        return new NodeItems(node == null ? "" : node, published, retracted, purged);
    }
}
