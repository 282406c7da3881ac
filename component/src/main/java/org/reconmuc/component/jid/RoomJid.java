package org.reconmuc.component.jid;

import java.util.Optional;
import org.xmpp.packet.JID;

/** The bare JID of a room, {@code room@service}: never has a resource. */
public record RoomJid(JID jid) {

    public RoomJid {
        if (jid.getNode() == null || jid.getNode().isEmpty() || jid.getResource() != null) {
            throw new IllegalArgumentException("not a room JID: " + jid);
        }
    }

    /** The room a stanza is addressed to, if its address names one (a node part is present). */
    public static Optional<RoomJid> of(JID address) {
        if (address == null || address.getNode() == null || address.getNode().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RoomJid(address.asBareJID()));
    }

    public String node() {
        return jid.getNode();
    }

    public OccupantJid occupant(String nick) {
        return new OccupantJid(this, nick);
    }

    @Override
    public String toString() {
        return jid.toBareJID();
    }
}
