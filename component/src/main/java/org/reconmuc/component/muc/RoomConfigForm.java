package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;

/** The owner's configuration form (XEP-0004 data form, FORM_TYPE {@code muc#roomconfig}). */
final class RoomConfigForm {
    static final String ROOMNAME = "muc#roomconfig_roomname";
    static final String ROOMDESC = "muc#roomconfig_roomdesc";
    static final String PERSISTENT = "muc#roomconfig_persistentroom";
    static final String PUBLIC = "muc#roomconfig_publicroom";
    static final String MEMBERSONLY = "muc#roomconfig_membersonly";
    static final String MODERATED = "muc#roomconfig_moderatedroom";
    static final String PASSWORDPROTECTED = "muc#roomconfig_passwordprotectedroom";
    static final String ROOMSECRET = "muc#roomconfig_roomsecret";
    static final String WHOIS = "muc#roomconfig_whois";
    static final String CHANGESUBJECT = "muc#roomconfig_changesubject";
    static final String ALLOWINVITES = "muc#roomconfig_allowinvites";
    static final String ALLOWPM = "muc#roomconfig_allowpm";
    static final String MAXUSERS = "muc#roomconfig_maxusers";
    static final String HISTORYLENGTH = "muc#roomconfig_historylength";
    static final String PRESENCEBROADCAST = "muc#roomconfig_presencebroadcast";
    static final String ENABLELOGGING = "muc#roomconfig_enablelogging";
    static final String LIVESTANZAIDS = "reconmuc#roomconfig_livestanzaids";
    private static final List<Role> BROADCASTABLE = List.of(Role.MODERATOR, Role.PARTICIPANT, Role.VISITOR);

    private RoomConfigForm() {
    }

    /** The form an owner fills in, showing the current values. */
    static Element render(RoomConfig c, int maxHistory, int maxUsersLimit) {
        Element x = DocumentHelper.createElement(QName.get("x", Namespaces.DATA_FORMS));
        x.addAttribute("type", "form");
        x.addElement("title").setText("Configuration of the room");
        field(x, "FORM_TYPE", "hidden", null, Namespaces.MUC_ROOMCONFIG);
        field(x, ROOMNAME, "text-single", "Name of the room", c.name());
        field(x, ROOMDESC, "text-single", "Description of the room", c.description());
        field(x, PERSISTENT, "boolean", "Keep the room when the last occupant leaves", bool(c.persistent()));
        field(x, PUBLIC, "boolean", "List the room in the service's room directory", bool(c.publicRoom()));
        field(x, MEMBERSONLY, "boolean", "Only members may join", bool(c.membersOnly()));
        field(x, MODERATED, "boolean", "Only participants with voice may send messages", bool(c.moderated()));
        field(x, PASSWORDPROTECTED, "boolean", "A password is required to join", bool(c.passwordProtected()));
        field(x, ROOMSECRET, "text-private", "Password", c.password() == null ? "" : c.password());
        Element whois = field(x, WHOIS, "list-single", "Who may discover occupants' real JIDs",
                c.nonAnonymous() ? "anyone" : "moderators");
        option(whois, "Moderators only", "moderators");
        option(whois, "Anyone", "anyone");
        field(x, CHANGESUBJECT, "boolean", "Participants may change the subject", bool(c.changeSubject()));
        field(x, ALLOWINVITES, "boolean", "Participants may invite others", bool(c.allowInvites()));
        Element pm = field(x, ALLOWPM, "list-single", "Who may send private messages",
                c.allowPrivateMessages().value);
        for (RoomConfig.PrivateMessages p : RoomConfig.PrivateMessages.values()) {
            option(pm, p.value, p.value);
        }
        field(x, MAXUSERS, "text-single", "Maximum number of occupants (at most " + maxUsersLimit + ")",
                Integer.toString(c.maxUsers()));
        field(x, HISTORYLENGTH, "text-single", "Messages of history kept and sent on join (at most " + maxHistory + ")",
                Integer.toString(c.historyLength()));
        Element broadcast = field(x, PRESENCEBROADCAST, "list-multi", "Roles whose presence is broadcast to the room", null);
        for (Role r : BROADCASTABLE) {
            if (c.broadcastsPresenceOf(r)) {
                broadcast.addElement("value").setText(r.xmlValue());
            }
        }
        for (Role r : BROADCASTABLE) {
            option(broadcast, r.xmlValue(), r.xmlValue());
        }
        field(x, ENABLELOGGING, "boolean", "Log the discussion: keep an archive of its messages, readable with XEP-0313",
                bool(c.logged()));
        Element ids = field(x, LIVESTANZAIDS, "list-single",
                "Which live messages carry the room's stanza-id (relaxed occupants and moderators always get it)",
                c.liveStanzaIds().value);
        option(ids, "Everyone's, always", RoomConfig.LiveStanzaIds.ALWAYS.value);
        option(ids, "Everyone's while the room is logged", RoomConfig.LiveStanzaIds.WHILE_LOGGED.value);
        return x;
    }

