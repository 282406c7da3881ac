package org.reconmuc.component.muc.takebacks;

import java.time.Instant;
import java.util.List;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.muc.Room;
import org.reconmuc.component.muc.RoomEvent;
import org.reconmuc.component.muc.RoomFeature;
import org.reconmuc.component.muc.RoomOption;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.muc.Occupant;
import org.reconmuc.component.muc.OccupantIds;
import org.reconmuc.component.muc.Role;
import org.reconmuc.component.protocol.TakenBack;
import org.reconmuc.component.relaxed.MessageLog;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;

/**
 * Taking a message back (reconmuc.md §5.14): an author's retraction (XEP-0424) or correction
 * (XEP-0308), and a moderator's retraction (XEP-0425, {@code urn:xmpp:message-moderate:1}).
 * What relaxed occupants still hold leaves in its final form or not at all, and they are never
 * sent the retraction or correction of a message they never got; everyone else gets them as
 * usual. A retracted message becomes its tombstone in the history and the archive.
 *
 * <p>Only messages still in the room's in-memory history are checked and turned into
 * tombstones by an author's retraction (who wrote an older one is in the store only); a
 * moderator may also retract older messages of a persistent, logged room, whose archive then
 * holds the tombstone.
 */
public final class RoomTakeBacks {
    /**
     * Taking back as a feature: a taking back of someone else's message, or a correction of a
     * retracted one, is refused before the checks that count what they let through (slow mode, the
     * room's budget); once the message passed them all, the taking back is done and whoever must not
     * get it is named; a moderator's retraction is an IQ; disco#info says which versions it speaks.
     */
    public static final RoomFeature FEATURE = events -> {
        events.on(RoomEvent.SPEAKING, speaking -> refuseOthers(speaking.room(), speaking.message(), speaking.sender(), speaking));
        events.on(RoomEvent.SENDING, sending -> sending.withheldFrom().addAll(
                takeBack(sending.room(), sending.message(), sending.out(), sending.sender())));
        events.on(RoomEvent.IQ_REQUEST, request -> {
            Element query = request.query();
            if (XmlNamespaces.MODERATE.equals(query.getNamespaceURI()) && TakenBack.MODERATE.equals(query.getName())
                    || TakenBack.isLegacyModerateRequest(query)) {
                request.take();
                moderate(request.room(), request.iq(), request.sender());
            }
        });
        events.on(RoomEvent.DISCO_INFO, info -> {
            for (String feature : new String[] {XmlNamespaces.RETRACT, XmlNamespaces.RETRACT_0, XmlNamespaces.MODERATE,
                    XmlNamespaces.MODERATE_0}) {
                RoomOption.feature(info.query(), feature);
            }
        });
    };

    private RoomTakeBacks() {
    }

    /**
     * A groupchat message {@code original} from {@code sender} that takes back someone else's
     * message (reconmuc.md §5.14 rule 4), or corrects a retracted one, is refused.
     */
    private static void refuseOthers(Room room, Message original, Occupant sender, RoomEvent.Refusable event) {
        MessageLog<Occupant> log = room.history();
        String retracted = TakenBack.retracts(original.getElement());
        if (retracted != null) {
            MessageLog.Entry<Occupant> target = named(room, log.seqOf(retracted), retracted, sender);
            if (target != null && !wroteIt(target, sender)) {
                event.refuse(Condition.FORBIDDEN, "You may retract only your own messages (moderators: use XEP-0425 moderation)");
            }
            return;
        }
        String corrected = TakenBack.corrects(original.getElement());
        if (corrected != null) {
            MessageLog.Entry<Occupant> target = named(room, 0, corrected, sender);
            if (target != null && !wroteIt(target, sender)) {
                event.refuse(Condition.FORBIDDEN, "You may correct only your own messages");
            } else if (target != null && target.retracted()) {
                // A correction would bring back, in clients that apply it, what was retracted or moderated.
                event.refuse(Condition.NOT_ALLOWED,
                        "That message was retracted or moderated: it can no longer be corrected; send a new one");
            }
        }
    }

    /**
     * A groupchat message {@code out} (from {@code sender}, already stamped) that passed every check
     * is about to be logged: if it takes back an earlier one, does so and returns who must not get
     * {@code out}.
     */
    private static List<Occupant> takeBack(Room room, Message original, Message out, Occupant sender) {
        MessageLog<Occupant> log = room.history();
        String retracted = TakenBack.retracts(original.getElement());
        if (retracted != null) {
            MessageLog.Entry<Occupant> target = named(room, log.seqOf(retracted), retracted, sender);
            return target == null || target.retracted() ? List.of() : retract(room, target, null, null);
        }
        String corrected = TakenBack.corrects(original.getElement());
        if (corrected == null) {
            return List.of();
        }
        MessageLog.Entry<Occupant> target = named(room, 0, corrected, sender);
        if (target == null) {
            return List.of();
        }
        room.fire(RoomEvent.CORRECTED, new RoomEvent.Corrected(room, target.seq()));
        List<Occupant> holders = holders(room, target.seq());
        if (!holders.isEmpty()) {
            // Those who hold it get it as it ended up; history and the archive keep both.
            log.correct(target.seq(), new Message(TakenBack.finalForm(target.broadcast().getElement(), out.getElement()), true));
        }
        return holders;
    }

    /**
     * Who has not been sent message {@code seq} and may still be (reconmuc.md §5.14): the relaxed
     * occupants that retain it, and those a feature withholds it from ({@link RoomEvent#HOLDERS}) —
     * a retraction, moderation or correction of it must not reach them.
     */
    private static List<Occupant> holders(Room room, long seq) {
        return room.fire(RoomEvent.HOLDERS, new RoomEvent.Holders(room, seq, room.fanout().holders(seq))).holders();
    }

