package org.reconmuc.component.jid;

import org.xmpp.packet.JID;

/**
 * A user's own JID (the session that sent a stanza), as opposed to the addresses the room gives
 * it. Affiliations are kept per {@link #bare()} real JID.
 */
public record RealJid(JID jid) {

    public RealJid {
        if (jid == null || jid.getDomain() == null || jid.getDomain().isEmpty()) {
            throw new IllegalArgumentException("not a real JID: " + jid);
        }
    }

    public static RealJid of(String jid) {
        return new RealJid(new JID(jid));
    }

    public RealJid bare() {
        return jid.getResource() == null ? this : new RealJid(jid.asBareJID());
    }

    @Override
    public String toString() {
        return jid.toString();
    }
}
