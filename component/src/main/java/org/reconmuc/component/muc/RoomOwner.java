package org.reconmuc.component.muc;

import java.util.LinkedHashSet;
import java.util.Set;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;

/** The {@code muc#owner} namespace: the configuration form (XEP-0045 §10.1–10.2) and destroy (§10.9). */
public final class RoomOwner {
    public static final int CONFIG_CHANGED = 104;

    private RoomOwner() {
    }

    static void handle(Room room, IQ iq, RealJid session, Occupant actor) {
        if (room.affiliationOf(session) != Affiliation.OWNER) {
            room.output().error(iq, Condition.FORBIDDEN, "Only owners may configure or destroy this room");
            return;
        }
        RoomConfig.Limits limits = room.configLimits();
        Element query = iq.getChildElement();
        if (iq.getType() == IQ.Type.get) {
            IQ result = IQ.createResultIQ(iq);
            Element q = result.setChildElement("query", Namespaces.MUC_OWNER);
            Element form = RoomConfigForm.render(room.config(), limits);
            RoomOwnerLists.render(form, room);
            q.add(form);
            room.output().send(result);
            return;
        }
        Element destroy = query.element("destroy");
        if (destroy != null) {
            // §10.9: the occupants are told, then the owner; a persistent room is deleted from the store first.
            room.destroy(destroyNotice(destroy));
            room.output().send(IQ.createResultIQ(iq));
            return;
        }
        Element form = query.element(QName.get("x", Namespaces.DATA_FORMS));
        if (form == null) {
            room.output().error(iq, Condition.BAD_REQUEST, "Expected a data form (jabber:x:data) or <destroy/>");
            return;
        }
        String type = form.attributeValue("type");
        if ("cancel".equals(type)) {
            room.output().send(IQ.createResultIQ(iq));
            room.lock().cancelled(room);
            return;
        }
        if (!"submit".equals(type)) {
            room.output().error(iq, Condition.BAD_REQUEST, "The configuration form must be of type 'submit' or 'cancel'");
            return;
        }
        RoomConfig before = room.config();
        RoomConfig after;
        java.util.Map<RealJid, Affiliation> listChanges;
        try {
            after = RoomConfigForm.apply(before, form, limits);
            listChanges = RoomOwnerLists.changes(room, form);
        } catch (IllegalArgumentException e) {
            room.output().error(iq, Condition.NOT_ACCEPTABLE, e.getMessage());
            return;
        }
        room.setConfig(after);
        room.lock().configured();
        room.output().send(IQ.createResultIQ(iq));
        RoomAdmin.applyAffiliations(room, actor, listChanges);
        if (!after.equals(before)) {
            // §10.2.1: 104 announces a change; accepting the instant room (§10.1.2) changes nothing.
            announce(room, before, after);
            // What the archive keeps and who may read it may have changed (reconmuc.md §5.9 rule 8.4).
            room.consistency().configurationChanged();
        }
        for (RoomOption<?> option : after.options()) {
            option.changed(room, before, after);
        }
    }

    /** XEP-0045 §10.2.1: occupants learn that the configuration changed (104), and what the options add (privacy, logging). */
    private static void announce(Room room, RoomConfig before, RoomConfig after) {
        Set<Integer> codes = new LinkedHashSet<>();
        codes.add(CONFIG_CHANGED);
        for (RoomOption<?> option : after.options()) {
            option.addChangeCodes(before, after, codes);
        }
        Message notice = new Message();
        notice.setType(Message.Type.groupchat);
        notice.setFrom(room.jid().jid());
        Element x = notice.getElement().addElement("x", Namespaces.MUC_USER);
        for (int code : codes) {
            x.addElement("status").addAttribute("code", Integer.toString(code));
        }
        room.output().toOccupants(room.occupants(), notice);
    }

    private static Element destroyNotice(Element request) {
        Element notice = DocumentHelper.createElement(QName.get("destroy", Namespaces.MUC_USER));
        String alternate = request.attributeValue("jid");
        if (alternate != null) {
            notice.addAttribute("jid", alternate);
        }
        String reason = request.elementText("reason");
        if (reason != null) {
            notice.addElement("reason").setText(reason);
        }
        return notice;
    }
}
