package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;
import org.xmpp.packet.JID;

/**
 * The owner and admin lists in the configuration form ({@code muc#roomconfig_roomowners},
 * {@code muc#roomconfig_roomadmins}, XEP-0045 §10.2): shown with the current members of each
 * list; a submitted list replaces the old one (those left out lose the affiliation, as when an
 * owner edits the list with muc#admin), and the room always keeps an owner.
 */
public final class RoomOwnerLists {
    public static final String ROOMOWNERS = "muc#roomconfig_roomowners";
    public static final String ROOMADMINS = "muc#roomconfig_roomadmins";

    private RoomOwnerLists() {
    }

    /** Adds both lists to a rendered configuration form. */
    public static void render(Element form, Room room) {
        field(form, ROOMOWNERS, "Room owners", holders(room, Affiliation.OWNER));
        field(form, ROOMADMINS, "Room admins", holders(room, Affiliation.ADMIN));
    }

    /**
     * The affiliation changes a submitted form asks for (in order: owners, then admins), or an
     * empty map if it has neither field.
     *
     * @throws IllegalArgumentException for a malformed JID, a JID in both lists, or no owner left
     */
    public static Map<RealJid, Affiliation> changes(Room room, Element submitted) {
        List<RealJid> owners = list(submitted, ROOMOWNERS);
        List<RealJid> admins = list(submitted, ROOMADMINS);
        Map<RealJid, Affiliation> changes = new LinkedHashMap<>();
        if (owners != null) {
            if (owners.isEmpty()) {
                throw new IllegalArgumentException("The room must keep at least one owner: " + ROOMOWNERS + " is empty");
            }
            replace(room, Affiliation.OWNER, owners, changes);
        }
        if (admins != null) {
            for (RealJid a : admins) {
                if (owners != null ? owners.contains(a) : room.affiliationOf(a) == Affiliation.OWNER) {
                    throw new IllegalArgumentException(a + " cannot be both an owner and an admin");
                }
            }
            replace(room, Affiliation.ADMIN, admins, changes);
        }
        return changes;
    }

    private static void replace(Room room, Affiliation affiliation, List<RealJid> wanted, Map<RealJid, Affiliation> changes) {
        for (RealJid holder : holders(room, affiliation)) {
            if (!wanted.contains(holder) && !changes.containsKey(holder)) {
                changes.put(holder, Affiliation.NONE);
            }
        }
        for (RealJid w : wanted) {
            if (room.affiliationOf(w) != affiliation) {
                changes.put(w, affiliation);
            } else {
                changes.remove(w);
            }
        }
    }

    private static List<RealJid> holders(Room room, Affiliation affiliation) {
        List<RealJid> holders = new ArrayList<>();
        room.affiliations().forEach((jid, a) -> {
            if (a == affiliation) {
                holders.add(jid);
            }
        });
        return holders;
    }

    /** The bare JIDs of a jid-multi field, or null if the form does not have it. */
    private static List<RealJid> list(Element submitted, String var) {
        for (Element field : submitted.elements("field")) {
            if (var.equals(field.attributeValue("var"))) {
                Set<RealJid> jids = new LinkedHashSet<>();
                for (Element v : field.elements("value")) {
                    String text = v.getTextTrim();
                    if (text.isEmpty()) {
                        continue;
                    }
                    try {
                        jids.add(new RealJid(new JID(text)).bare());
                    } catch (RuntimeException e) {
                        throw new IllegalArgumentException(var + ": '" + text + "' is not a valid JID");
                    }
                }
                return new ArrayList<>(jids);
            }
        }
        return null;
    }

    private static void field(Element form, String var, String label, List<RealJid> values) {
        Element f = form.addElement("field");
        f.addAttribute("var", var);
        f.addAttribute("type", "jid-multi");
        f.addAttribute("label", label);
        for (RealJid j : values) {
            f.addElement("value").setText(j.toString());
        }
    }
}
