package org.reconmuc.component.muc;

import java.time.Instant;
import java.util.Collection;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.relaxed.FanoutHost;
import org.reconmuc.component.relaxed.MessageLog;
import org.reconmuc.component.relaxed.RelaxedCounters;
import org.reconmuc.component.relaxed.StanzaIds;
import org.reconmuc.component.transport.RenderedStanza;

/** A room as its relaxed consistency sees it (package {@code relaxed}): the one way that package reaches the room. */
final class RoomRelaxedHost implements FanoutHost<Occupant> {
    private final Room room;

    RoomRelaxedHost(Room room) {
        this.room = room;
    }

    @Override
    public String roomJid() {
        return room.jid().toString();
    }

    @Override
    public Instant now() {
        return room.now();
    }

    @Override
    public MessageLog<Occupant> log() {
        return room.history();
    }

    @Override
    public StanzaIds ids() {
        return room.ids();
    }

    @Override
    public RelaxedCounters counters() {
        return room.context().counters();
    }

    @Override
    public Occupant occupantByNick(String nick) {
        return room.occupantByNick(nick);
    }

    @Override
    public Occupant occupantAddressedAs(String nick) {
        return room.occupantByNickIgnoringCase(nick);
    }

    @Override
    public Collection<Occupant> occupants() {
        return room.occupants();
    }

    @Override
    public boolean isPresent(Occupant occupant) {
        return room.occupantByNick(occupant.nick()) == occupant;
    }

    @Override
    public void wakeUpAfter(long delayMillis) {
        room.context().schedule(delayMillis, room::onTimer);
    }

    @Override
    public boolean sendsStanzaIdTo(Occupant occupant) {
        return LiveStanzaIdsOption.forEveryone(room.config()) || occupant.role() == Role.MODERATOR || occupant.reader() != null;
    }

    @Override
    public void send(Occupant occupant, RenderedStanza stanza) {
        room.output().toOccupant(occupant, stanza);
        room.carry().delivered(occupant);
    }

    @Override
    public void send(Collection<Occupant> occupants, RenderedStanza stanza) {
        room.output().toOccupants(occupants, stanza);
        room.carry().delivered(occupants);
    }

    @Override
    public void send(RealJid session, RenderedStanza stanza) {
        room.output().toSession(session, stanza);
        Occupant occupant = room.occupantBySession(session);
        if (occupant != null) {
            room.carry().delivered(occupant);
        }
    }
}
