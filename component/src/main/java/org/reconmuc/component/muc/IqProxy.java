package org.reconmuc.component.muc;

import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.limits.BoundedMap;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;

/**
 * IQs between occupants (XEP-0045 §7.7, e.g. vCard or version queries): forwarded under a
 * room-made id so that the answer can be routed back without revealing real JIDs. The answer, a
 * result or an error, goes to the asker and nowhere else: an error from the asked client (RFC 6120
 * §8.4's service-unavailable for what it does not know) says nothing about its session.
 */
final class IqProxy {
    /** Bounded: an unanswered query is forgotten after this many newer ones. */
    private static final int MAX_PENDING = 1024;
    /**
     * What the occupant's account answers rather than its client (avatars, XEP-0054/XEP-0292, and
     * PEP): asked at the bare JID, as Prosody's MUC does (muc.lib.lua handle_iq_to_occupant).
     */
    private static final Set<String> ACCOUNT_NAMESPACES = Set.of("vcard-temp", "urn:ietf:params:xml:ns:vcard-4.0",
            "http://jabber.org/protocol/pubsub");

    /** A forwarded query: who asked, under which id and occupant JID; which session was asked, at which address. */
    private record Pending(RealJid requester, String originalId, JID requesterOccupant, RealJid responder, JID askedAt) {
    }

    private final BoundedMap<String, Pending> pending = BoundedMap.oldestOut(MAX_PENDING);
    private long counter;

    void forward(Room room, IQ request, Occupant sender, Occupant recipient) {
        RealJid responder = recipient.sessions().iterator().next();
        Element query = request.getChildElement();
        JID askedAt = query != null && ACCOUNT_NAMESPACES.contains(query.getNamespaceURI())
                ? responder.jid().asBareJID() : responder.jid();
        String id = "mucproxy-" + (++counter);
        pending.put(id, new Pending(new RealJid(request.getFrom()), request.getID(), sender.jid().jid(), responder, askedAt));
        IQ out = request.createCopy();
        out.setID(id);
        out.setFrom(sender.jid().jid());
        out.setTo(askedAt);
        room.output().send(out);
    }

    /** An answer from {@code answerer} to one of our forwarded queries; unknown ids are ignored. */
    void answer(Room room, IQ answer, RealJid answerer) {
        Pending p = pending.get(answer.getID());
        if (p == null || !p.askedAt().equals(answerer.jid()) || !p.requesterOccupant().equals(answer.getTo())) {
            return;
        }
        pending.remove(answer.getID());
        Occupant responder = room.occupantBySession(p.responder());
        if (responder == null) {
            return;
        }
        IQ out = answer.createCopy();
        out.setID(p.originalId());
        out.setFrom(responder.jid().jid());
        out.setTo(p.requester().jid());
        room.output().send(out);
    }
}
