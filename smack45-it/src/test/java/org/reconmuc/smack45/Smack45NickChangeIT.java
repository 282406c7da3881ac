package org.reconmuc.smack45;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.muc.ParticipantStatusListener;
import org.jivesoftware.smackx.muc.packet.MUCItem;
import org.jivesoftware.smackx.muc.packet.MUCUser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.EntityFullJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.component.ReconMuc;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * Smack 4.5's MUC client (the issue: after a nick change it reported the old nick here, the new
 * one with Prosody's MUC) through one Prosody, against Prosody's own MUC and against the
 * component attached to it. The same conversation runs on both — Romeo creates a room, Juliet
 * joins, Romeo takes her voice and gives it back, Juliet changes her nick with
 * {@code changeNickname}, Jules leaves — and every presence each of them receives is compared
 * attribute by attribute (type, the occupant, the muc#user item and status codes; ids, the
 * users' random names, XEP-0421 values and the logging notice 170 aside).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Smack45NickChangeIT {
    private static final AtomicInteger USERS = new AtomicInteger();
    private static final long SETTLE_MS = 400;
    private XmppServer server;
    private ReconMuc component;
    private final List<XMPPTCPConnection> clients = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        server = XmppServers.start("prosody", Files.createDirectories(Path.of("target", "it-smack45-prosody")));
        component = ReconMuc.start(ServiceConfig.defaults().toBuilder().server(server.host(), server.componentPort()).build()
                .withDomainAndSecret(server.componentDomain(), server.componentSecret()));
        assertThat(component.awaitConnected(Duration.ofSeconds(20))).isTrue();
    }

    @AfterAll
    void stop() {
        clients.forEach(XMPPTCPConnection::instantShutdown);
        if (component != null) {
            component.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void julietChangesHerNickAndEveryPresenceIsAsProsodysOwnMucSendsIt() throws Exception {
        Conversation prosody = converse(server.nativeMucDomain());
        Conversation ours = converse(server.componentDomain());

        assertThat(ours.julietsNickAfterwards).isEqualTo("Jules");
        assertThat(prosody.julietsNickAfterwards).isEqualTo("Jules");
        assertThat(ours.romeoSawNickChange).containsExactly("Juliet->Jules");
        assertThat(ours.romeoSawNickChange).isEqualTo(prosody.romeoSawNickChange);
        assertThat(ours.atRomeo).as("Romeo's presences, component vs Prosody's MUC").isEqualTo(prosody.atRomeo);
        assertThat(ours.atJuliet).as("Juliet's presences, component vs Prosody's MUC").isEqualTo(prosody.atJuliet);
    }

    /** What one run of the conversation left behind. */
    private record Conversation(String julietsNickAfterwards, List<String> romeoSawNickChange, List<String> atRomeo,
            List<String> atJuliet) {
    }

    private Conversation converse(String service) throws Exception {
        EntityBareJid room = JidCreate.entityBareFrom("nick" + System.nanoTime() % 100_000 + "@" + service);
        XMPPTCPConnection romeoC = client("romeo");
        XMPPTCPConnection julietC = client("juliet");
        List<String> atRomeo = recordPresences(romeoC, romeoC, julietC);
        List<String> atJuliet = recordPresences(julietC, romeoC, julietC);
        MultiUserChat romeo = MultiUserChatManager.getInstanceFor(romeoC).getMultiUserChat(room);
        List<String> nickChanges = new CopyOnWriteArrayList<>();
        romeo.addParticipantStatusListener(new ParticipantStatusListener() {
            @Override
            public void nicknameChanged(EntityFullJid participant, Resourcepart newNickname) {
                nickChanges.add(participant.getResourceOrThrow() + "->" + newNickname);
            }
        });

        MultiUserChat.MucCreateConfigFormHandle created = romeo.createOrJoin(Resourcepart.from("Romeo"));
        if (created != null) {
            created.makeInstant();
        }
        settle(atRomeo);
        MultiUserChat juliet = MultiUserChatManager.getInstanceFor(julietC).getMultiUserChat(room);
        juliet.join(Resourcepart.from("Juliet"));
        settle(atRomeo, atJuliet);
        romeo.revokeVoice(Resourcepart.from("Juliet"));
        settle(atRomeo, atJuliet);
        romeo.grantVoice(Resourcepart.from("Juliet"));
        settle(atRomeo, atJuliet);

        juliet.changeNickname(Resourcepart.from("Jules"));
        settle(atRomeo, atJuliet);
        String nickAfterwards = juliet.getNickname().toString();
        assertThat(juliet.isJoined()).isTrue();
        assertThat(romeo.getOccupants()).extracting(j -> j.getResourceOrThrow().toString())
                .containsExactlyInAnyOrder("Romeo", "Jules");

        juliet.leave();
        settle(atRomeo, atJuliet);
        romeo.leave();
        settle(atRomeo);
        return new Conversation(nickAfterwards, List.copyOf(nickChanges), List.copyOf(atRomeo), List.copyOf(atJuliet));
    }

    private XMPPTCPConnection client(String name) throws Exception {
        XMPPTCPConnection c = new XMPPTCPConnection(XMPPTCPConnectionConfiguration.builder()
                .setXmppDomain(server.loginDomain())
                .setHostAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}))
                .setPort(server.c2sPort())
                .setSecurityMode(SecurityMode.disabled)
                .setUsernameAndPassword(name + "-" + USERS.incrementAndGet(), "pw")
                .setResource(name)
                .build());
        c.setReplyTimeout(10_000);
        clients.add(c);
        c.connect().login();
        return c;
    }

    /** Every MUC presence {@code at} receives, in order, in the comparable form of {@link #describe}. */
    private static List<String> recordPresences(XMPPTCPConnection at, XMPPTCPConnection romeo, XMPPTCPConnection juliet) {
        Map<String, String> names = Map.of(romeo.getUser().toString(), "romeo", juliet.getUser().toString(), "juliet");
        List<String> seen = new CopyOnWriteArrayList<>();
        at.addSyncStanzaListener(p -> {
            if (MUCUser.from(p) != null) {
                seen.add(describe((Presence) p, names));
            }
        }, StanzaTypeFilter.PRESENCE);
        return seen;
    }

    /** A presence as attributes that must agree: type, occupant nick, the muc#user item and status codes. */
    static String describe(Presence p, Map<String, String> names) {
        MUCUser user = MUCUser.from(p);
        Map<String, String> fields = new TreeMap<>();
        fields.put("type", p.getType().toString());
        fields.put("occupant", p.getFrom().getResourceOrEmpty().toString());
        MUCItem item = user.getItem();
        if (item != null) {
            fields.put("affiliation", String.valueOf(item.getAffiliation()));
            fields.put("role", String.valueOf(item.getRole()));
            fields.put("nick", String.valueOf(item.getNick()));
            fields.put("jid", item.getJid() == null ? "hidden" : names.getOrDefault(item.getJid().toString(), "other"));
            fields.put("actor", item.getActor() == null ? "none" : names.getOrDefault(item.getActor().toString(), "other"));
            fields.put("actorNick", String.valueOf(item.getActorNick()));
            fields.put("reason", String.valueOf(item.getReason()));
        }
        TreeSet<String> codes = new TreeSet<>();
        user.getStatus().forEach(s -> codes.add(String.valueOf(s.getCode())));
        // 170 (the room is logged, XEP-0045 §7.2.12): the component says so on entry; Prosody's MUC
        // with mod_muc_mam does not. Whether a room is logged is not what this conversation compares.
        codes.remove("170");
        fields.put("status", codes.toString());
        fields.put("destroy", String.valueOf(user.getDestroy() != null));
        return fields.toString();
    }

    /** Waits until the lists have had no new entry for a moment (each step's presences have all arrived). */
    @SafeVarargs
    private static void settle(List<String>... lists) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5_000;
        int last = -1;
        long quietSince = System.currentTimeMillis();
        while (System.currentTimeMillis() < deadline) {
            int now = 0;
            for (List<String> l : lists) {
                now += l.size();
            }
            if (now != last) {
                last = now;
                quietSince = System.currentTimeMillis();
            } else if (System.currentTimeMillis() - quietSince >= SETTLE_MS) {
                return;
            }
            Thread.sleep(20);
        }
    }
}
