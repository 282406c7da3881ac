package org.reconmuc.component.muc;

import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.forms.DataForm;
import org.xmpp.forms.FormField;
import org.xmpp.packet.IQ;

/** Service discovery of one room (XEP-0045 §6.4 room info, §6.5 room items). */
final class RoomDisco {
    /** XEP-0045 §17.2: the room can be pinged through an occupant JID (XEP-0410). */
    static final String SELF_PING_OPTIMIZATION = "http://jabber.org/protocol/muc#self-ping-optimization";
    static final String STABLE_ID = "http://jabber.org/protocol/muc#stable_id";

    private RoomDisco() {
    }

    static void info(Room room, IQ iq, Occupant requester) {
        if (iq.getChildElement().attributeValue("node") != null) {
            room.output().error(iq, Condition.ITEM_NOT_FOUND, "This room has no disco node '"
                    + iq.getChildElement().attributeValue("node") + "'");
            return;
        }
        RoomConfig c = room.config();
        IQ result = IQ.createResultIQ(iq);
        Element query = result.setChildElement("query", Namespaces.DISCO_INFO);
        Element identity = query.addElement("identity");
        identity.addAttribute("category", "conference");
        identity.addAttribute("type", "text");
        identity.addAttribute("name", room.listing().name());
        feature(query, Namespaces.MUC);
        feature(query, Namespaces.DISCO_INFO);
        feature(query, Namespaces.DISCO_ITEMS);
        feature(query, Namespaces.PING);
        feature(query, STABLE_ID);
        feature(query, SELF_PING_OPTIMIZATION);
        feature(query, XmlNamespaces.RECONMUC);
        feature(query, XmlNamespaces.FEATURE_COMPACT);
        feature(query, XmlNamespaces.FEATURE_COMPACT_LIVE);
        feature(query, XmlNamespaces.FEATURE_COMPACT_DEFLATE);
        feature(query, XmlNamespaces.FEATURE_COMPACT_DEFLATE_LIVE);
        feature(query, org.reconmuc.component.protocol.PresencesElement.FEATURE);
        feature(query, RoomRegistration.NAMESPACE);
        feature(query, XmlNamespaces.RETRACT);
        feature(query, XmlNamespaces.RETRACT_0);
        feature(query, XmlNamespaces.MODERATE);
        feature(query, XmlNamespaces.MODERATE_0);
        if (room.hasOccupantIds()) {
            feature(query, OccupantIds.NAMESPACE);
        }
        DataForm info = new DataForm(DataForm.Type.result);
        info.addField("FORM_TYPE", null, FormField.Type.hidden).addValue(Namespaces.MUC_ROOMINFO);
        info.addField("muc#roominfo_occupants", null, FormField.Type.text_single).addValue(room.occupants().size());
        String subject = room.subject() == null ? "" : room.subject().getSubject();
        info.addField("muc#roominfo_subject", null, FormField.Type.text_single).addValue(subject == null ? "" : subject);
        query.add(info.getElement());
        for (RoomOption<?> option : c.options()) {
            option.describe(c, query, info.getElement());
        }
        room.fire(RoomEvent.DISCO_INFO, new RoomEvent.Describing(room, query, info.getElement()));
        // XEP-0128: the relaxed-consistency limits a client must respect.
        DataForm limits = new DataForm(DataForm.Type.result);
        limits.addField("FORM_TYPE", null, FormField.Type.hidden).addValue(XmlNamespaces.LIMITS_FORM_TYPE);
        limits.addField("max-filter-entries", null, FormField.Type.text_single).addValue(room.context().config().maxFilterEntries());
        limits.addField("max-time", null, FormField.Type.text_single).addValue(room.context().config().maxTimeSeconds());
        limits.addField("max-volume", null, FormField.Type.text_single).addValue(room.consistency().historyCapacity());
        limits.addField("history-size", null, FormField.Type.text_single).addValue(room.consistency().historyCapacity());
        query.add(limits.getElement());
        room.output().send(result);
    }

    /** The most occupants one disco#items answer lists (XEP-0045 §6.5: a large room's list comes in pages). */
    static final int PAGE = 100;

    /**
     * §6.5: the occupants, by occupant JID and nick (never real JIDs), to whom the room's access
     * rule shows them ({@link RoomAccess}); anyone else gets an empty list. A room of more than
     * {@link #PAGE} occupants, or a request with an XEP-0059 {@code <set/>}, is answered a page at a
     * time in join order ({@code <max/>} up to {@link #PAGE}, {@code <after/>} the last nick of the
     * previous page), with the count: a list of a hundred thousand occupants is no one stanza, and
     * whoever asks gets what one screen shows (a client loads the rest as it scrolls).
     */
    static void items(Room room, IQ iq, Occupant requester) {
        IQ result = IQ.createResultIQ(iq);
        Element query = result.setChildElement("query", Namespaces.DISCO_ITEMS);
        if (!RoomAccess.seesOccupants(room, new RealJid(iq.getFrom()), requester)) {
            room.output().send(result);
            return;
        }
        Element set = iq.getChildElement().element(org.dom4j.QName.get("set", RoomArchive.RSM));
        int total = room.occupants().size();
        if (set == null && total <= PAGE) {
            room.occupants().forEach(o -> item(query, o));
            room.output().send(result);
            return;
        }
        int max = PAGE;
        String after = null;
        if (set != null) {
            String maxText = set.elementTextTrim("max");
            try {
                max = maxText == null ? PAGE : Math.min(PAGE, Integer.parseInt(maxText));
            } catch (NumberFormatException e) {
                max = -1;
            }
            if (max < 0) {
                room.output().error(iq, Condition.BAD_REQUEST, "<max/> must be a whole number >= 0, not '" + maxText + "'");
                return;
            }
            after = set.elementText("after");
        }
        java.util.Iterator<Occupant> it = room.occupants().iterator();
        int index = 0;
        if (after != null) {
            boolean found = false;
            while (it.hasNext() && !found) {
                found = it.next().nick().equals(after);
                index++;
            }
            if (!found) {
                room.output().error(iq, Condition.ITEM_NOT_FOUND, "No occupant '" + after + "' to page after: he may have left;"
                        + " ask again from the start");
                return;
            }
        }
        String first = null;
        String last = null;
        for (int n = 0; n < max && it.hasNext(); n++) {
            Occupant o = it.next();
            item(query, o);
            first = first == null ? o.nick() : first;
            last = o.nick();
        }
        Element page = query.addElement("set", RoomArchive.RSM);
        if (first != null) {
            page.addElement("first").addAttribute("index", Integer.toString(index)).setText(first);
            page.addElement("last").setText(last);
        }
        page.addElement("count").setText(Integer.toString(total));
        room.output().send(result);
    }

    private static void item(Element query, Occupant o) {
        Element item = query.addElement("item");
        item.addAttribute("jid", o.jid().toString());
        item.addAttribute("name", o.nick());
    }

    private static void feature(Element query, String var) {
        RoomOption.feature(query, var);
    }
}
