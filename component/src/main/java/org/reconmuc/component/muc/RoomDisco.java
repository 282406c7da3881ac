package org.reconmuc.component.muc;

import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
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
        Element form = query.addElement("x", Namespaces.DATA_FORMS);
        form.addAttribute("type", "result");
        field(form, "FORM_TYPE", "hidden", Namespaces.MUC_ROOMINFO);
        field(form, "muc#roominfo_occupants", "text-single", Integer.toString(room.occupants().size()));
        String subject = room.subject() == null ? "" : room.subject().getSubject();
        field(form, "muc#roominfo_subject", "text-single", subject == null ? "" : subject);
        for (RoomOption<?> option : c.options()) {
            option.describe(c, query, form);
        }
        room.fire(RoomEvent.DISCO_INFO, new RoomEvent.Describing(room, query, form));
        // XEP-0128: the relaxed-consistency limits a client must respect.
        Element limits = query.addElement("x", Namespaces.DATA_FORMS);
        limits.addAttribute("type", "result");
        field(limits, "FORM_TYPE", "hidden", XmlNamespaces.LIMITS_FORM_TYPE);
        field(limits, "max-filter-entries", "text-single", Integer.toString(room.context().config().maxFilterEntries()));
        field(limits, "max-time", "text-single", Integer.toString(room.context().config().maxTimeSeconds()));
        field(limits, "max-volume", "text-single", Integer.toString(room.consistency().historyCapacity()));
        field(limits, "history-size", "text-single", Integer.toString(room.consistency().historyCapacity()));
        room.output().send(result);
    }

    /**
     * §6.5: the occupants, by occupant JID and nick (never real JIDs), to whom the room's access
     * rule shows them ({@link RoomAccess}); anyone else gets an empty list.
     */
    static void items(Room room, IQ iq, Occupant requester) {
        IQ result = IQ.createResultIQ(iq);
        Element query = result.setChildElement("query", Namespaces.DISCO_ITEMS);
        if (RoomAccess.seesOccupants(room, new RealJid(iq.getFrom()), requester)) {
            for (Occupant o : room.occupants()) {
                Element item = query.addElement("item");
                item.addAttribute("jid", o.jid().toString());
                item.addAttribute("name", o.nick());
            }
        }
        room.output().send(result);
    }

    private static void feature(Element query, String var) {
        RoomOption.feature(query, var);
    }

    private static void field(Element form, String var, String type, String value) {
        RoomOption.field(form, var, type, null, value);
    }
}
