package org.reconmuc.component.muc;

import java.util.Set;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.protocol.MessageMarks;
import org.reconmuc.component.relaxed.MessageLog;

/**
 * What only the room may say in a message it passes on from an occupant (reconmuc.md §8.2):
 * an occupant's copy of any of it would make others' clients show a time, an archive result, a
 * moderation, a sender or a status the room never gave. The room removes them, and says itself
 * who wrote the message an XEP-0461 reply names.
 */
final class RoomClaims {
    /** Namespaces nothing but a server or a room sends in a message: none of it is an occupant's to claim. */
    private static final Set<String> ROOMS_ONLY = Set.of(
            Namespaces.MUC_USER,              // XEP-0045 statuses, invitations as the room relays them
            XmlNamespaces.DELAY,              // XEP-0203: when the room received it
            "jabber:x:delay",                 // XEP-0091, the same in its legacy form, still read by clients
            XmlNamespaces.MODERATE,           // XEP-0425 moderation notices
            XmlNamespaces.MODERATE_0,
            "urn:xmpp:mam:2",                 // XEP-0313 results, which clients match to their queries
            "urn:xmpp:mam:1",
            "urn:xmpp:mam:0",
            "urn:xmpp:carbons:2",             // XEP-0280 copies of the user's own messages
            XmlNamespaces.ADDRESS); // XEP-0033, whose ofrom claims an original sender

    private RoomClaims() {
    }

    /** Whether an element in namespace {@code ns} is only a room's or a server's to send. */
    public static boolean onlyTheRoomSays(String ns) {
        return ROOMS_ONLY.contains(ns);
    }

    /** Removes from {@code out}, an occupant's message as the room will send it, what only the room may say. */
    public static void strip(Element out, Room room) {
        for (Element child : out.elements()) {
            String ns = child.getNamespaceURI();
            boolean roomsOnly = onlyTheRoomSays(ns);
            // XEP-0359 §5: a stanza-id 'by' the room is the room's to give.
            boolean forgedId = "stanza-id".equals(child.getName()) && XmlNamespaces.STANZA_ID.equals(ns)
                    && room.jid().toString().equals(child.attributeValue("by"));
            // XEP-0424 tombstones are what the archive holds of a retracted message.
            boolean tombstone = "retracted".equals(child.getName())
                    && (XmlNamespaces.RETRACT.equals(ns) || XmlNamespaces.RETRACT_0.equals(ns));
            // Only the room makes batches and the like; a client may only tag topics.
            boolean forgedProtocol = XmlNamespaces.isRequirementsNamespace(ns) && !MessageMarks.TOPIC.equals(child.getName());
            if (roomsOnly || forgedId || tombstone || forgedProtocol) {
                out.remove(child);
            } else if (XmlNamespaces.RETRACT.equals(ns) || XmlNamespaces.FASTEN.equals(ns)) {
                // A retraction may not claim to be a moderator's (XEP-0425 §5: <moderated/> inside).
                for (Element inner : child.elements()) {
                    if (onlyTheRoomSays(inner.getNamespaceURI())) {
                        child.remove(inner);
                    }
                }
            }
        }
    }

    /**
     * An XEP-0461 reply says whom it answers ({@code <reply to/>}), which clients show as the
     * quoted author: where the room knows the parent by its stanza-id, {@code to} is the
     * occupant JID the parent was sent from, whatever the client wrote — unless the parent is hidden
     * from the {@code sender} (its echo would name the author of a message it may not see yet).
     */
    static void attributeReply(Element out, Room room, Occupant sender) {
        Element reply = out.element(QName.get("reply", XmlNamespaces.REPLY));
        long seq = reply == null ? 0 : room.history().seqOf(reply.attributeValue("id"));
        MessageLog.Entry<Occupant> parent = seq <= 0 || room.hiddenFrom(seq, sender) ? null : room.history().get(seq);
        if (parent != null && parent.broadcast().getFrom() != null) {
            reply.addAttribute("to", parent.broadcast().getFrom().toString());
        }
    }
}
