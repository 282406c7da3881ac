package org.reconmuc.component.muc;

import java.util.Set;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.packet.Message;

/**
 * Voice requests in moderated rooms (XEP-0045 §7.13 and §8.6): a visitor submits the
 * {@code muc#request} form, the room passes it to every moderator as a form to approve, and a
 * moderator who submits it back with {@code muc#request_allow} true grants the visitor voice.
 */
final class VoiceRequests {
    static final String FORM_TYPE = "http://jabber.org/protocol/muc#request";

    private VoiceRequests() {
    }

    /** True if the message carries a {@code muc#request} form (then this class handled it). */
    public static boolean handle(Room room, Message message, Occupant sender) {
        Element form = requestForm(message);
        if (form == null) {
            return false;
        }
        if (sender == null) {
            room.output().error(message, Condition.NOT_ACCEPTABLE, "You are not an occupant of this room");
        } else if (value(form, "muc#request_allow") != null || value(form, "muc#roomnick") != null) {
            decide(room, message, sender, form);
        } else {
            request(room, message, sender);
        }
        return true;
    }

    private static void request(Room room, Message message, Occupant sender) {
        if (sender.role() != Role.VISITOR) {
            room.output().error(message, Condition.BAD_REQUEST, "You already have voice in this room");
            return;
        }
        if (!sender.rateLimiter().tryAcquire(room.now().toEpochMilli())) {
            room.output().error(message, Condition.POLICY_VIOLATION, "You are asking too often; this request was not passed on");
            return;
        }
        Message approval = new Message();
        approval.setFrom(room.jid().jid());
        Element x = approval.getElement().addElement("x", Namespaces.DATA_FORMS);
        x.addAttribute("type", "form");
        x.addElement("title").setText("Voice request");
        x.addElement("instructions").setText("To approve this request for voice, select the \"Grant voice to this"
                + " person?\" checkbox and submit this form.");
        field(x, "FORM_TYPE", "hidden", null, FORM_TYPE);
        field(x, "muc#role", "list-single", "Requested role", "participant");
        field(x, "muc#jid", "jid-single", "User ID", sender.bareJid().toString());
        field(x, "muc#roomnick", "text-single", "Room Nickname", sender.nick());
        field(x, "muc#request_allow", "boolean", "Grant voice to this person?", "false");
        room.output().toOccupants(room.occupants().stream().filter(o -> o.role() == Role.MODERATOR).toList(), approval);
    }

    private static void decide(Room room, Message message, Occupant moderator, Element form) {
        if (moderator.role() != Role.MODERATOR) {
            room.output().error(message, Condition.FORBIDDEN, "Only moderators may answer voice requests");
            return;
        }
        String allow = value(form, "muc#request_allow");
        if (!("true".equals(allow) || "1".equals(allow))) {
            return;   // denied: nothing changes, and XEP-0045 asks for no notice
        }
        String nick = value(form, "muc#roomnick");
        Occupant visitor = nick == null ? null : room.occupantByNick(nick);
        if (visitor == null) {
            room.output().error(message, Condition.ITEM_NOT_FOUND, "There is no occupant with the nickname '" + nick + "'");
            return;
        }
        if (visitor.role() == Role.VISITOR) {
            visitor.setRole(Role.PARTICIPANT);
            room.presence().broadcastPresence(visitor, Set.of());
        }
    }

    private static Element requestForm(Message message) {
        for (Element x : message.getElement().elements(QName.get("x", Namespaces.DATA_FORMS))) {
            if (FORM_TYPE.equals(value(x, "FORM_TYPE")) && "submit".equals(x.attributeValue("type"))) {
                return x;
            }
        }
        return null;
    }

    private static String value(Element form, String var) {
        for (Element f : form.elements("field")) {
            if (var.equals(f.attributeValue("var"))) {
                String v = f.elementTextTrim("value");
                return v == null ? "" : v;
            }
        }
        return null;
    }

    private static void field(Element x, String var, String type, String label, String value) {
        Element f = x.addElement("field");
        f.addAttribute("var", var);
        f.addAttribute("type", type);
        if (label != null) {
            f.addAttribute("label", label);
        }
        f.addElement("value").setText(value);
    }
}
