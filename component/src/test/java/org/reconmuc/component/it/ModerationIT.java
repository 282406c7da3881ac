package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.StanzaIdFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.IQ;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.packet.StanzaError;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.muc.RoomInfo;
import org.jivesoftware.smackx.sid.element.StanzaIdElement;
import org.jivesoftware.smackx.xdata.form.FillableForm;
import org.junit.jupiter.api.Test;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.Jid;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.config.ServiceConfig;

/**
 * Moderation in a big public room, as real Smack clients see it through a real server (package
 * {@code muc.slowmode}, {@code muc.budget}, {@code muc.delay}): XEP-0500 slow mode, the room-wide budget of messages and presences, and
 * messages held back for everyone but the moderators, who retract spam before anyone else sees it.
 * Each subclass names the server; the conversations are the same.
 */
abstract class ModerationIT extends LiveServiceIT {
    private static final long WAIT_MS = 20_000;
    /** The budget of every room of this service: eight events of guests at once, then one per 20 s. */
    private static final ServiceConfig.RoomEventRate ROOM_EVENTS = new ServiceConfig.RoomEventRate(0.05, 8);
    /** Long enough that the moderator's answers surely come before a held line's release on a loaded machine. */
    private static final int DELAY_SECONDS = 20;


    @Override
    ServiceConfig configured(ServiceConfig c) {
        return c.toBuilder().roomEventRate(ROOM_EVENTS).reconnectMaxBackoff(Duration.ofSeconds(2)).build();
    }

    private static MultiUserChat create(XMPPTCPConnection c, EntityBareJid room, String nick) throws Exception {
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
        MultiUserChat.MucCreateConfigFormHandle handle = m.createOrJoin(Resourcepart.from(nick));
        assertThat(handle).as("status 201: the room was created").isNotNull();
        handle.makeInstant();
        return m;
    }

    private static MultiUserChat join(XMPPTCPConnection c, EntityBareJid room, String nick) throws Exception {
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
        m.join(Resourcepart.from(nick));
        return m;
    }

    private static void configure(MultiUserChat owner, String field, int value) throws Exception {
        FillableForm form = owner.getConfigurationForm().getFillableForm();
        form.setAnswer(field, value);
        owner.sendConfigurationForm(form);
    }

    private static Message groupchat(XMPPTCPConnection c, Jid to, String body) {
        return c.getStanzaFactory().buildMessageStanza().to(to).ofType(Message.Type.groupchat).setBody(body).build();
    }

    /** Sends a stanza and returns the error reply with the same id (or fails). */
    private static StanzaError errorFor(XMPPTCPConnection c, Stanza stanza) throws Exception {
        StanzaCollector collector = c.createStanzaCollectorAndSend(new StanzaIdFilter(stanza.getStanzaId()), stanza);
        try {
            Stanza reply = collector.nextResult(WAIT_MS);
            assertThat(reply).as("a reply to " + stanza.toXML()).isNotNull();
            assertThat(reply.getError()).as("an error reply: " + reply.toXML()).isNotNull();
            return reply.getError();
        } finally {
            collector.cancel();
        }
    }

    private static Message nextBody(MultiUserChat m) throws Exception {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (System.currentTimeMillis() < deadline) {
            Message msg = m.nextMessage(Math.max(1, deadline - System.currentTimeMillis()));
            if (msg != null && msg.getBody() != null) {
                return msg;
            }
        }
        throw new AssertionError("no groupchat message within " + WAIT_MS + " ms");
    }

