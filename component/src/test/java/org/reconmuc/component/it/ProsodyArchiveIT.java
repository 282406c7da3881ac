package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.XMPPException;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.StanzaError;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.mam.MamManager;
import org.jivesoftware.smackx.mam.MamManager.MamQuery;
import org.jivesoftware.smackx.mam.MamManager.MamQueryArgs;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.muc.packet.MUCInitialPresence;
import org.jivesoftware.smackx.ping.packet.Ping;
import org.jivesoftware.smackx.sid.element.StanzaIdElement;
import org.jivesoftware.smackx.xdata.FormField;
import org.jivesoftware.smackx.xdata.form.FillableForm;
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
 * XEP-0313 with Smack's own MAM client ({@code MamManager}) against the component on a real
 * Prosody, rooms kept in SQLite; and XEP-0410 after a restart of the component: a client's
 * self-ping fails, it rejoins and fetches through MAM what it missed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProsodyArchiveIT {
    private XmppServer server;
    private ServiceConfig config;
    private ReconMuc muc;
    private final AtomicInteger rooms = new AtomicInteger();

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "it-prosody-archive"));
        Files.deleteIfExists(dir.resolve("rooms.db"));
        server = XmppServers.start("prosody", dir.resolve("prosody"));
        config = ServiceConfig.defaults().toBuilder().server(server.host(), server.componentPort())
                .domain(server.componentDomain()).secret(server.componentSecret())
                .store("sqlite:" + dir.resolve("rooms.db").toAbsolutePath()).build();
        muc = ReconMuc.start(config);
        assertThat(muc.awaitConnected(Duration.ofSeconds(20))).isTrue();
    }

    @AfterAll
    void stop() {
        if (muc != null) {
            muc.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private EntityBareJid newRoom() throws Exception {
        return JidCreate.entityBareFrom("archive" + rooms.incrementAndGet() + "@" + server.componentDomain());
    }

    /** Juliet creates the room and makes it persistent. */
    private MultiUserChat persistentRoom(XMPPTCPConnection c, EntityBareJid room) throws Exception {
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
        m.create(Resourcepart.from("Juliet"));
        FillableForm form = m.getConfigurationForm().getFillableForm();
        form.setAnswer("muc#roomconfig_persistentroom", true);
        m.sendConfigurationForm(form);
        return m;
    }

    private static MultiUserChat join(XMPPTCPConnection c, EntityBareJid room, String nick) throws Exception {
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
        m.join(m.getEnterConfigurationBuilder(Resourcepart.from(nick)).requestNoHistory().build());
        return m;
    }

    private static List<String> bodies(List<Message> messages) {
        return messages.stream().map(Message::getBody).collect(Collectors.toList());
    }

    /** Sends and waits for the room's echo (the room accepted and stored it). */
    private static Message say(XMPPTCPConnection c, MultiUserChat m, String body) throws Exception {
        StanzaCollector echo = c.createStanzaCollector(new AndFilter(StanzaTypeFilter.MESSAGE,
                FromMatchesFilter.createBare(m.getRoom()), s -> body.equals(((Message) s).getBody())));
        try {
            m.sendMessage(body);
            Message e = echo.nextResult(10_000);
            assertThat(e).as("the echo of " + body).isNotNull();
            return e;
        } finally {
            echo.cancel();
        }
    }

    @Test
    void smacksMamClientPagesThroughAPersistentRoomsArchive() throws Exception {
        EntityBareJid room = newRoom();
        XMPPTCPConnection julietC = server.newClient("juliet");
        MultiUserChat juliet = persistentRoom(julietC, room);
        Date tenth = null;
        for (int i = 0; i < 25; i++) {
            if (i == 10) {
                tenth = new Date();
            }
            say(julietC, juliet, "m" + i);
            Thread.sleep(110);   // within the default rate limit (10 a second)
        }
        XMPPTCPConnection romeoC = server.newClient("romeo");
        MultiUserChat romeo = join(romeoC, room, "Romeo");
        MamManager mam = MamManager.getInstanceFor(romeo);
        assertThat(mam.isSupported()).isTrue();
        assertThat(mam.retrieveFormFields().stream().map(FormField::getFieldName)).contains("with", "start", "end");

        MamQuery query = mam.queryArchive(MamQueryArgs.builder().setResultPageSize(10).build());
        assertThat(bodies(query.getMessages())).containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9");
        assertThat(query.isComplete()).isFalse();
        assertThat(query.getMessages().get(0).getFrom().toString()).isEqualTo(room + "/Juliet");
        assertThat(query.getPage().getForwarded().get(0).getDelayInformation()).isNotNull();
        assertThat(bodies(query.pageNext(10))).containsExactly("m10", "m11", "m12", "m13", "m14", "m15", "m16", "m17",
                "m18", "m19");
        assertThat(bodies(query.pageNext(10))).containsExactly("m20", "m21", "m22", "m23", "m24");
        assertThat(query.isComplete()).isTrue();

        MamQuery last = mam.queryMostRecentPage(null, 5);
        assertThat(bodies(last.getMessages())).containsExactly("m20", "m21", "m22", "m23", "m24");
        assertThat(bodies(last.pagePrevious(5))).containsExactly("m15", "m16", "m17", "m18", "m19");

        MamQuery byJuliet = mam.queryArchive(MamQueryArgs.builder()
                .limitResultsToJid(JidCreate.from(room + "/Juliet")).limitResultsSince(tenth).build());
        assertThat(bodies(byJuliet.getMessages())).hasSize(15).startsWith("m10");
        MamQuery byRomeo = mam.queryArchive(MamQueryArgs.builder().limitResultsToJid(JidCreate.from(room + "/Romeo")).build());
        assertThat(byRomeo.getMessages()).isEmpty();
        assertThat(byRomeo.isComplete()).isTrue();

        assertThatThrownBy(() -> mam.queryArchive(MamQueryArgs.builder().afterUid("no-such-id").build()))
                .isInstanceOfSatisfying(XMPPException.XMPPErrorException.class, e -> assertThat(
                        e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.item_not_found));
    }

    @Test
    void aTemporaryRoomsArchiveIsItsHistoryInMemory() throws Exception {
        EntityBareJid room = newRoom();
        XMPPTCPConnection c = server.newClient("mercutio");
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
        m.createOrJoin(Resourcepart.from("Mercutio")).makeInstant();
        say(c, m, "a plague");
        say(c, m, "on both your houses");
        MamQuery q = MamManager.getInstanceFor(m).queryArchive(MamQueryArgs.builder().build());
        assertThat(bodies(q.getMessages())).containsExactly("a plague", "on both your houses");
        assertThat(q.isComplete()).isTrue();
    }

    @Test
    void afterARestartTheSelfPingFailsAndTheClientRejoinsAndCatchesUpThroughMam() throws Exception {
        EntityBareJid room = newRoom();
        XMPPTCPConnection julietC = server.newClient("juliet");
        MultiUserChat juliet = persistentRoom(julietC, room);
        XMPPTCPConnection romeoC = server.newClient("romeo");
        join(romeoC, room, "Romeo");
        StanzaCollector heard = romeoC.createStanzaCollector(new AndFilter(StanzaTypeFilter.MESSAGE,
                FromMatchesFilter.createBare(room), s -> ((Message) s).getBody() != null));
        say(julietC, juliet, "before the restart");
        Message seen = heard.nextResult(10_000);
        heard.cancel();
        assertThat(seen.getBody()).isEqualTo("before the restart");
        String lastSeen = StanzaIdElement.getStanzaId(seen).getId();

        muc.close();
        muc = ReconMuc.start(config);
        assertThat(muc.awaitConnected(Duration.ofSeconds(20))).isTrue();

        // XEP-0410: both clients find they are no longer in the room; Juliet rejoins first and talks.
        assertSelfPingFails(julietC, room, "Juliet");
        rejoin(julietC, room, "Juliet");
        Message missed1 = sayRaw(julietC, room, "missed 1");
        sayRaw(julietC, room, "missed 2");
        assertThat(StanzaIdElement.getStanzaId(missed1).getId()).isNotEqualTo(lastSeen);

        assertSelfPingFails(romeoC, room, "Romeo");
        rejoin(romeoC, room, "Romeo");
        MamQuery caughtUp = MamManager.getInstanceFor(romeoC, room)
                .queryArchive(MamQueryArgs.builder().afterUid(lastSeen).build());
        assertThat(bodies(caughtUp.getMessages())).containsExactly("missed 1", "missed 2");
        assertThat(caughtUp.isComplete()).isTrue();
    }

    private static void assertSelfPingFails(XMPPTCPConnection c, EntityBareJid room, String nick) throws Exception {
        Ping ping = new Ping(JidCreate.entityFullFrom(room, Resourcepart.from(nick)));
        assertThatThrownBy(() -> c.createStanzaCollectorAndSend(ping).nextResultOrThrow())
                .isInstanceOfSatisfying(XMPPException.XMPPErrorException.class, e -> assertThat(
                        e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.not_acceptable));
    }

    /** What a client does when its self-ping says it is gone: joins again (no history: MAM fills the gap). */
    private static void rejoin(XMPPTCPConnection c, EntityBareJid room, String nick) throws Exception {
        EntityFullJid occupant = JidCreate.entityFullFrom(room, Resourcepart.from(nick));
        StanzaCollector self = c.createStanzaCollector(new AndFilter(StanzaTypeFilter.PRESENCE,
                FromMatchesFilter.createFull(occupant)));
        try {
            c.sendStanza(c.getStanzaFactory().buildPresenceStanza().to(occupant)
                    .addExtension(new MUCInitialPresence(null, -1, 0, -1, null)).build());
            Presence p = self.nextResult(10_000);
            assertThat(p).isNotNull();
            assertThat(p.getType()).isEqualTo(Presence.Type.available);
        } finally {
            self.cancel();
        }
    }

    private static Message sayRaw(XMPPTCPConnection c, EntityBareJid room, String body) throws Exception {
        StanzaCollector echo = c.createStanzaCollector(new AndFilter(StanzaTypeFilter.MESSAGE,
                FromMatchesFilter.createBare(room), s -> body.equals(((Message) s).getBody())));
        try {
            c.sendStanza(c.getStanzaFactory().buildMessageStanza().to(room).ofType(Message.Type.groupchat)
                    .setBody(body).build());
            Message e = echo.nextResult(10_000);
            assertThat(e).isNotNull();
            return e;
        } finally {
            echo.cancel();
        }
    }
}
