package org.reconmuc.component.muc;

import java.util.HashMap;
import java.util.Map;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.forms.DataForm;
import org.xmpp.forms.FormField;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;

/**
 * Registering with a room (XEP-0045 §7.10): {@code jabber:iq:register} with the
 * {@code muc#register} form reserves a nickname and makes the user a member; nobody else may
 * enter or change to a reserved nickname (409); §7.12 tells a user its reserved nickname
 * (disco#info node {@code x-roomuser-item}); {@code <remove/>} cancels the registration.
 *
 * <p>As in Prosody's {@code register.lib.lua}, only affiliated users may register unless the
 * owner opened registration ({@link AllowRegisterOption}), and the membership a registration
 * gives changes no occupant's role: a visitor stays a visitor, whoever took its voice. A
 * reservation lasts as long as the affiliation: it goes when the user's affiliation becomes
 * {@code none} or {@code outcast} (§17.4), which is how an owner or admin clears one they see
 * in the member list ({@link RoomAdmin}).
 */
final class RoomRegistration {
    public static final String NAMESPACE = "jabber:iq:register";
    static final String FORM_TYPE = "http://jabber.org/protocol/muc#register";
    static final String ROOMNICK = "muc#register_roomnick";
    public static final String ROOMUSER_NODE = "x-roomuser-item";

    /** Reserved nickname by real bare JID. */
    private final Map<RealJid, String> nickByUser = new HashMap<>();

    /** Reserved nickname by real bare JID (what a persistent room keeps). */
    public Map<RealJid, String> reservations() {
        return nickByUser;
    }

    /** Takes back a reservation of a restored room. */
    public void reserve(RealJid user, String nick) {
        nickByUser.put(user.bare(), nick);
    }

    /** The bare JID that reserved {@code nick}, or null. */
    RealJid holderOf(String nick) {
        for (Map.Entry<RealJid, String> e : nickByUser.entrySet()) {
            if (e.getValue().equals(nick)) {
                return e.getKey();
            }
        }
        return null;
    }

    /** True if {@code nick} is reserved by someone other than {@code user}. */
    boolean reservedForOther(String nick, RealJid user) {
        RealJid holder = holderOf(nick);
        return holder != null && !holder.equals(user.bare());
    }

    public String nickOf(RealJid user) {
        return nickByUser.get(user.bare());
    }

    /** The user's reservation ends with its affiliation (none or outcast); true if it had one. */
    public boolean release(RealJid user) {
        return nickByUser.remove(user.bare()) != null;
    }

    public void handle(Room room, IQ iq, RealJid session) {
        RealJid user = session.bare();
        Element query = iq.getChildElement();
        if (RoomAccess.refuses(room, iq, RoomAccess.Act.REGISTER, user, room.occupantBySession(session), null)) {
            return;
        }
        if (iq.getType() == IQ.Type.get) {
            IQ result = IQ.createResultIQ(iq);
            Element q = result.setChildElement("query", NAMESPACE);
            String nick = nickOf(user);
            if (nick != null) {
                q.addElement("registered");
                q.addElement("username").setText(nick);
            }
            q.addElement("instructions").setText("Reserve a nickname in this room: it becomes yours, and you a member.");
            DataForm form = new DataForm(DataForm.Type.form);
            form.addField("FORM_TYPE", null, FormField.Type.hidden).addValue(FORM_TYPE);
            FormField f = form.addField(ROOMNICK, "Desired nickname", FormField.Type.text_single);
            f.setRequired(true);
            f.addValue(nick);   // none if null
            q.add(form.getElement());
            room.output().send(result);
            return;
        }
        if (query.element("remove") != null) {
            // As Prosody: a member is a member no more (and so loses the nick); an admin or owner keeps the affiliation.
            if (room.affiliationOf(user) == Affiliation.MEMBER) {
                RoomAdmin.applyAffiliations(room, null, Map.of(user, Affiliation.NONE));
            } else if (release(user)) {
                room.persistence().affiliationChanged(user);
            }
            room.output().send(IQ.createResultIQ(iq));
            return;
        }
        Element form = query.element(QName.get(DataForm.ELEMENT_NAME, DataForm.NAMESPACE));
        FormField nickField = form == null ? null : new DataForm(form).getField(ROOMNICK);
        String nick = nickField == null ? null : nickField.getFirstValue();
        if (nick == null || nick.isBlank()) {
            room.output().error(iq, Condition.BAD_REQUEST, "Registering needs the form with " + ROOMNICK);
            return;
        }
        nick = asOccupantNick(room, nick.trim());
        if (nick == null) {
            // As Prosody (resourceprep); a nick no occupant JID could carry, the store could not keep either.
            room.output().error(iq, Condition.BAD_REQUEST,
                    "Invalid nickname: it must be a valid resource of a JID (at most 1023 bytes)");
            return;
        }
        Occupant inRoom = room.occupantByNick(nick);
        if (reservedForOther(nick, user) || (inRoom != null && !inRoom.bareJid().equals(user))) {
            room.output().error(iq, Condition.CONFLICT, "The nickname '" + nick + "' is taken in this room");
            return;
        }
        nickByUser.put(user, nick);
        if (room.affiliationOf(user) == Affiliation.NONE) {
            RoomAdmin.registered(room, user);   // writes the user's rows, the nick with them
        } else {
            room.persistence().affiliationChanged(user);
        }
        room.output().send(IQ.createResultIQ(iq));
    }

    /** {@code nick} as it is in an occupant JID (resourceprep), or null if it cannot be one. */
    private static String asOccupantNick(Room room, String nick) {
        try {
            return new JID(room.jid().node(), room.jid().jid().getDomain(), nick).getResource();
        } catch (IllegalArgumentException invalid) {
            return null;
        }
    }

    /** §7.12: the identity of the asker's reserved nickname (none if it has none). */
    public void reservedNickInfo(Room room, IQ iq) {
        IQ result = IQ.createResultIQ(iq);
        Element q = result.setChildElement("query", Namespaces.DISCO_INFO);
        q.addAttribute("node", ROOMUSER_NODE);
        String nick = nickOf(new RealJid(iq.getFrom()));
        if (nick != null) {
            Element identity = q.addElement("identity");
            identity.addAttribute("category", "conference");
            identity.addAttribute("name", nick);
            identity.addAttribute("type", "text");
        }
        room.output().send(result);
    }
}
