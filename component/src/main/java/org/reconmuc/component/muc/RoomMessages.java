package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.List;
import org.dom4j.Element;
import org.reconmuc.component.jid.OccupantJid;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.protocol.MessageMarks;
import org.reconmuc.component.relaxed.MessageLog;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;

/**
 * Messages to a room (XEP-0045 §7.4 groupchat, §7.5 private messages, §8.1 subject,
 * §7.8.2 mediated invitations). Groupchat messages get a room-assigned XEP-0359 stanza-id.
 */
final class RoomMessages {

    private RoomMessages() {
    }

    public static void handle(Room room, Message message, RealJid session) {
        Occupant sender = room.occupantBySession(session);
        if (message.getType() == Message.Type.error) {
            room.presence().removeGhost(sender, session, message);
            return;
        }
        OccupantJid target = OccupantJid.of(message.getTo()).orElse(null);
        if (target == null && message.getType() != Message.Type.groupchat && VoiceRequests.handle(room, message, sender)) {
            return;
        }
        if (target != null) {
            privateMessage(room, message, sender, target);
        } else if (message.getType() == Message.Type.groupchat) {
            groupchat(room, message, sender);
        } else if (message.getType() == Message.Type.normal && message.getBody() != null
                && message.getChildElement("x", Namespaces.MUC_USER) == null) {
            // A message with a body but no type, as the paper's Listing 3 is printed: a groupchat message.
            message.setType(Message.Type.groupchat);
            groupchat(room, message, sender);
        } else if (message.getChildElement("x", Namespaces.MUC_USER) != null) {
            invitationOrDecline(room, message, sender, session);
        } else {
            room.output().error(message, Condition.BAD_REQUEST,
                    "Send messages of type 'groupchat' to the room, or private messages to room@service/nick");
        }
    }

    /**
     * A groupchat message (§7.4) or subject change (§8.1). The core decides what is its own to
     * decide — whether the sender is an occupant, within its own rate, with voice, and whether the
     * room can take a message now (its store) — then the features may refuse it (in their order:
     * see {@link RoomEvents}), keep it from some occupants, and hold it back from others.
     */
    private static void groupchat(Room room, Message message, Occupant sender) {
        if (sender == null) {
            room.output().error(message, Condition.NOT_ACCEPTABLE, "You are not an occupant of this room");
            return;
        }
        if (overMessageRate(room, message, sender, "); this one was not delivered")) {
            return;
        }
        if (sender.role() == Role.VISITOR) {
            room.output().error(message, Condition.FORBIDDEN, "You have no voice in this moderated room");
            return;
        }
        boolean subjectChange = message.getElement().element("subject") != null && message.getBody() == null;
        // Reactions (XEP-0444) are logged like messages with a body: they refer to one, so they are
        // retained and ordered after it (reconmuc.md §5.6 rule 10), and archived.
        boolean logs = message.getBody() != null || MessageMarks.reactsTo(message.getElement()) != null;
        if (!subjectChange && logs && room.persistence().refusesMessages()) {
            room.persistence().refuse(message);
            return;
        }
        RoomEvent.Speaking speaking = room.fire(subjectChange ? RoomEvent.SUBJECT_CHANGE : RoomEvent.SPEAKING,
                new RoomEvent.Speaking(room, sender, message));
        if (speaking.refused()) {
            speaking.sendRefusal(room, message);
            return;
        }
        Message out = message.createCopy();
        out.setFrom(sender.jid().jid());
        RoomClaims.strip(out.getElement(), room);
        RoomClaims.attributeReply(out.getElement(), room, sender);
        room.stampOccupantId(out, sender);
        if (subjectChange) {
            // Subject changes are never retained: everyone gets them at once.
            room.setSubject(out);
            room.output().toOccupants(room.occupants(), out);
            return;
        }
        List<Occupant> withheldFrom = room.fire(RoomEvent.SENDING,
                new RoomEvent.Sending(room, sender, message, out, new ArrayList<>())).withheldFrom();
        if (!logs) {
            // Chat states and markers are not logged, so nothing can refer to them: no stanza-id.
            room.fanout().postUnretained(out, withheldFrom);
            return;
        }
        MessageLog.Entry<Occupant> logged = room.history().log(out, room.now(), sender);
        logged.withholdFrom(withheldFrom);
        room.persistence().appended(logged);
        room.fire(RoomEvent.LOGGED, new RoomEvent.Logged(room, logged, sender, message));
        room.fanout().post(logged, out, message);
        room.carry().fannedOut(logged.seq());
        room.fire(RoomEvent.BROADCAST, new RoomEvent.Broadcast(room, logged));
    }

    private static void privateMessage(Room room, Message message, Occupant sender, OccupantJid target) {
        if (message.getType() == Message.Type.groupchat) {
            room.output().error(message, Condition.BAD_REQUEST, "Messages of type 'groupchat' must be sent to the room itself");
            return;
        }
        if (sender == null) {
            room.output().error(message, Condition.NOT_ACCEPTABLE, "You are not an occupant of this room");
            return;
        }
        Occupant recipient = room.occupantByNick(target.nick());
        if (recipient == null) {
            room.output().error(message, Condition.ITEM_NOT_FOUND, "There is no occupant with the nickname '" + target.nick() + "'");
            return;
        }
        if (RoomAccess.refuses(room, message, RoomAccess.Act.SEND_PRIVATE_MESSAGE, sender.bareJid(), sender, null)) {
            return;
        }
        if (!sender.rateLimiter().tryAcquire(room.now().toEpochMilli())) {
            room.output().error(message, Condition.POLICY_VIOLATION, "You are sending messages too fast; this one was not delivered");
            return;
        }
        Message out = message.createCopy();
        out.setFrom(sender.jid().jid());
        RoomClaims.strip(out.getElement(), room);
        room.stampOccupantId(out, sender);
        // XEP-0045 §7.5: marks the message as a MUC private message for the recipient's client.
        out.getElement().addElement("x", Namespaces.MUC_USER);
        room.output().toOccupant(recipient, out);
    }

