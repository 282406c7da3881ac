package org.reconmuc.component.muc;

import java.util.Objects;
import java.util.Set;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.forms.DataForm;
import org.xmpp.forms.FormField;
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
        DataForm form = requestForm(message);
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
        DataForm form = new DataForm(DataForm.Type.form);
        form.setTitle("Voice request");
        form.addInstruction("To approve this request for voice, select the \"Grant voice to this"
                + " person?\" checkbox and submit this form.");
        form.addField("FORM_TYPE", null, FormField.Type.hidden).addValue(FORM_TYPE);
        form.addField("muc#role", "Requested role", FormField.Type.list_single).addValue("participant");
        form.addField("muc#jid", "User ID", FormField.Type.jid_single).addValue(sender.bareJid().toString());
        form.addField("muc#roomnick", "Room Nickname", FormField.Type.text_single).addValue(sender.nick());
        form.addField("muc#request_allow", "Grant voice to this person?", FormField.Type.boolean_type).addValue("false");
        approval.addExtension(form);
        room.output().toOccupants(room.occupants().stream().filter(o -> o.role() == Role.MODERATOR).toList(), approval);
    }

    private static void decide(Room room, Message message, Occupant moderator, DataForm form) {
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

    private static DataForm requestForm(Message message) {
        for (Element x : message.getElement().elements(QName.get(DataForm.ELEMENT_NAME, DataForm.NAMESPACE))) {
            DataForm form = new DataForm(x);
            // The type read as text: DataForm.getType() throws on a type it does not know (type='Submit').
            if (FORM_TYPE.equals(value(form, "FORM_TYPE")) && "submit".equals(x.attributeValue("type"))) {
                return form;
            }
        }
        return null;
    }

    /** The field's first value ("" if it has none), or null if the form has no such field. */
    private static String value(DataForm form, String var) {
        FormField field = form.getField(var);
        return field == null ? null : Objects.requireNonNullElse(field.getFirstValue(), "");
    }
}
