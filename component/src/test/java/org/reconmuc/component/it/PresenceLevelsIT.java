package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.StanzaIdFilter;
import org.jivesoftware.smack.packet.IQ;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.testing.Await;

/**
 * Presence levels (reconmuc.md §5.17) as real Smack 4.4 clients see them through a real server:
 * each occupant's list of occupants ({@link MultiUserChat#getOccupants()}, built only from the
 * presences the room sent it) holds what its level asked for, and stays true through role
 * changes, a change of level and a relaxed occupant's requirements. Subclasses name the server.
 */
abstract class PresenceLevelsIT extends LiveServiceIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String NS = "urn:reconmuc:0";


    private static StandardExtensionElement presences(String level) {
        return StandardExtensionElement.builder("presences", NS).addAttribute("level", level).build();
    }

    private static MultiUserChat enter(XMPPTCPConnection c, EntityBareJid room, String nick, String level) throws Exception {
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
        var config = m.getEnterConfigurationBuilder(Resourcepart.from(nick)).timeoutAfter(WAIT.toMillis());
        if (level != null) {
            config.withPresence(p -> p.addExtension(presences(level)));
        }
        m.join(config.build());
        return m;
    }

    private static Set<String> occupantsSeenBy(MultiUserChat m) {
        return m.getOccupants().stream().map(j -> j.getResourceOrEmpty().toString()).collect(Collectors.toSet());
    }

    private static void awaitOccupants(MultiUserChat m, String who, String... nicks) throws InterruptedException {
        Await.until(() -> occupantsSeenBy(m).equals(Set.of(nicks)), WAIT,
                who + " sees exactly " + Set.of(nicks) + " (sees " + occupantsSeenBy(m) + ")");
    }

    private static Stanza request(XMPPTCPConnection c, Stanza stanza) throws Exception {
        StanzaCollector collector = c.createStanzaCollectorAndSend(new StanzaIdFilter(stanza.getStanzaId()), stanza);
        try {
            Stanza reply = collector.nextResult(WAIT.toMillis());
            assertThat(reply).as("a reply to " + stanza.toXML()).isNotNull();
            return reply;
        } finally {
            collector.cancel();
        }
    }

    @Test
    void eachOccupantsListHoldsWhatItsLevelAskedFor() throws Exception {
        EntityBareJid room = newRoom("levels");
        XMPPTCPConnection romeoC = server.newClient("romeo");
        MultiUserChat romeo = MultiUserChatManager.getInstanceFor(romeoC).getMultiUserChat(room);
        romeo.createOrJoin(Resourcepart.from("Romeo")).makeInstant();
        MultiUserChat juliet = enter(server.newClient("juliet"), room, "Juliet", null);
        MultiUserChat nurse = enter(server.newClient("nurse"), room, "Nurse", null);
        awaitOccupants(romeo, "Romeo", "Romeo", "Juliet", "Nurse");

        // Tybalt asks for the moderators: Romeo and himself.
        MultiUserChat tybalt = enter(server.newClient("tybalt"), room, "Tybalt", "moderators");
        awaitOccupants(tybalt, "Tybalt", "Romeo", "Tybalt");
        awaitOccupants(juliet, "Juliet", "Romeo", "Juliet", "Nurse", "Tybalt");

        // Juliet made a moderator appears to him; no longer one, she leaves his view, not the others'.
        romeo.grantModerator(Resourcepart.from("Juliet"));
        awaitOccupants(tybalt, "Tybalt", "Romeo", "Juliet", "Tybalt");
        romeo.revokeModerator(Resourcepart.from("Juliet"));
        awaitOccupants(tybalt, "Tybalt", "Romeo", "Tybalt");
        assertThat(occupantsSeenBy(nurse)).contains("Juliet");

        // Benvolio asks for nobody's, then for everyone's.
        XMPPTCPConnection benvolioC = server.newClient("benvolio");
        MultiUserChat benvolio = enter(benvolioC, room, "Benvolio", "none");
        awaitOccupants(romeo, "Romeo", "Romeo", "Juliet", "Nurse", "Tybalt", "Benvolio");
        assertThat(occupantsSeenBy(benvolio)).containsExactly("Benvolio");
        Presence all = benvolioC.getStanzaFactory().buildPresenceStanza()
                .to(JidCreate.entityFullFrom(room, Resourcepart.from("Benvolio"))).addExtension(presences("all")).build();
        benvolioC.sendStanza(all);
        awaitOccupants(benvolio, "Benvolio", "Romeo", "Juliet", "Nurse", "Tybalt", "Benvolio");

        // The Nurse, relaxed, says it in her requirements: everyone leaves her view, and she reads it back.
        XMPPTCPConnection nurseC = (XMPPTCPConnection) nurse.getXmppConnection();
        IQ set = requirements(room, IQ.Type.set, "<presences level='none'/>");
        Stanza result = request(nurseC, set);
        assertThat(((IQ) result).getType()).as(result.toXML().toString()).isEqualTo(IQ.Type.result);
        // The effective requirements end with her level (escaped where Smack keeps the payload as text:
        // whether reconmuc-smack's provider is registered depends on which tests ran before in this JVM).
        assertThat(result.toXML().toString().replace("&apos;", "'").replace("&lt;", "<").replace("&gt;", ">")).contains("<presences level='none'/>");
        awaitOccupants(nurse, "Nurse", "Nurse");
        juliet.leave();
        awaitOccupants(benvolio, "Benvolio", "Romeo", "Nurse", "Tybalt", "Benvolio");
        assertThat(occupantsSeenBy(nurse)).containsExactly("Nurse");
    }

    /** {@code <consistency-requirements/>} holding {@code inner} (XML in urn:reconmuc:0). */
    private static IQ requirements(EntityBareJid room, IQ.Type type, String inner) {
        IQ iq = new IQ("consistency-requirements", NS) {
            @Override
            protected IQChildElementXmlStringBuilder getIQChildElementBuilder(IQChildElementXmlStringBuilder xml) {
                xml.rightAngleBracket();
                xml.append(inner);
                return xml;
            }
        };
        iq.setType(type);
        iq.setTo(room);
        return iq;
    }
}