    /**
     * A mediated invitation or decline (§7.8.2). As Prosody, a message carries one invitation:
     * the first {@code <invite/>} is sent, the others are ignored, so one stanza never makes the
     * room send many; each invitation counts against the sender's message rate.
     */
    private static void invitationOrDecline(Room room, Message message, Occupant sender, RealJid session) {
        Element x = message.getChildElement("x", Namespaces.MUC_USER);
        Element decline = x.element("decline");
        if (decline != null) {
            forwardDecline(room, message, decline, session);
            return;
        }
        Element invite = x.element("invite");
        if (invite == null) {
            room.output().error(message, Condition.BAD_REQUEST, "Expected an <invite/> or a <decline/>");
            return;
        }
        if (sender == null) {
            room.output().error(message, Condition.NOT_ACCEPTABLE, "Only occupants may invite people into this room");
            return;
        }
        if (sender.role() == Role.VISITOR) {
            // Prosody's muc-pre-invite: an invitation takes more than a visitor's role.
            room.output().error(message, Condition.FORBIDDEN, "Visitors may not invite people into this room");
            return;
        }
        if (RoomAccess.refuses(room, message, RoomAccess.Act.INVITE, sender.bareJid(), sender, null)) {
            return;
        }
        JID invitee = address(invite);
        if (invitee == null) {
            room.output().error(message, Condition.JID_MALFORMED, "The invitee's address ('to' of <invite/>) is not a valid JID");
            return;
        }
        if (onThisService(room, invitee)) {
            room.output().error(message, Condition.BAD_REQUEST,
                    "Invite people by their own address, not by an address of this service (" + invitee + ")");
            return;
        }
        if (overMessageRate(room, message, sender, ", invitations included); this invitation was not sent")) {
            return;
        }
        Message out = new Message();
        out.setFrom(room.jid().jid());
        out.setTo(invitee);
        Element ox = out.getElement().addElement("x", Namespaces.MUC_USER);
        Element oi = ox.addElement("invite");
        String reason = invite.elementText("reason");
        if (reason != null) {
            oi.addElement("reason").setText(reason);
        }
        for (RoomOption<?> option : room.config().options()) {
            option.inviting(room, sender, new RealJid(invitee), ox);
        }
        out.setBody(sender.nick() + " invites you to the room " + room.jid()
                + (reason == null || reason.isEmpty() ? "" : ": " + reason));
        room.output().send(out);
    }

    /**
     * A decline goes to the inviter (§7.8.2): a user's own address, or — as Prosody allows — an
     * occupant of this room, delivered to its sessions. Any other address of this service (the
     * room itself, a nick nobody has, another room) would come back to the service and be lost,
     * so it is refused.
     */
    private static void forwardDecline(Room room, Message message, Element decline, RealJid session) {
        JID inviter = address(decline);
        if (inviter == null) {
            room.output().error(message, Condition.JID_MALFORMED, "The decline's 'to' (the inviter) is not a valid JID");
            return;
        }
        Occupant inviterInRoom = null;
        if (onThisService(room, inviter)) {
            OccupantJid occupantJid = room.jid().jid().equals(inviter.asBareJID()) ? OccupantJid.of(inviter).orElse(null) : null;
            inviterInRoom = occupantJid == null ? null : room.occupantByNick(occupantJid.nick());
            if (inviterInRoom == null) {
                room.output().error(message, occupantJid == null ? Condition.BAD_REQUEST : Condition.ITEM_NOT_FOUND,
                        occupantJid == null
                                ? "A decline goes to the inviter's own address, or to an occupant of this room, not to " + inviter
                                : "There is no occupant with the nickname '" + occupantJid.nick() + "' to decline to");
                return;
            }
        }
        Message out = new Message();
        out.setFrom(room.jid().jid());
        out.setTo(inviter);
        Element od = out.getElement().addElement("x", Namespaces.MUC_USER).addElement("decline");
        od.addAttribute("from", session.bare().toString());
        String reason = decline.elementText("reason");
        if (reason != null) {
            od.addElement("reason").setText(reason);
        }
        if (inviterInRoom != null) {
            room.output().toOccupant(inviterInRoom, out);
        } else {
            room.output().send(out);
        }
    }

    /**
     * Takes one of {@code sender}'s message permits; true, and {@code message} refused with
     * policy-violation (the limit, then {@code outcome}), if none is left.
     */
    private static boolean overMessageRate(Room room, Message message, Occupant sender, String outcome) {
        if (sender.rateLimiter().tryAcquire(room.now().toEpochMilli())) {
            return false;
        }
        room.output().error(message, Condition.POLICY_VIOLATION, "You are sending messages too fast (limit: "
                + room.context().config().messagesPerSecond() + " per second" + outcome);
        return true;
    }

    /** The {@code to} of an invite or decline, or null if it has none or it is not a JID. */
    private static JID address(Element inviteOrDecline) {
        String to = inviteOrDecline.attributeValue("to");
        if (to == null || to.isBlank()) {
            return null;
        }
        try {
            JID jid = new JID(to.strip());
            return jid.getDomain() == null || jid.getDomain().isEmpty() ? null : jid;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** True if {@code address} is this service's (the service, a room, an occupant): what the room sends there comes back. */
    private static boolean onThisService(Room room, JID address) {
        return address.getDomain().equals(room.jid().jid().getDomain());
    }
}
