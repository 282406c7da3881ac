package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Presence;

/**
 * The {@code muc#admin} namespace: roles (kick, voice, moderator; XEP-0045 §8 and §9.6–9.7)
 * and affiliations (ban, member, admin, owner; §9.1–9.5, §10.3–10.7), and their lists.
 * A request naming several items is checked whole before anything changes.
 */
final class RoomAdmin {

    /** Thrown while checking a request; becomes the error reply. */
    private static final class Refused extends Exception {
        final Condition condition;

        Refused(Condition condition, String text) {
            super(text, null, false, false);
            this.condition = condition;
        }
    }

    private sealed interface Change permits RoleChange, AffiliationChange {
    }

    private record RoleChange(Occupant target, Role role, String reason) implements Change {
    }

    private record AffiliationChange(RealJid user, Affiliation affiliation, String reason) implements Change {
    }

    private RoomAdmin() {
    }

    static void handle(Room room, IQ iq, RealJid session, Occupant actor) {
        Element query = iq.getChildElement();
        List<Element> items = query.elements("item");
        if (items.isEmpty()) {
            room.output().error(iq, Condition.BAD_REQUEST, "A muc#admin query needs at least one <item/>");
            return;
        }
        try {
            if (iq.getType() == IQ.Type.get) {
                list(room, iq, session, actor, items.get(0));
            } else {
                List<Change> changes = new ArrayList<>();
                for (Element item : items) {
                    changes.add(check(room, session, actor, item, changes));
                }
                for (Change change : changes) {
                    apply(room, actor, change);
                }
                room.output().send(IQ.createResultIQ(iq));
            }
        } catch (Refused r) {
            room.output().error(iq, r.condition, r.getMessage());
        }
    }

    private static Change check(Room room, RealJid session, Occupant actor, Element item, List<Change> earlier)
            throws Refused {
        String reason = item.elementText("reason");
        String roleValue = item.attributeValue("role");
        String affiliationValue = item.attributeValue("affiliation");
        if (roleValue != null && affiliationValue == null) {
            Role role = Role.parse(roleValue).orElseThrow(() -> new Refused(Condition.BAD_REQUEST,
                    "Unknown role '" + roleValue + "'"));
            String nick = item.attributeValue("nick");
            if (nick == null) {
                throw new Refused(Condition.BAD_REQUEST, "A role change needs the occupant's 'nick'");
            }
            Occupant target = room.occupantByNick(nick);
            if (target == null) {
                throw new Refused(Condition.ITEM_NOT_FOUND, "There is no occupant with the nickname '" + nick + "'");
            }
            checkRole(room, actor, target, role);
            return new RoleChange(target, role, reason);
        }
        if (affiliationValue != null) {
            Affiliation affiliation = Affiliation.parse(affiliationValue).orElseThrow(() -> new Refused(
                    Condition.BAD_REQUEST, "Unknown affiliation '" + affiliationValue + "'"));
            RealJid user = userOf(room, item);
            checkAffiliation(room, session, user, affiliation, earlier);
            return new AffiliationChange(user, affiliation, reason);
        }
        throw new Refused(Condition.BAD_REQUEST, "An <item/> must set a 'role' (with 'nick') or an 'affiliation' (with 'jid')");
    }

    private static RealJid userOf(Room room, Element item) throws Refused {
        String jid = item.attributeValue("jid");
        if (jid != null) {
            try {
                return new RealJid(new JID(jid)).bare();
            } catch (RuntimeException e) {
                throw new Refused(Condition.JID_MALFORMED, "'" + jid + "' is not a valid JID");
            }
        }
        String nick = item.attributeValue("nick");
        if (nick != null) {
            Occupant o = room.occupantByNick(nick);
            if (o == null) {
                throw new Refused(Condition.ITEM_NOT_FOUND, "There is no occupant with the nickname '" + nick + "'");
            }
            return o.bareJid();
        }
        throw new Refused(Condition.BAD_REQUEST, "An affiliation change needs a 'jid' (or the 'nick' of an occupant)");
    }

    private static void checkRole(Room room, Occupant actor, Occupant target, Role role) throws Refused {
        if (actor == null || actor.role() != Role.MODERATOR) {
            throw new Refused(Condition.FORBIDDEN, "Only moderators may change roles");
        }
        Affiliation actorAffiliation = room.affiliationOf(actor.bareJid());
        Affiliation targetAffiliation = room.affiliationOf(target.bareJid());
        if (targetAffiliation.atLeast(Affiliation.ADMIN) && role != Role.MODERATOR) {
            throw new Refused(Condition.NOT_ALLOWED, "The role of an admin or owner cannot be lowered");
        }
        if (targetAffiliation.compareTo(actorAffiliation) > 0) {
            throw new Refused(Condition.NOT_ALLOWED, "You cannot change the role of someone with a higher affiliation");
        }
        boolean touchesModerator = role == Role.MODERATOR || target.role() == Role.MODERATOR;
        if (touchesModerator && !actorAffiliation.atLeast(Affiliation.ADMIN)) {
            throw new Refused(Condition.FORBIDDEN, "Only admins and owners may grant or revoke moderator status");
        }
    }