    /**
     * Applies a submitted form to {@code current}. Fields not submitted keep their value.
     * Throws IllegalArgumentException naming the bad field.
     */
    static RoomConfig apply(RoomConfig current, Element submitted, int maxHistory, int maxUsersLimit) {
        Map<String, List<String>> values = new HashMap<>();
        for (Element field : submitted.elements("field")) {
            String var = field.attributeValue("var");
            if (var == null) {
                continue;
            }
            List<String> vs = new ArrayList<>();
            for (Element v : field.elements("value")) {
                vs.add(v.getText());
            }
            values.put(var, vs);
        }
        List<String> formType = values.get("FORM_TYPE");
        if (formType != null && !formType.contains(Namespaces.MUC_ROOMCONFIG)) {
            throw new IllegalArgumentException("FORM_TYPE must be " + Namespaces.MUC_ROOMCONFIG);
        }
        String name = text(values, ROOMNAME, current.name());
        String description = text(values, ROOMDESC, current.description());
        boolean persistent = bool(values, PERSISTENT, current.persistent());
        boolean publicRoom = bool(values, PUBLIC, current.publicRoom());
        boolean membersOnly = bool(values, MEMBERSONLY, current.membersOnly());
        boolean moderated = bool(values, MODERATED, current.moderated());
        boolean protectedRoom = bool(values, PASSWORDPROTECTED, current.passwordProtected());
        String password = text(values, ROOMSECRET, current.password() == null ? "" : current.password());
        if (!protectedRoom) {
            password = null;
        } else if (password.isEmpty()) {
            throw new IllegalArgumentException(PASSWORDPROTECTED + " is set but " + ROOMSECRET + " is empty");
        }
        String whois = text(values, WHOIS, current.nonAnonymous() ? "anyone" : "moderators");
        if (!whois.equals("anyone") && !whois.equals("moderators")) {
            throw new IllegalArgumentException(WHOIS + " must be 'moderators' or 'anyone'");
        }
        boolean changeSubject = bool(values, CHANGESUBJECT, current.changeSubject());
        boolean allowInvites = bool(values, ALLOWINVITES, current.allowInvites());
        RoomConfig.PrivateMessages pm = values.containsKey(ALLOWPM)
                ? RoomConfig.PrivateMessages.parse(text(values, ALLOWPM, "anyone"))
                : current.allowPrivateMessages();
        int maxUsers = number(values, MAXUSERS, current.maxUsers(), 1, maxUsersLimit);
        int historyLength = number(values, HISTORYLENGTH, current.historyLength(), 0, maxHistory);
        Set<Role> presenceBroadcast = values.containsKey(PRESENCEBROADCAST)
                ? roles(values.get(PRESENCEBROADCAST)) : current.presenceBroadcast();
        boolean logged = bool(values, ENABLELOGGING, current.logged());
        RoomConfig.LiveStanzaIds liveStanzaIds = values.containsKey(LIVESTANZAIDS)
                ? RoomConfig.LiveStanzaIds.parse(text(values, LIVESTANZAIDS, "")) : current.liveStanzaIds();
        return new RoomConfig(name, description, persistent, publicRoom, membersOnly, moderated, password,
                whois.equals("anyone"), changeSubject, allowInvites, pm, maxUsers, historyLength, presenceBroadcast,
                logged, liveStanzaIds);
    }

    private static Set<Role> roles(List<String> values) {
        Set<Role> roles = EnumSet.noneOf(Role.class);
        for (String v : values) {
            Role role = Role.parse(v.trim()).filter(BROADCASTABLE::contains).orElseThrow(() -> new IllegalArgumentException(
                    PRESENCEBROADCAST + " lists roles among moderator, participant and visitor, not '" + v.trim() + "'"));
            roles.add(role);
        }
        return roles;
    }

    private static String text(Map<String, List<String>> values, String var, String fallback) {
        List<String> vs = values.get(var);
        if (vs == null) {
            return fallback;
        }
        return vs.isEmpty() ? "" : vs.get(0).trim();
    }

    private static boolean bool(Map<String, List<String>> values, String var, boolean fallback) {
        if (!values.containsKey(var)) {
            return fallback;
        }
        String v = text(values, var, "");
        switch (v) {
            case "1", "true":
                return true;
            case "0", "false", "":
                return false;
            default:
                throw new IllegalArgumentException(var + " must be a boolean (0, 1, false, true), not '" + v + "'");
        }
    }

    private static int number(Map<String, List<String>> values, String var, int fallback, int min, int max) {
        if (!values.containsKey(var)) {
            return fallback;
        }
        String v = text(values, var, "");
        if (v.equals("none") && var.equals(MAXUSERS)) {
            return max;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw new IllegalArgumentException(var + " must be between " + min + " and " + max);
            }
            return n;
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException(var + " must be a number, not '" + v + "'");
        }
    }

    private static String bool(boolean b) {
        return b ? "1" : "0";
    }

    private static Element field(Element x, String var, String type, String label, String value) {
        Element f = x.addElement("field");
        f.addAttribute("var", var);
        f.addAttribute("type", type);
        if (label != null) {
            f.addAttribute("label", label);
        }
        if (value != null) {
            f.addElement("value").setText(value);
        }
        return f;
    }

    private static void option(Element field, String label, String value) {
        Element o = field.addElement("option");
        o.addAttribute("label", label);
        o.addElement("value").setText(value);
    }
}