    /** Every message {@code c} receives from now on: bodies, and "[retract ID]" for a moderation notice. */
    private static List<String> everythingReceivedBy(XMPPTCPConnection c) {
        List<String> seen = new CopyOnWriteArrayList<>();
        c.addSyncStanzaListener(s -> {
            Message m = (Message) s;
            if (m.getBody() != null) {
                seen.add(m.getBody());
            }
            if (m.getExtensionElement("retract", XmlNamespaces.RETRACT) != null) {
                seen.add("[retract]");
            }
        }, StanzaTypeFilter.MESSAGE);
        return seen;
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3 * WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what);
            }
            Thread.sleep(50);
        }
    }

    /** XEP-0425: a moderator's request to retract a message by its stanza-id. */
    private static final class ModerateRequest extends IQ {
        private final String stanzaId;

        ModerateRequest(Jid room, String stanzaId) {
            super("moderate", XmlNamespaces.MODERATE);
            this.stanzaId = stanzaId;
            setType(IQ.Type.set);
            setTo(room);
        }

        @Override
        protected IQChildElementXmlStringBuilder getIQChildElementBuilder(IQChildElementXmlStringBuilder xml) {
            xml.attribute("id", stanzaId);
            xml.rightAngleBracket();
            xml.append("<retract xmlns='" + XmlNamespaces.RETRACT + "'/><reason>Spam</reason>");
            return xml;
        }
    }

    @Test
    void inASlowRoomJulietWaitsBetweenHerMessagesAndRomeoDoesNot() throws Exception {
        EntityBareJid room = newRoom("mod");
        XMPPTCPConnection romeoC = server.newClient("romeo");
        XMPPTCPConnection julietC = server.newClient("juliet");
        MultiUserChat romeo = create(romeoC, room, "Romeo");
        configure(romeo, "muc#roomconfig_slow_mode_duration", 30);
        MultiUserChat juliet = join(julietC, room, "Juliet");

        RoomInfo info = MultiUserChatManager.getInstanceFor(julietC).getRoomInfo(room);
        assertThat(info.getForm().getField("muc#roominfo_slow_mode_duration").getFirstValue()).isEqualTo("30");

        julietC.sendStanza(groupchat(julietC, room, "Wherefore art thou Romeo?"));
        assertThat(nextBody(romeo).getBody()).isEqualTo("Wherefore art thou Romeo?");
        StanzaError tooSoon = errorFor(julietC, groupchat(julietC, room, "Deny thy father"));
        assertThat(tooSoon.getCondition()).isEqualTo(StanzaError.Condition.policy_violation);
        assertThat(tooSoon.getType()).isEqualTo(StanzaError.Type.WAIT);
        assertThat(tooSoon.getDescriptiveText()).contains("slow mode").contains("30 seconds between messages").contains("try again in");

        // Romeo owns the room, so he moderates it: never slowed down.
        romeoC.sendStanza(groupchat(romeoC, room, "I take thee at thy word"));
        romeoC.sendStanza(groupchat(romeoC, room, "Call me but love"));
        assertThat(nextBody(juliet).getBody()).isEqualTo("Wherefore art thou Romeo?");
        assertThat(nextBody(juliet).getBody()).isEqualTo("I take thee at thy word");
        assertThat(nextBody(juliet).getBody()).isEqualTo("Call me but love");
    }

    @Test
    void guestsTogetherOverTheRoomsBudgetAreToldTheRoomIsOveractive() throws Exception {
        EntityBareJid room = newRoom("mod");
        XMPPTCPConnection romeoC = server.newClient("romeo");
        XMPPTCPConnection mercutioC = server.newClient("mercutio");
        XMPPTCPConnection benvolioC = server.newClient("benvolio");
        MultiUserChat romeo = create(romeoC, room, "Romeo");   // his join made the room: he enters its owner, not counted
        join(mercutioC, room, "Mercutio");              // 1 of the room's 8
        join(benvolioC, room, "Benvolio");              // 2
        for (int i = 0; i < 6; i++) {                   // 3..8
            XMPPTCPConnection guest = i % 2 == 0 ? mercutioC : benvolioC;
            guest.sendStanza(groupchat(guest, room, "line " + i));
            assertThat(nextBody(romeo).getBody()).isEqualTo("line " + i);
        }
        // Neither guest has sent more than three messages, far within his own rate; together they spent the room's budget.
        StanzaError overactive = errorFor(mercutioC, groupchat(mercutioC, room, "one more"));
        assertThat(overactive.getCondition()).isEqualTo(StanzaError.Condition.policy_violation);
        assertThat(overactive.getType()).isEqualTo(StanzaError.Type.WAIT);
        assertThat(overactive.getDescriptiveText()).contains("The room is currently overactive, please try again later");

        // The owner is not counted (as mod_muc_limits skips affiliated users).
        romeoC.sendStanza(groupchat(romeoC, room, "Peace"));
        assertThat(nextBody(romeo).getBody()).isEqualTo("Peace");
    }

    @Test
    void aHeldLineReachesTheOthersAfterTheModeratorsAnswerAndSpamTheModeratorRetractsReachesNobody() throws Exception {
        EntityBareJid room = newRoom("mod");
        XMPPTCPConnection princeC = server.newClient("prince");
        XMPPTCPConnection mercutioC = server.newClient("mercutio");
        XMPPTCPConnection benvolioC = server.newClient("benvolio");
        MultiUserChat prince = create(princeC, room, "Prince");
        configure(prince, "muc#roomconfig_moderation_delay", DELAY_SECONDS);
        MultiUserChat mercutio = join(mercutioC, room, "Mercutio");
        join(benvolioC, room, "Benvolio");
        List<String> benvolio = everythingReceivedBy(benvolioC);

        mercutioC.sendStanza(groupchat(mercutioC, room, "A plague o' both your houses"));
        mercutioC.sendStanza(groupchat(mercutioC, room, "Cheap swords at mercutio.example"));
        // The Prince, a moderator, gets both at once; Mercutio his echoes.
        assertThat(nextBody(prince).getBody()).isEqualTo("A plague o' both your houses");
        Message spam = nextBody(prince);
        assertThat(spam.getBody()).isEqualTo("Cheap swords at mercutio.example");
        assertThat(nextBody(mercutio).getBody()).isEqualTo("A plague o' both your houses");

        princeC.createStanzaCollectorAndSend(new ModerateRequest(room, StanzaIdElement.getStanzaId(spam).getId()))
                .nextResultOrThrow(WAIT_MS);
        princeC.sendStanza(groupchat(princeC, room, "Rebellious subjects"));

        // Benvolio hears the Prince at once, Mercutio's line only at its release, and never the spam.
        awaitTrue(() -> benvolio.contains("A plague o' both your houses"), "Benvolio never got the held line: " + benvolio);
        assertThat(benvolio).containsExactly("Rebellious subjects", "A plague o' both your houses");
        // Past the spam's release: a line of the Prince's is the next thing Benvolio gets.
        Thread.sleep(2_000);
        princeC.sendStanza(groupchat(princeC, room, "Peace"));
        awaitTrue(() -> benvolio.contains("Peace"), "Benvolio never got the Prince's last line: " + benvolio);
        assertThat(benvolio).as("neither the spam nor its retraction")
                .containsExactly("Rebellious subjects", "A plague o' both your houses", "Peace");
    }
}