    private static void checkAffiliation(Room room, RealJid session, RealJid user, Affiliation affiliation,
            List<Change> earlier) throws Refused {
        Affiliation actor = room.affiliationOf(session);
        Affiliation current = room.affiliationOf(user);
        if (!actor.atLeast(Affiliation.ADMIN)) {
            throw new Refused(Condition.FORBIDDEN, "Only admins and owners may change affiliations");
        }
        if (actor == Affiliation.ADMIN) {
            if (affiliation.atLeast(Affiliation.ADMIN)) {
                throw new Refused(Condition.FORBIDDEN, "Only owners may grant admin or owner status");
            }
            if (current.atLeast(Affiliation.ADMIN)) {
                throw new Refused(Condition.NOT_ALLOWED, "Only owners may change the affiliation of an admin or owner");
            }
        }
        if (current == Affiliation.OWNER && affiliation != Affiliation.OWNER) {
            long owners = room.affiliations().values().stream().filter(a -> a == Affiliation.OWNER).count();
            long demotedBefore = earlier.stream().filter(c -> c instanceof AffiliationChange a
                    && room.affiliationOf(a.user()) == Affiliation.OWNER && a.affiliation() != Affiliation.OWNER).count();
            if (owners - demotedBefore <= 1) {
                throw new Refused(Condition.CONFLICT, "The room must keep at least one owner");
            }
        }
    }

    /** Affiliation changes already checked by their caller (the owner form's lists), applied in order. */
    public static void applyAffiliations(Room room, Occupant actor, java.util.Map<RealJid, Affiliation> changes) {
        changes.forEach((user, affiliation) -> apply(room, actor, new AffiliationChange(user, affiliation, null)));
    }

    /**
     * An unaffiliated user registered (XEP-0045 §7.10) and is a member now: everyone sees the new
     * affiliation, and its occupants keep their roles — registering is not a way round a
     * moderator, so a visitor stays a visitor.
     */
    public static void registered(Room room, RealJid user) {
        room.setAffiliation(user, Affiliation.MEMBER);
        for (Occupant o : new ArrayList<>(room.occupants())) {
            if (o.bareJid().equals(user)) {
                broadcastChange(room, o, null, null);
            }
        }
    }

    /**
     * The role an occupant takes with its new affiliation: as in Prosody's {@code set_affiliation},
     * the room's default role for it when the affiliation goes down, or when that role is higher
     * than the occupant's; else the occupant keeps the role it has (a moderator an admin made keeps
     * it on becoming a member).
     */
    private static Role roleWith(Room room, Occupant o, Affiliation before, Affiliation after) {
        Role byDefault = room.defaultRole(after);
        return before.compareTo(after) > 0 || byDefault.compareTo(o.role()) > 0 ? byDefault : o.role();
    }

    private static void apply(Room room, Occupant actor, Change change) {
        String actorNick = actor == null ? null : actor.nick();
        if (change instanceof RoleChange rc) {
            if (room.occupantByNick(rc.target().nick()) != rc.target()) {
                return; // already removed by an earlier item of the same request
            }
            if (rc.role() == Role.NONE) {
                room.presence().removeOccupant(rc.target(), MucPresences.KICKED, actorNick, rc.reason());
            } else {
                rc.target().setRole(rc.role());
                broadcastChange(room, rc.target(), actor, rc.reason());
            }
            return;
        }
        AffiliationChange ac = (AffiliationChange) change;
        Affiliation before = room.affiliationOf(ac.user());
        room.setAffiliation(ac.user(), ac.affiliation());
        for (Occupant o : new ArrayList<>(room.occupants())) {
            if (!o.bareJid().equals(ac.user())) {
                continue;
            }
            if (ac.affiliation() == Affiliation.OUTCAST) {
                room.presence().removeOccupant(o, MucPresences.BANNED, actorNick, ac.reason());
            } else if (!RoomAccess.mayRemain(room, o)) {
                room.presence().removeOccupant(o, MucPresences.AFFILIATION_REMOVED, actorNick, ac.reason());
            } else {
                o.setRole(roleWith(room, o, before, ac.affiliation()));
                broadcastChange(room, o, actor, ac.reason());
            }
        }
    }

