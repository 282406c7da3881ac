package org.reconmuc.component.activity;

import java.util.List;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;

/**
 * XEP-0437's {@code <rai xmlns='urn:xmpp:rai:0'/>}: empty in a client's subscription presence, and
 * with one {@code <activity/>} per room (its bare JID) in the service's notice.
 */
public record RaiElement(List<String> rooms) {
    public static final String ELEMENT = "rai";
    public static final String NAMESPACE = "urn:xmpp:rai:0";
    public static final String ACTIVITY = "activity";

    public RaiElement {
        rooms = List.copyOf(rooms);
    }

    /** Whether {@code stanza} (a presence) carries the subscription. */
    public static boolean isIn(Element stanza) {
        return stanza.element(QName.get(ELEMENT, NAMESPACE)) != null;
    }

    public Element toElement() {
        Element rai = DocumentHelper.createElement(QName.get(ELEMENT, NAMESPACE));
        for (String room : rooms) {
            rai.addElement(ACTIVITY).setText(room);
        }
        return rai;
    }
}
