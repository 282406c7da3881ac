package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.XMPPException.XMPPErrorException;
import org.jivesoftware.smack.filter.StanzaIdFilter;
import org.jivesoftware.smack.packet.IQ;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.packet.StanzaError;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.muc.UserStatusListener;
import org.jivesoftware.smackx.pubsub.LeafNode;
import org.jivesoftware.smackx.pubsub.PayloadItem;
import org.jivesoftware.smackx.pubsub.PubSubManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.jxmpp.jid.BareJid;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.Jid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.rtbl.BlockList;
import org.reconmuc.component.testing.Await;
import org.reconmuc.servers.XmppServer;

/**
 * A real-time block list (as xmppbl.org runs one, and Prosody's and ejabberd's mod_muc_rtbl
 * follow it) on the server's own publish-subscribe service, followed by the component: the
 * list's admin publishes SHA-256 hashes of bare JIDs with a real Smack client, and real clients
 * see the rooms refuse, remove and let back in. Each subclass names the server.
 */
abstract class RealTimeBlockListIT extends LiveServiceIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String PUBSUB = "pubsub.localhost";
    private static final String NODE = "muc_bans_sha256";
    /** The one the Prosody configuration makes admin of its pubsub service (ejabberd lets anyone create nodes). */
    private static final String LIST_ADMIN = "rtbl-admin";

    private LeafNode list;
    private XMPPTCPConnection admin;
    /** Who the list names before the component attaches. */
    private XMPPTCPConnection spammerC;

    @Override
    ServiceConfig configured(ServiceConfig c) {
        return c.toBuilder().rtbl(PUBSUB, NODE).build();
    }

    /** The list names the spammer before the component attaches. */
    @Override
    void beforeAttach(XmppServer s) throws Exception {
        admin = s.newClient("list", b -> b.setUsernameAndPassword(LIST_ADMIN, "any"));
        spammerC = s.newClient("spammer");
        list = PubSubManager.getInstanceFor(admin, JidCreate.bareFrom(PUBSUB)).createNode(NODE);
        publish(spammerC.getUser().asBareJid());
    }

    @BeforeAll
    void theComponentHasFetchedTheList() throws Exception {
        Await.until(() -> live.service().feature(BlockList.class).size() == 1, WAIT, "the component to fetch the list");
    }

    private void publish(BareJid user) throws Exception {
        list.publish(new PayloadItem<>(sha256(user.toString()), StandardExtensionElement.builder("report", "urn:xmpp:reporting:1")
                .addAttribute("reason", "urn:xmpp:reporting:spam").build()));
    }

    /** XEP-0060 §7.2 with notify='true', which Smack's LeafNode.deleteItem does not set (Prosody notifies only then). */
    private void retract(BareJid user) throws Exception {
        IQ retract = new IQ("pubsub", "http://jabber.org/protocol/pubsub") {
            @Override
            protected IQChildElementXmlStringBuilder getIQChildElementBuilder(IQChildElementXmlStringBuilder xml) {
                xml.rightAngleBracket();
                xml.halfOpenElement("retract").attribute("node", NODE).attribute("notify", "true").rightAngleBracket();
                xml.halfOpenElement("item").attribute("id", sha256(user.toString())).closeEmptyElement();
                xml.closeElement("retract");
                return xml;
            }
        };
        retract.setType(IQ.Type.set);
        retract.setTo(JidCreate.bareFrom(PUBSUB));
        admin.createStanzaCollectorAndSend(retract).nextResultOrThrow();
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static MultiUserChat muc(XMPPTCPConnection c, EntityBareJid room) {
        return MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
    }

    private static void refusedAsListed(XMPPErrorException e) {
        assertThat(e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.forbidden);
        assertThat(e.getStanzaError().getDescriptiveText()).isEqualTo("You are banned from this service");
    }

    private static StanzaError errorFor(XMPPTCPConnection c, Stanza stanza) throws Exception {
        StanzaCollector collector = c.createStanzaCollectorAndSend(new StanzaIdFilter(stanza.getStanzaId()), stanza);
        try {
            Stanza reply = collector.nextResult(WAIT.toMillis());
            assertThat(reply).as("a reply to " + stanza.toXML()).isNotNull();
            return reply.getError();
        } finally {
            collector.cancel();
        }
    }

    @Test
    void theSpammerTheListNamedIsRefusedEntryAndMayNotSpeakWhileJulietEnters() throws Exception {
        EntityBareJid room = newRoom("lobby");
        MultiUserChat.MucCreateConfigFormHandle created = muc(server.newClient("romeo"), room).createOrJoin(Resourcepart.from("Romeo"));
        created.makeInstant();
        muc(server.newClient("juliet"), room).join(Resourcepart.from("Juliet"));

        assertThatThrownBy(() -> muc(spammerC, room).join(Resourcepart.from("Spam")))
                .isInstanceOfSatisfying(XMPPErrorException.class, RealTimeBlockListIT::refusedAsListed);
        Message spam = spammerC.getStanzaFactory().buildMessageStanza().to(room).ofType(Message.Type.groupchat)
                .setBody("cheap pills").build();
        StanzaError refused = errorFor(spammerC, spam);
        assertThat(refused.getCondition()).isEqualTo(StanzaError.Condition.forbidden);
        assertThat(refused.getDescriptiveText()).isEqualTo("You are banned from this service");
    }

    @Test
    void malloryListedWhileInsideIsRemovedAndLetBackInWhenTheListRetractsHer() throws Exception {
        EntityBareJid room = newRoom("square");
        XMPPTCPConnection romeoC = server.newClient("romeo");
        MultiUserChat romeo = muc(romeoC, room);
        romeo.createOrJoin(Resourcepart.from("Romeo")).makeInstant();
        XMPPTCPConnection malloryC = server.newClient("mallory");
        MultiUserChat mallory = muc(malloryC, room);
        mallory.join(Resourcepart.from("Mallory"));
        List<String> malloryHeard = new CopyOnWriteArrayList<>();
        mallory.addUserStatusListener(new UserStatusListener() {
            @Override
            public void kicked(Jid actor, String reason) {
                malloryHeard.add("kicked: " + reason);
            }
        });
        List<Presence> romeoSaw = new CopyOnWriteArrayList<>();
        romeo.addParticipantListener(romeoSaw::add);

        publish(malloryC.getUser().asBareJid());

        Await.until(() -> !malloryHeard.isEmpty(), WAIT, "Mallory to be removed");
        assertThat(malloryHeard).containsExactly("kicked: Banned by RTBL");
        Await.until(() -> romeoSaw.stream().anyMatch(p -> p.getType() == Presence.Type.unavailable
                && p.getFrom().getResourceOrEmpty().toString().equals("Mallory")), WAIT, "Romeo to see Mallory go");
        assertThat(romeo.getOccupants()).extracting(j -> j.getResourceOrThrow().toString()).containsExactly("Romeo");
        assertThatThrownBy(() -> muc(malloryC, room).join(Resourcepart.from("Mallory")))
                .isInstanceOfSatisfying(XMPPErrorException.class, RealTimeBlockListIT::refusedAsListed);

        retract(malloryC.getUser().asBareJid());

        Await.until(() -> live.service().feature(BlockList.class).size() == 1, WAIT, "the retraction to reach the component");
        muc(malloryC, room).join(Resourcepart.from("Mallory"));
        Await.until(() -> romeo.getOccupantsCount() == 2, WAIT, "Romeo to see Mallory back");
    }
}