    /** Whether message {@code seq} is hidden from {@code reader} ({@link RoomEvent#HIDDEN}): to it, the message does not exist yet. */
    private static boolean hidden(Room room, long seq, Occupant reader) {
        return room.fire(RoomEvent.HIDDEN, new RoomEvent.Sight(room, seq, reader)).hidden();
    }

    /**
     * The message of the in-memory history that a taking back names: the one numbered
     * {@code bySeq} (found by its stanza-id; 0: none), else one whose own id or origin-id is
     * {@code id} — the sender's own if there is one, since such ids are unique only per client.
     * Null if the history has none (an older message: passed on unchanged, §5.14 rule 4), or only
     * one held back from {@code sender}, which it must not learn of by a refusal.
     */
    private static MessageLog.Entry<Occupant> named(Room room, long bySeq, String id, Occupant sender) {
        MessageLog<Occupant> log = room.history();
        if (bySeq > 0) {
            return hidden(room, bySeq, sender) ? null : log.get(bySeq);
        }
        List<MessageLog.Entry<Occupant>> named = log.sentWithId(id).stream()
                .filter(e -> !hidden(room, e.seq(), sender)).toList();
        return named.stream().filter(e -> wroteIt(e, sender)).findFirst().orElse(named.isEmpty() ? null : named.get(0));
    }

    /**
     * Whether {@code sender} wrote {@code target}: the same real bare JID, whatever nick either
     * had (a nick is taken over once its holder leaves; the XEP-0421 occupant-id, derived from the
     * bare JID, agrees). A message restored from the store is its archived author's; one archived
     * without an author is nobody's.
     */
    private static boolean wroteIt(MessageLog.Entry<Occupant> target, Occupant sender) {
        if (target.author() != null) {
            return target.author().bareJid().equals(sender.bareJid());
        }
        return sender.bareJid().jid().equals(target.restoredAuthor());
    }

    /** Turns {@code target} into its tombstone (history and archive); returns those it had not reached (see {@link #holders}). */
    private static List<Occupant> retract(Room room, MessageLog.Entry<Occupant> target, Element moderated, String reason) {
        List<Occupant> holders = holders(room, target.seq());
        Instant now = room.now();
        Element tombstone = TakenBack.tombstone(target.broadcast().getElement(), now, moderated, reason);
        room.history().retract(target.seq(), new Message(tombstone, true));
        room.persistence().tombstone(target.stanzaId(), now, moderated, reason);
        return holders;
    }

    /**
     * XEP-0425: a moderator's {@code <moderate id><retract/><reason/></moderate>} (0.3) or
     * {@code <apply-to id><moderate><retract/><reason/></moderate></apply-to>} (0.2) to the room's bare JID.
     */
    private static void moderate(Room room, IQ iq, Occupant requester) {
        boolean legacy = TakenBack.isLegacyModerateRequest(iq.getChildElement());
        Element moderate = legacy ? TakenBack.asModerateRequest(iq.getChildElement()) : iq.getChildElement();
        if (iq.getType() != IQ.Type.set) {
            room.output().error(iq, Condition.BAD_REQUEST, "A moderation request is an IQ of type 'set'");
            return;
        }
        if (requester == null || requester.role() != Role.MODERATOR) {
            room.output().error(iq, Condition.FORBIDDEN, "Only moderators may moderate messages in this room");
            return;
        }
        String id = moderate.attributeValue("id");
        if (id == null || id.isEmpty()) {
            room.output().error(iq, Condition.BAD_REQUEST, "<moderate/> needs the 'id' (the stanza-id) of the message");
            return;
        }
        if (moderate.element(QName.get(TakenBack.RETRACT, XmlNamespaces.RETRACT)) == null) {
            room.output().error(iq, Condition.BAD_REQUEST,
                    "Only retraction is supported: put <retract xmlns='" + (legacy ? XmlNamespaces.RETRACT_0 : XmlNamespaces.RETRACT)
                            + "'/> in <moderate/>");
            return;
        }
        String reason = moderate.elementText("reason");
        Element moderated = DocumentHelper.createElement(QName.get(TakenBack.MODERATED, XmlNamespaces.MODERATE));
        moderated.addAttribute("by", requester.jid().toString());
        Message stamp = new Message();
        room.stampOccupantId(stamp, requester);
        Element occupantId = stamp.getElement().element(QName.get(OccupantIds.ELEMENT, OccupantIds.NAMESPACE));
        if (occupantId != null) {
            moderated.add(occupantId.createCopy());
        }
        long seq = room.history().seqOf(id);
        MessageLog.Entry<Occupant> target = seq > 0 ? room.history().get(seq) : null;
        List<Occupant> holders;
        if (target != null && !target.retracted()) {
            holders = retract(room, target, moderated, reason);
        } else if (target == null && room.persistence().archives()) {
            // Older than the history: the archive turns it into its tombstone if it has it.
            room.persistence().tombstone(id, room.now(), moderated, reason);
            holders = List.of();
        } else {
            room.output().error(iq, Condition.ITEM_NOT_FOUND, target == null
                    ? "No message with the stanza-id '" + id + "' in this room's history"
                    : "That message was already retracted");
            return;
        }
        room.output().send(IQ.createResultIQ(iq));
        // The notice (XEP-0425 §4): to everyone who may have the message; its holders never will.
        Message notice = new Message();
        notice.setType(Message.Type.groupchat);
        notice.setFrom(room.jid().jid());
        notice.setID(room.ids().messageId());
        TakenBack.announceModeration(notice.getElement(), id, moderated, reason);
        room.fanout().postUnretained(notice, holders);
    }
}
