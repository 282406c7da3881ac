package org.reconmuc.component.muc;

import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
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
        if (c.stanzaIdsForEveryone()) {
            feature(query, XmlNamespaces.STANZA_ID);
        }
        feature(query, STABLE_ID);
        feature(query, SELF_PING_OPTIMIZATION);
        feature(query, XmlNamespaces.RECONMUC);
        feature(query, XmlNamespaces.FEATURE_COMPACT);
        feature(query, XmlNamespaces.FEATURE_COMPACT_LIVE);
        feature(query, XmlNamespaces.FEATURE_COMPACT_DEFLATE);
        feature(query, XmlNamespaces.FEATURE_COMPACT_DEFLATE_LIVE);
        feature(query, RoomRegistration.NAMESPACE);
        feature(query, XmlNamespaces.RETRACT);
        feature(query, XmlNamespaces.RETRACT_0);
        feature(query, XmlNamespaces.MODERATE);
        feature(query, XmlNamespaces.MODERATE_0);
        if (c.logged()) {
            feature(query, RoomArchive.NAMESPACE);
        }
        if (room.hasOccupantIds()) {
            feature(query, OccupantIds.NAMESPACE);
        }
        feature(query, c.publicRoom() ? "muc_public" : "muc_hidden");
        feature(query, c.persistent() ? "muc_persistent" : "muc_temporary");
        feature(query, c.membersOnly() ? "muc_membersonly" : "muc_open");
        feature(query, c.moderated() ? "muc_moderated" : "muc_unmoderated");
        feature(query, c.nonAnonymous() ? "muc_nonanonymous" : "muc_semianonymous");
        feature(query, c.passwordProtected() ? "muc_passwordprotected" : "muc_unsecured");

        Element form = query.addElement("x", Namespaces.DATA_FORMS);
        form.addAttribute("type", "result");
        field(form, "FORM_TYPE", "hidden", Namespaces.MUC_ROOMINFO);
        field(form, "muc#roominfo_description", "text-single", c.description());
        field(form, "muc#roomconfig_roomname", "text-single", c.name());
        field(form, "muc#roominfo_occupants", "text-single", Integer.toString(room.occupants().size()));
        String subject = room.subject() == null ? "" : room.subject().getSubject();
        field(form, "muc#roominfo_subject", "text-single", subject == null ? "" : subject);
        field(form, "muc#roomconfig_changesubject", "boolean", c.changeSubject() ? "1" : "0");
        field(form, RoomConfigForm.ENABLELOGGING, "boolean", c.logged() ? "1" : "0");
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
     * §6.5: the occupants, by occupant JID and nick (never real JIDs), to occupants and, in a
     * public room, to anyone; a hidden room shows outsiders an empty list.
     */
    static void items(Room room, IQ iq, Occupant requester) {
        IQ result = IQ.createResultIQ(iq);
        Element query = result.setChildElement("query", Namespaces.DISCO_ITEMS);
        if (requester != null || room.config().publicRoom()) {
            for (Occupant o : room.occupants()) {
                Element item = query.addElement("item");
                item.addAttribute("jid", o.jid().toString());
                item.addAttribute("name", o.nick());
            }
        }
        room.output().send(result);
    }

    private static void feature(Element query, String var) {
        query.addElement("feature").addAttribute("var", var);
    }

    private static void field(Element form, String var, String type, String value) {
        Element f = form.addElement("field");
        f.addAttribute("var", var);
        f.addAttribute("type", type);
        f.addElement("value").setText(value == null ? "" : value);
    }
}
