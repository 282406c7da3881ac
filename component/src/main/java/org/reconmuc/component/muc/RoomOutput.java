package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.List;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.transport.Outbox;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.RenderedStanza;
import org.xmpp.packet.Packet;

/**
 * Everything a room sends leaves through here: each stanza is rendered to text once and
 * addressed to every session it goes to, so a broadcast to a thousand sessions is serialised
 * once, not a thousand times, and the text reaches the socket as it is.
 *
 * <p>It goes through the room's {@link Outbox}: the room's journal, which holds a stanza until the
 * store has committed what the room wrote before it. A feature that changes what a persistent
 * room keeps writes it ({@link RoomPersistence}) before it announces the change here.
 */
public final class RoomOutput {
    private final Outbox outbox;

    RoomOutput(Outbox outbox) {
        this.outbox = outbox;
    }

    /** A stanza to the address it names itself (a reply, an invitation, an IQ). */
    public void send(Packet packet) {
        outbox.send(OutgoingStanza.of(packet));
    }

    /** A stanza to one session (rendered, so it may travel the way the room's broadcasts do). */
    public void toSession(RealJid session, Packet packet) {
        toSession(session, RenderedStanza.of(packet));
    }

    /** A stanza to every session of {@code occupant}. */
    public void toOccupant(Occupant occupant, Packet packet) {
        toOccupant(occupant, RenderedStanza.of(packet));
    }

    /** A stanza rendered once to every session of {@code occupant}. */
    public void toOccupant(Occupant occupant, RenderedStanza stanza) {
        toOccupants(List.of(occupant), stanza);
    }

    /** A stanza rendered once to every session of each of {@code occupants}. */
    public void toOccupants(Iterable<Occupant> occupants, Packet packet) {
        toOccupants(occupants, RenderedStanza.of(packet));
    }

    /**
     * A stanza rendered once to every session of each of {@code occupants}, handed on as one
     * broadcast: where the server offers multicast it crosses the link once.
     */
    public void toOccupants(Iterable<Occupant> occupants, RenderedStanza stanza) {
        List<String> sessions = new ArrayList<>();
        for (Occupant o : occupants) {
            for (RealJid s : o.sessions()) {
                sessions.add(s.jid().toString());
            }
        }
        if (sessions.size() == 1) {
            outbox.send(stanza.to(sessions.get(0)));
        } else if (!sessions.isEmpty()) {
            outbox.broadcast(stanza, sessions);
        }
    }

    /** A stanza rendered once to one session. */
    public void toSession(RealJid session, RenderedStanza stanza) {
        outbox.send(stanza.to(session.jid()));
    }

    /** The error reply to {@code request} (nothing for a request that is an error itself). */
    public void error(Packet request, Condition condition, String text) {
        Packet error = StanzaErrors.reply(request, condition, text);
        if (error != null) {
            send(error);
        }
    }

    /** The error reply to {@code request} with an error type of its own ({@code wait}, …). */
    public void error(Packet request, Condition condition, String type, String text) {
        Packet error = StanzaErrors.reply(request, condition, type, text);
        if (error != null) {
            send(error);
        }
    }
}
