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

    /**
     * A message the room sent at once as a batch's live item (aggregations {@code compact-live} and
     * {@code compact-deflate-live}, reconmuc.md §5.9 rule 8.6): the message as the room broadcast
     * it, without a delay, after the retained messages of its batch. Show it as any live groupchat
     * message; Smack's own MUC listeners do not see it. By default it goes to
     * {@link #retainedMessage}, so a listener written for batches loses nothing.
     */
    default void liveMessage(EntityBareJid room, Message message) {
        retainedMessage(room, message);
    }

    /** A batch discarded whole because it breaks a rule of the spec (reconmuc.md §5.13 rule 4). */
    default void malformedBatch(EntityBareJid room, Message batch, MalformedBatchException reason) {
    }
}
