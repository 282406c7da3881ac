package org.reconmuc.component.muc;

import java.util.LinkedHashMap;
import java.util.Map;
import org.reconmuc.component.jid.RealJid;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;

/**
 * IQs between occupants (XEP-0045 §7.7, e.g. vCard or version queries): forwarded under a
 * room-made id so that the answer can be routed back without revealing real JIDs.
 */
final class IqProxy {
    /** Bounded: an unanswered query is forgotten after this many newer ones. */
    private static final int MAX_PENDING = 1024;

    private record Pending(RealJid requester, String originalId, JID requesterOccupant, RealJid responder) {
    }

    private final Map<String, Pending> pending = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Pending> eldest) {
            return size() > MAX_PENDING;
        }
    };
    private long counter;

    void forward(Room room, IQ request, Occupant sender, Occupant recipient) {
        RealJid responder = recipient.sessions().iterator().next();
        String id = "mucproxy-" + (++counter);
        pending.put(id, new Pending(new RealJid(request.getFrom()), request.getID(), sender.jid().jid(), responder));
        IQ out = request.createCopy();
        out.setID(id);
        out.setFrom(sender.jid().jid());
        out.setTo(responder.jid());
        room.output().send(out);
    }

    /** An answer from {@code session} to one of our forwarded queries; unknown ids are ignored. */
    void answer(Room room, IQ answer, RealJid session) {
        Pending p = pending.get(answer.getID());
        if (p == null || !p.responder().equals(session) || !p.requesterOccupant().equals(answer.getTo())) {
            return;
        }
        pending.remove(answer.getID());
        Occupant responder = room.occupantBySession(session);
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
