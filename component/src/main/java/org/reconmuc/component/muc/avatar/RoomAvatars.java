package org.reconmuc.component.muc.avatar;

import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.Affiliation;
import org.reconmuc.component.muc.Namespaces;
import org.reconmuc.component.muc.Room;
import org.reconmuc.component.muc.RoomEvent;
import org.reconmuc.component.muc.RoomFeature;
import org.reconmuc.component.muc.RoomOption;
import org.reconmuc.component.muc.RoomOwner;
import org.reconmuc.component.muc.RoomState;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Presence;

/**
 * A room's avatar (XEP-0486) as a feature of the room: vCard requests to its bare JID, who may set
 * it (owners, as Prosody's MUC allows), what occupants are sent (Prosody 13's
 * {@code muc/vcard.lib.lua}: a presence from the room with the hash to each newcomer when there is
 * an avatar, and on a change that presence to everyone with a status 104 message) and its
 * disco#info feature and field. A persistent room keeps its vCard in its stored configuration form.
 */
public final class RoomAvatars {
    /** The room's vCard as an owner set it: {@link #avatar} is null for none. */
    private static final class Current {
        RoomAvatar avatar;
    }

    private static final RoomState<Current> AVATARS = new RoomState<>(room -> new Current());

    public static final RoomFeature FEATURE = events -> {
        int maxBytes = events.config().maxAvatarBytes();
        events.on(RoomEvent.IQ_REQUEST, request -> {
            Element query = request.query();
            if (RoomAvatar.NAMESPACE.equals(query.getNamespaceURI()) && RoomAvatar.ELEMENT.equals(query.getName())) {
                request.take();
                handle(request.room(), request.iq(), request.session(), maxBytes);
            }
        });
        events.on(RoomEvent.ENTERED, s -> entered(s.room(), s.session()));
        events.on(RoomEvent.DISCO_INFO, d -> describe(d.room(), d.query(), d.roomInfo(), maxBytes));
        // XEP-0486: the room's vCard rides in its stored configuration form (whose reader reads only fields).
        events.on(RoomEvent.STORING, s -> {
            RoomAvatar avatar = avatarOf(s.room());
            if (avatar != null) {
                s.form().add(avatar.vcard());
            }
        });
        events.on(RoomEvent.RESTORING, r -> {
            Element vcard = r.stored() == null ? null : r.stored().element(QName.get(RoomAvatar.ELEMENT, RoomAvatar.NAMESPACE));
            if (vcard != null) {
                r.room().state(AVATARS).avatar = RoomAvatar.restored(vcard);
            }
        });
    };

    private RoomAvatars() {
    }

    private static RoomAvatar avatarOf(Room room) {
        Current current = room.kept(AVATARS);
        return current == null ? null : current.avatar;
    }

    /** A {@code <vCard xmlns='vcard-temp'/>} IQ to the room's bare JID. */
    private static void handle(Room room, IQ iq, RealJid session, int max) {
        if (max == 0) {
            room.output().error(iq, Condition.SERVICE_UNAVAILABLE, "Rooms of this service have no vCard (max-avatar-bytes is 0)");
            return;
        }
        if (iq.getType() == IQ.Type.get) {
            RoomAvatar avatar = avatarOf(room);
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
        // An empty vCard takes the avatar away (XEP-0054 has no delete); a persistent room writes it before anyone is told.
        room.state(AVATARS).avatar = iq.getChildElement().elements().isEmpty() ? null : avatar;
        room.persistence().recordChanged();
        room.output().send(IQ.createResultIQ(iq));
        room.output().toOccupants(room.occupants(), presence(room));
        Message notice = new Message();
        notice.setType(Message.Type.groupchat);
        notice.setFrom(room.jid().jid());
        notice.getElement().addElement("x", Namespaces.MUC_USER).addElement("status")
                .addAttribute("code", Integer.toString(RoomOwner.CONFIG_CHANGED));
        room.output().toOccupants(room.occupants(), notice);
    }

    /** {@code session} has just entered: it is told the avatar's hash, if the room has one. */
    private static void entered(Room room, RealJid session) {
        RoomAvatar avatar = avatarOf(room);
        if (avatar != null && avatar.hash() != null) {
            room.output().toSession(session, presence(room));
        }
    }

    /**
     * The room's avatar in its disco#info: the vcard-temp feature, and the hash in XEP-0486's field and
     * in mod_vcard_muc's (empty without one), as Prosody 13's MUC and slidge give both.
     */
    private static void describe(Room room, Element query, Element roomInfo, int max) {
        if (max == 0) {
            return;
        }
        RoomOption.feature(query, RoomAvatar.NAMESPACE);
        RoomAvatar avatar = avatarOf(room);
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
        RoomAvatar avatar = avatarOf(room);
        p.getElement().add(new AvatarUpdate(avatar == null ? null : avatar.hash()).toElement());
        return p;
    }
}
