package org.reconmuc.smack;

import org.jivesoftware.smack.packet.Message;
import org.jxmpp.jid.EntityBareJid;
import org.reconmuc.codec.batch.MalformedBatchException;

/** Receives the messages a room retained for this occupant and then flushed in a batch. */
public interface RetainedMessageListener {

    /**
     * One message of a batch, in room order: the message as the room broadcast it (from the
     * sender's occupant JID, with its stanza-id, topics, reply …), addressed to this connection,
     * with an XEP-0203 delay saying when the room received it.
     */
    void retainedMessage(EntityBareJid room, Message message);

    /** A batch discarded whole because it breaks a rule of the spec (reconmuc.md §5.13 rule 4). */
    default void malformedBatch(EntityBareJid room, Message batch, MalformedBatchException reason) {
    }
}
