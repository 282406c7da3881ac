package org.reconmuc.component.muc;

import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.muc.avatar.AvatarUpdate;
import org.reconmuc.component.muc.avatar.RoomAvatar;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Presence;

/**
 * A room's avatar (XEP-0486, package {@code avatar}) in the room: vCard requests to its bare JID,
 * who may set it (owners, as Prosody's MUC allows), what occupants are sent (Prosody 13's
 * {@code muc/vcard.lib.lua}: a presence from the room with the hash to each newcomer when there is
 * an avatar, and on a change that presence to everyone with a status 104 message) and its
 * disco#info feature and field. A persistent room keeps its vCard in its stored record.
 */
public final class RoomAvatars {
    private RoomAvatars() {
    }

    /** A {@code <vCard xmlns='vcard-temp'/>} IQ to the room's bare JID. */
    public static void handle(Room room, IQ iq, RealJid session) {
        int max = room.context().config().maxAvatarBytes();
        if (max == 0) {
            room.output().error(iq, Condition.SERVICE_UNAVAILABLE, "Rooms of this service have no vCard (max-avatar-bytes is 0)");
            return;
        }
        if (iq.getType() == IQ.Type.get) {
            RoomAvatar avatar = room.avatar();
            if (avatar == null) {
                room.output().error(iq, Condition.ITEM_NOT_FOUND, "This room has no vCard");
                return;
            }
            IQ result = IQ.createResultIQ(iq);
            result.setChildElement(avatar.vcard());
            room.output().send(result);
            return;
        }
        if (room.affiliationOf(session) != Affiliation.OWNER) {
            room.output().error(iq, Condition.FORBIDDEN, "Only the room's owners may set its vCard");
            return;
        }
        RoomAvatar avatar;
        try {
            avatar = RoomAvatar.of(iq.getChildElement(), max);
        } catch (RoomAvatar.Refusal r) {
            room.output().error(iq, "not-acceptable".equals(r.condition()) ? Condition.NOT_ACCEPTABLE : Condition.BAD_REQUEST,
                    r.getMessage());
            return;
        }
        // An empty vCard takes the avatar away (XEP-0054 has no delete).
        room.setAvatar(iq.getChildElement().elements().isEmpty() ? null : avatar);
        room.output().send(IQ.createResultIQ(iq));
        room.output().toOccupants(room.occupants(), presence(room));
        Message notice = new Message();
        notice.setType(Message.Type.groupchat);
        notice.setFrom(room.jid().jid());
        notice.getElement().addElement("x", Namespaces.MUC_USER).addElement("status")
                .addAttribute("code", Integer.toString(RoomOwner.CONFIG_CHANGED));
        room.output().toOccupants(room.occupants(), notice);
    }

    /** The avatar on the room's events: told to whoever enters, and in disco#info. */
    public static final RoomFeature FEATURE = events -> {
        events.on(RoomEvent.ENTERED, s -> entered(s.room(), s.session()));
        events.on(RoomEvent.DISCO_INFO, d -> describe(d.room(), d.query(), d.roomInfo()));
    };

    /** {@code session} has just entered: it is told the avatar's hash, if the room has one. */
    private static void entered(Room room, RealJid session) {
        RoomAvatar avatar = room.avatar();
        if (avatar != null && avatar.hash() != null) {
            room.output().toSession(session, presence(room));
        }
    }

    /**
     * The room's avatar in its disco#info: the vcard-temp feature, and the hash in XEP-0486's field and
     * in mod_vcard_muc's (empty without one), as Prosody 13's MUC and slidge give both.
     */
    private static void describe(Room room, Element query, Element roomInfo) {
        if (room.context().config().maxAvatarBytes() == 0) {
            return;
        }
        RoomOption.feature(query, RoomAvatar.NAMESPACE);
        RoomAvatar avatar = room.avatar();
        String hash = avatar == null ? null : avatar.hash();
        hashField(roomInfo, RoomAvatar.DISCO_FIELD, "text-multi", hash);
        hashField(roomInfo, RoomAvatar.LEGACY_DISCO_FIELD, "text-single", hash);
    }

    private static void hashField(Element form, String var, String type, String hash) {
        Element field = form.addElement("field");
        field.addAttribute("var", var);
        field.addAttribute("type", type);
        if (hash != null) {
            field.addElement("value").setText(hash);
        }
    }

    private static Presence presence(Room room) {
        Presence p = new Presence();
        p.setFrom(room.jid().jid());
        RoomAvatar avatar = room.avatar();
        p.getElement().add(new AvatarUpdate(avatar == null ? null : avatar.hash()).toElement());
        return p;
    }
}
