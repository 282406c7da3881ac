package org.reconmuc.component.muc;

import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.protocol.PresencesElement;
import org.xmpp.packet.Presence;

/** Building the muc#user payload of occupant presences (XEP-0045 §7.2, status codes §15.6). */
public final class MucPresences {
    public static final int SELF = 110;
    public static final int NON_ANONYMOUS = 100;
    /** §7.2.12: the discussion is logged (on entry; and, in a configuration change, logging was turned on). */
    public static final int LOGGED = 170;
    /** §10.2.1: logging was turned off. */
    public static final int NOT_LOGGED = 171;
    static final int ROOM_CREATED = 201;
    public static final int BANNED = 301;
    static final int NICK_CHANGED = 303;
    public static final int KICKED = 307;
    public static final int AFFILIATION_REMOVED = 321;
    public static final int MEMBERS_ONLY_REMOVED = 322;
    static final int REMOVED_BY_ERROR = 333;

    private MucPresences() {
    }

    /**
     * To a session that was in the room under its previous owner (another instance that died):
     * it is no longer in the room (110 + 333, "removed because of a technical problem"), so its
     * client rejoins — as XEP-0410 clients do — and catches up from the archive.
     */
    public static Presence movedAway(org.reconmuc.component.jid.RoomJid room, String nick, org.xmpp.packet.JID session) {
        Presence p = new Presence(Presence.Type.unavailable);
        p.setFrom(new org.xmpp.packet.JID(room.toString() + "/" + nick));
        p.setTo(session);
        p.setStatus("The service moved this room to another of its instances; please join again");
        addUserItem(p, Affiliation.NONE, Role.NONE, null, new java.util.LinkedHashSet<>(java.util.List.of(SELF, REMOVED_BY_ERROR)));
        return p;
    }

    /** A payload-only copy of a client's presence: no addresses, no MUC elements and nothing else only the room may say. */
    static Presence sanitize(Presence from) {
        Presence p = from.createCopy();
        p.setFrom((String) null);
        p.setTo((String) null);
        p.getElement().addAttribute("type", null);
        for (Element child : p.getElement().elements()) {
            String ns = child.getNamespaceURI();
            // An occupant's presence level is its own business, not the others'.
            if (Namespaces.MUC.equals(ns) || RoomClaims.onlyTheRoomSays(ns) || isPresencesElement(child)) {
                p.getElement().remove(child);
            }
        }
        return p;
    }

    private static boolean isPresencesElement(Element e) {
        return PresencesElement.ELEMENT.equals(e.getName()) && PresencesElement.NAMESPACE.equals(e.getNamespaceURI());
    }

    /** Adds {@code <x xmlns=muc#user><item …/>…</x>} and returns the item element. */
    static Element addUserItem(Presence p, Affiliation affiliation, Role role, String realJid, Set<Integer> codes) {
        Element x = p.getElement().addElement("x", Namespaces.MUC_USER);
        Element item = x.addElement("item");
        item.addAttribute("affiliation", affiliation.xmlValue());
        item.addAttribute("role", role.xmlValue());
        if (realJid != null) {
            item.addAttribute("jid", realJid);
        }
        for (int code : codes) {
            x.addElement("status").addAttribute("code", Integer.toString(code));
        }
        return item;
    }
}
