package org.reconmuc.joom.session;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jivesoftware.smack.packet.ExtensionElement;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smackx.delay.packet.DelayInformation;
import org.jivesoftware.smackx.sid.element.StanzaIdElement;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.Jid;
import org.reconmuc.joom.model.Arrival;
import org.reconmuc.joom.model.ChatMessage;
import org.reconmuc.joom.model.MessageText;
import org.reconmuc.smack.element.TopicElement;
import org.reconmuc.smack.reply.element.ReplyElement;

/** A groupchat message from the room as the model's {@link ChatMessage}. */
final class IncomingMessages {

    private IncomingMessages() {
    }

    /**
     * The message, or null if it is no chat message (no body, not from an occupant, e.g. the
     * subject or a batch's envelope).
     *
     * @param arrival {@link Arrival#BATCHED} for a batch's messages, else {@link Arrival#LIVE}
     *     (which becomes {@link Arrival#HISTORY} when the room marked the message as delayed)
     * @param now when it arrived, for a message without a delay
     */
    static ChatMessage toChat(Message m, Arrival arrival, EntityBareJid room, String myNick, Instant now) {
        Jid from = m.getFrom();
        String body = m.getBody();
        if (body == null || from == null || !from.hasResource() || !room.equals(from.asEntityBareJidIfPossible())) {
            return null;
        }
        String nick = from.getResourceOrThrow().toString();
        String stanzaId = null;
        for (ExtensionElement e : m.getExtensions()) {
            if (e instanceof StanzaIdElement sid && room.toString().equals(sid.getBy())) {
                stanzaId = sid.getId();
            }
        }
        DelayInformation delay = DelayInformation.from(m);
        Instant sentAt = delay != null ? delay.getStamp().toInstant() : now;
        Arrival how = arrival == Arrival.LIVE && delay != null ? Arrival.HISTORY : arrival;
        List<String> topicElements = new ArrayList<>();
        for (TopicElement t : TopicElement.from(m)) {
            topicElements.add(t.getTopic());
        }
        ReplyElement reply = ReplyElement.from(m);
        String replyToNick = null;
        if (reply != null && reply.getTo() != null && reply.getTo().startsWith(room + "/")) {
            replyToNick = reply.getTo().substring(room.toString().length() + 1);
        }
        String key = stanzaId != null ? stanzaId : nick + "/" + m.getStanzaId() + "/" + sentAt;
        return new ChatMessage(key, stanzaId, nick, body, MessageText.topics(topicElements, body), sentAt, how,
                reply == null ? null : reply.getId(), replyToNick, nick.equals(myNick));
    }
}
