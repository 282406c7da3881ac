package org.reconmuc.component.store;

import java.time.Instant;

/**
 * One groupchat message of a room's archive, as the room broadcast it (without a recipient).
 *
 * @param seq      the room's sequence number for it (the log position; increasing, never reused)
 * @param stanzaId the room's XEP-0359 stanza-id, which is also its XEP-0313 archive id
 * @param at       when the room received it
 * @param nick     the sender's nick at the time (the resource of the message's 'from')
 * @param sender   the sender's real bare JID (shown only where the room lets the reader see it), or null
 * @param xml      the message as broadcast
 */
public record ArchivedMessage(long seq, String stanzaId, Instant at, String nick, String sender, String xml) {
}