    /**
     * Everyone learns {@code target}'s new role or affiliation (XEP-0045 §8.4, §9.3 examples), with
     * who changed it ({@code <actor/>}: the nick, and the real JID to those who may see real JIDs,
     * as Prosody sends it) and why.
     */
    private static void broadcastChange(Room room, Occupant target, Occupant actor, String reason) {
        for (RealJid session : target.sessions()) {
            room.output().toSession(session, changeAsSeenBy(room, target, target, actor, reason));
        }
        List<Occupant> receiving = room.presence().changeViewers(target,
                room.occupants().stream().filter(o -> o != target).toList());
        List<Occupant> others = receiving.stream().filter(o -> o != actor).toList();
        List<List<Occupant>> views = new ArrayList<>(room.presence().viewsOf(target, others));
        if (actor != null && actor != target && receiving.contains(actor)) {
            views.add(List.of(actor));   // the actor sees its own real JID in <actor/>
        }
        for (List<Occupant> view : views) {
            Presence p = changeAsSeenBy(room, target, view.get(0), actor, reason);
            if (p != null) {
                room.output().toOccupants(view, p);
            }
        }
        room.presence().presenceShown(target);
    }

    /** The change as {@code viewer} sees it, or null if the room does not broadcast the target's role to it. */
    private static Presence changeAsSeenBy(Room room, Occupant target, Occupant viewer, Occupant actor, String reason) {
        Set<Integer> codes = viewer == target ? Set.of(MucPresences.SELF) : Set.of();
        Presence p = room.presence().currentPresenceOf(target, viewer, codes);
        if (p == null) {
            return null;
        }
        Element item = p.getChildElement("x", Namespaces.MUC_USER).element("item");
        if (actor != null) {
            Element actorElement = item.addElement("actor").addAttribute("nick", actor.nick());
            String actorJid = room.presence().realJidVisibleTo(actor, viewer);
            if (actorJid != null) {
                actorElement.addAttribute("jid", actorJid);
            }
        }
        if (reason != null && !reason.isEmpty()) {
            item.addElement("reason").setText(reason);
        }
        return p;
    }

    private static void list(Room room, IQ iq, RealJid session, Occupant actor, Element item) throws Refused {
        IQ result = IQ.createResultIQ(iq);
        Element query = result.setChildElement("query", Namespaces.MUC_ADMIN);
        String affiliationValue = item.attributeValue("affiliation");
        String roleValue = item.attributeValue("role");
        if (affiliationValue != null) {
            Affiliation wanted = Affiliation.parse(affiliationValue).filter(a -> a != Affiliation.NONE).orElseThrow(
                    () -> new Refused(Condition.BAD_REQUEST, "Cannot list affiliation '" + affiliationValue + "'"));
            if (!room.affiliationOf(session).atLeast(Affiliation.ADMIN)) {
                throw new Refused(Condition.FORBIDDEN, "Only admins and owners may see affiliation lists");
            }
            for (Map.Entry<RealJid, Affiliation> e : room.affiliations().entrySet()) {
                if (e.getValue() == wanted) {
                    Element i = query.addElement("item");
                    i.addAttribute("affiliation", wanted.xmlValue());
                    i.addAttribute("jid", e.getKey().toString());
                    // §9.5: the nickname the user reserved, so that admins see it (and can clear it with 'none').
                    String nick = room.registration().nickOf(e.getKey());
                    if (nick != null) {
                        i.addAttribute("nick", nick);
                    }
                }
            }
        } else if (roleValue != null) {
            Role wanted = Role.parse(roleValue).filter(r -> r != Role.NONE).orElseThrow(
                    () -> new Refused(Condition.BAD_REQUEST, "Cannot list role '" + roleValue + "'"));
            if (actor == null || actor.role() != Role.MODERATOR) {
                throw new Refused(Condition.FORBIDDEN, "Only moderators may see role lists");
            }
            for (Occupant o : room.occupants()) {
                if (o.role() == wanted) {
                    Element i = query.addElement("item");
                    i.addAttribute("role", wanted.xmlValue());
                    i.addAttribute("nick", o.nick());
                    i.addAttribute("affiliation", room.affiliationOf(o.bareJid()).xmlValue());
                    i.addAttribute("jid", o.shownRealJid().toString());
                }
            }
        } else {
            throw new Refused(Condition.BAD_REQUEST, "A list request needs an 'affiliation' or a 'role'");
        }
        room.output().send(result);
    }
}
