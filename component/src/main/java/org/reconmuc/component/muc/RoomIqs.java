package org.reconmuc.component.muc;

import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.jid.OccupantJid;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.protocol.RequirementsRequest;
import org.xmpp.packet.IQ;

/** Routes an IQ addressed to a room, or to an occupant of it, to the feature that answers it. */
final class RoomIqs {

    private RoomIqs() {
    }

    public static void handle(Room room, IQ iq, RealJid session) {
        Occupant sender = room.occupantBySession(session);
        OccupantJid target = OccupantJid.of(iq.getTo()).orElse(null);
        if (iq.getType() == IQ.Type.result || iq.getType() == IQ.Type.error) {
            // An answer is evidence only of what it answers: to an occupant JID, a request the room
            // passed on (it goes back to the asker, errors too: a client's service-unavailable is an
            // answer, RFC 6120 §8.4, not its end); to the room, the room's own ping. As Prosody's
            // handle_iq_to_occupant, which routes results and errors back and removes nobody.
            if (target != null) {
                room.iqProxy().answer(room, iq, session);
            } else {
                room.presence().pingAnswered(iq, session);
            }
            return;
        }
        Element query = iq.getChildElement();
        if (query == null) {
            room.output().error(iq, Condition.BAD_REQUEST, "An IQ of type " + iq.getType() + " needs exactly one child element");
            return;
        }
        if (target != null) {
            toOccupant(room, iq, sender, target, query);
            return;
        }
        String ns = query.getNamespaceURI();
        boolean get = iq.getType() == IQ.Type.get;
        if (Namespaces.DISCO_INFO.equals(ns) && get
                && RoomRegistration.ROOMUSER_NODE.equals(query.attributeValue("node"))) {
            room.registration().reservedNickInfo(room, iq);
        } else if (Namespaces.DISCO_INFO.equals(ns) && get) {
            RoomDisco.info(room, iq, sender);
        } else if (RoomRegistration.NAMESPACE.equals(ns)) {
            room.registration().handle(room, iq, session);
        } else if (Namespaces.DISCO_ITEMS.equals(ns) && get) {
            RoomDisco.items(room, iq, sender);
        } else if (Namespaces.MUC_ADMIN.equals(ns)) {
            RoomAdmin.handle(room, iq, session, sender);
        } else if (Namespaces.MUC_OWNER.equals(ns)) {
            RoomOwner.handle(room, iq, session, sender);
        } else if (Namespaces.PING.equals(ns) && get) {
            room.output().send(IQ.createResultIQ(iq));
        } else if (RoomArchive.NAMESPACE.equals(ns) && "query".equals(query.getName())) {
            RoomArchive.handle(room, iq, session, sender);
        } else if (XmlNamespaces.isRequirementsNamespace(ns)
                && RequirementsRequest.ELEMENT.equals(query.getName())) {
            room.requirements().handle(iq, sender);
        } else if (!room.fire(RoomEvent.IQ_REQUEST, new RoomEvent.Request(room, iq, session, sender)).taken()) {
            room.output().error(iq, Condition.SERVICE_UNAVAILABLE, "The room does not support <" + query.getName()
                    + " xmlns='" + ns + "'/> in an IQ of type " + iq.getType());
        }
    }

    private static void toOccupant(Room room, IQ iq, Occupant sender, OccupantJid target, Element query) {
        if (sender == null) {
            if (Namespaces.PING.equals(query.getNamespaceURI())) {
                // XEP-0410: a self-ping from a client that is not joined.
                room.output().error(iq, Condition.NOT_ACCEPTABLE, "You are not an occupant of this room");
            } else {
                // XEP-0045 §6.6 (disco) and §7.7 (other IQs to an occupant): only occupants may ask.
                room.output().error(iq, Condition.BAD_REQUEST, "Only occupants of this room may send requests to its occupants");
            }
            return;
        }
        // XEP-0410 MUC self-ping: the room answers for a joined client itself.
        if (Namespaces.PING.equals(query.getNamespaceURI()) && sender.nick().equals(target.nick())) {
            room.output().send(IQ.createResultIQ(iq));
            return;
        }
        Occupant recipient = room.occupantByNick(target.nick());
        if (recipient == null) {
            room.output().error(iq, Condition.ITEM_NOT_FOUND, "There is no occupant with the nickname '" + target.nick() + "'");
            return;
        }
        room.iqProxy().forward(room, iq, sender, recipient);
    }
}
