package org.reconmuc.component.jid;

import java.util.Optional;
import org.xmpp.packet.JID;

/** An occupant's address in a room, {@code room@service/nick}. */
public record OccupantJid(RoomJid room, String nick) {

    public OccupantJid {
        if (nick == null || nick.isEmpty()) {
            throw new IllegalArgumentException("an occupant JID needs a nick");
        }
    }

    /** The occupant addressed, if the address has a resource (the nick). */
    public static Optional<OccupantJid> of(JID address) {
        if (address == null || address.getResource() == null || address.getResource().isEmpty()) {
            return Optional.empty();
        }
        return RoomJid.of(address).map(room -> new OccupantJid(room, address.getResource()));
    }

    public JID jid() {
        return new JID(room.jid().getNode(), room.jid().getDomain(), nick, true);
    }

    @Override
    public String toString() {
        return room + "/" + nick;
    }
}
