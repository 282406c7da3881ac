package org.reconmuc.joom.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.util.PacketParserUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.reconmuc.joom.model.Arrival;
import org.reconmuc.joom.model.ChatMessage;
import org.reconmuc.smack.provider.ReconMucProviders;

/** What Joom reads from a groupchat message the room sent. */
class IncomingMessagesTest {
    private static final Instant NOW = Instant.parse("2011-03-21T09:01:00Z");
    private static EntityBareJid room;

    @BeforeAll
    static void providers() throws Exception {
        ReconMucProviders.register();
        room = JidCreate.entityBareFrom("chat@conference.example.org");
    }

    private static Message parse(String xml) throws Exception {
        return PacketParserUtils.parseStanza(xml);
    }

    @Test
    void aReplyWithItsTopicStanzaIdAndDelay() throws Exception {
        Message m = parse("<message xmlns='jabber:client' from='chat@conference.example.org/Carol' type='groupchat' id='c1'>"
                + "<body>Yes, on Saturday #cinema</body><topic xmlns='urn:reconmuc:0'>#Movies</topic>"
                + "<reply xmlns='urn:xmpp:reply:0' to='chat@conference.example.org/Bob' id='sid-1'/>"
                + "<stanza-id xmlns='urn:xmpp:sid:0' by='someone-else@example.org' id='forged'/>"
                + "<stanza-id xmlns='urn:xmpp:sid:0' by='chat@conference.example.org' id='sid-2'/>"
                + "<delay xmlns='urn:xmpp:delay' stamp='2011-03-21T09:00:20Z' from='chat@conference.example.org'/></message>");
        ChatMessage c = IncomingMessages.toChat(m, Arrival.BATCHED, room, "Bob", NOW);
        assertThat(c.nick()).isEqualTo("Carol");
        assertThat(c.stanzaId()).as("the room's own stanza-id").isEqualTo("sid-2");
        assertThat(c.key()).isEqualTo("sid-2");
        assertThat(c.topics()).as("the element wins over the hashtag").containsExactly("movies");
        assertThat(c.replyToId()).isEqualTo("sid-1");
        assertThat(c.replyToNick()).isEqualTo("Bob");
        assertThat(c.sentAt()).isEqualTo(Instant.parse("2011-03-21T09:00:20Z"));
        assertThat(c.arrival()).isEqualTo(Arrival.BATCHED);
        assertThat(c.mine()).isFalse();
    }

    @Test
    void aLiveMessageWithADelayIsHistoryAndOneWithoutIsNow() throws Exception {
        String base = "<message xmlns='jabber:client' from='chat@conference.example.org/Bob' type='groupchat' id='b1'>"
                + "<body>hello #xmpp</body>";
        ChatMessage history = IncomingMessages.toChat(parse(base + "<delay xmlns='urn:xmpp:delay' stamp='2011-03-21T08:00:00Z'/>"
                + "</message>"), Arrival.LIVE, room, "Bob", NOW);
        assertThat(history.arrival()).isEqualTo(Arrival.HISTORY);
        assertThat(history.mine()).isTrue();
        ChatMessage now = IncomingMessages.toChat(parse(base + "</message>"), Arrival.LIVE, room, "Alice", NOW);
        assertThat(now.arrival()).isEqualTo(Arrival.LIVE);
        assertThat(now.sentAt()).isEqualTo(NOW);
        assertThat(now.topics()).containsExactly("xmpp");
        assertThat(now.key()).as("no stanza-id: sender, id and time").contains("Bob/b1");
    }

    @Test
    void whatIsNotAChatMessageIsIgnored() throws Exception {
        assertThat(IncomingMessages.toChat(parse("<message xmlns='jabber:client' from='chat@conference.example.org' "
                + "type='groupchat'><subject>Welcome</subject></message>"), Arrival.LIVE, room, "Bob", NOW)).isNull();
        assertThat(IncomingMessages.toChat(parse("<message xmlns='jabber:client' from='other@conference.example.org/Eve' "
                + "type='groupchat'><body>not this room</body></message>"), Arrival.LIVE, room, "Bob", NOW)).isNull();
    }
}
