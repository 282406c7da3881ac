package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.XMPPException.XMPPErrorException;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.StanzaIdFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.iqrequest.AbstractIqRequestHandler;
import org.jivesoftware.smack.iqrequest.IQRequestHandler;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.packet.StanzaError;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.delay.packet.DelayInformation;
import org.jivesoftware.smackx.disco.ServiceDiscoveryManager;
import org.jivesoftware.smackx.disco.packet.DiscoverInfo;
import org.jivesoftware.smackx.disco.packet.DiscoverItems;
import org.jivesoftware.smackx.muc.MucEnterConfiguration;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.muc.RoomInfo;
import org.jivesoftware.smackx.muc.UserStatusListener;
import org.jivesoftware.smackx.muc.packet.MUCUser;
import org.jivesoftware.smackx.ping.packet.Ping;
import org.jivesoftware.smackx.sid.element.OriginIdElement;
import org.jivesoftware.smackx.sid.element.StanzaIdElement;
import org.jivesoftware.smackx.xdata.form.FillableForm;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.EntityFullJid;
import org.jxmpp.jid.Jid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.testing.Await;
import org.reconmuc.component.transport.ExternalComponentConnection;

/**
 * XEP-0045 as real Smack clients see it, through a real XMPP server with ReConMUC attached as
 * an external component. Each subclass names the server; the conversation is the same.
 */
abstract class MucConformanceIT extends LiveServiceIT {
    private static final long WAIT_MS = 10_000;
    /** Small on purpose, so the oversized-stanza test does not need megabytes. */
    static final int MAX_STANZA_BYTES = 16 * 1024;


    /** True if the component sends its broadcasts through this server's XEP-0033 multicast. */
    boolean carriesBroadcastsByMulticast() {
        return true;
    }

    @Override
    ServiceConfig configured(ServiceConfig c) {
        return c.toBuilder().historySize(100).maxStanzaBytes(MAX_STANZA_BYTES).messageRate(5.0, 10)
                .reconnectMaxBackoff(Duration.ofSeconds(2)).build();
    }

    // ---- helpers ---------------------------------------------------------------------------

    private XMPPTCPConnection client(String name) throws Exception {
        return server.newClient(name);
    }

    private static MultiUserChat muc(XMPPTCPConnection c, EntityBareJid room) {
        return MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
    }

    /** Joins as the creator: an instant room (XEP-0045 §10.1.2). */
    private static MultiUserChat create(XMPPTCPConnection c, EntityBareJid room, String nick) throws Exception {
        MultiUserChat m = muc(c, room);
        MultiUserChat.MucCreateConfigFormHandle handle = m.createOrJoin(Resourcepart.from(nick));
        assertThat(handle).as("status 201: the room was created").isNotNull();
        handle.makeInstant();
        return m;
    }

    private static MultiUserChat join(XMPPTCPConnection c, EntityBareJid room, String nick) throws Exception {
        MultiUserChat m = muc(c, room);
        m.join(Resourcepart.from(nick));
        return m;
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

    private static Message groupchat(XMPPTCPConnection c, Jid to, String body) {
        return c.getStanzaFactory().buildMessageStanza().to(to).ofType(Message.Type.groupchat).setBody(body).build();
    }

    private static Message chat(XMPPTCPConnection c, Jid to, String body) {
        return c.getStanzaFactory().buildMessageStanza().to(to).ofType(Message.Type.chat).setBody(body).build();
    }

    // ---- join, messages, history -----------------------------------------------------------------

    @Test
    void romeoCreatesARoomJulietJoinsAndTheyChatWithRoomStanzaIds() throws Exception {
        EntityBareJid room = newRoom("room");
        XMPPTCPConnection romeoC = client("romeo");
        XMPPTCPConnection julietC = client("juliet");
        MultiUserChat romeo = create(romeoC, room, "Romeo");
        MultiUserChat juliet = join(julietC, room, "Juliet");
        // Smack marks the join done before it records its own presence: wait for it.
        awaitTrue(() -> juliet.getOccupantsCount() == 2);
        assertThat(juliet.getOccupants()).extracting(j -> j.getResourceOrThrow().toString())
                .containsExactlyInAnyOrder("Romeo", "Juliet");

        Message sent = julietC.getStanzaFactory().buildMessageStanza().to(room).ofType(Message.Type.groupchat)
                .setBody("Wherefore art thou Romeo?").build();
        OriginIdElement origin = OriginIdElement.addOriginId(sent);
        juliet.sendMessage(sent);

        Message atRomeo = nextBody(romeo);
        Message echo = nextBody(juliet);
        assertThat(atRomeo.getBody()).isEqualTo("Wherefore art thou Romeo?");
        assertThat(atRomeo.getFrom().toString()).isEqualTo(room + "/Juliet");
        StanzaIdElement id = StanzaIdElement.getStanzaId(atRomeo);
        assertThat(id).isNotNull();
        assertThat(id.getBy()).isEqualTo(room.toString());
        assertThat(StanzaIdElement.getStanzaId(echo).getId()).isEqualTo(id.getId());
        assertThat(OriginIdElement.getOriginId(atRomeo).getId()).isEqualTo(origin.getId());
        assertThat(echo.getStanzaId()).as("the echo keeps the sender's id").isEqualTo(sent.getStanzaId());
    }

    @Test
    void aNewRoomIsLockedUntilItsOwnerAcceptsTheInstantRoom() throws Exception {
        EntityBareJid room = newRoom("room");
        MultiUserChat.MucCreateConfigFormHandle handle = muc(client("romeo"), room).createOrJoin(Resourcepart.from("Romeo"));
        assertThat(handle).as("status 201").isNotNull();
        XMPPTCPConnection julietC = client("juliet");
        assertThatThrownBy(() -> join(julietC, room, "Juliet"))
                .isInstanceOfSatisfying(XMPPErrorException.class, e -> {
                    assertThat(e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.item_not_found);
                    assertThat(e.getStanzaError().getDescriptiveText()).contains("locked");
                });
        handle.makeInstant();
        assertThat(join(julietC, room, "Juliet").isJoined()).isTrue();
    }

    @Test
    void aLateJoinerGetsTheRequestedHistoryWithDelaysThenTheSubject() throws Exception {
        EntityBareJid room = newRoom("room");
        XMPPTCPConnection romeoC = client("romeo");
        MultiUserChat romeo = create(romeoC, room, "Romeo");
        romeo.changeSubject("Verona");
        for (int i = 1; i <= 4; i++) {
            romeo.sendMessage("line " + i);
            nextBody(romeo);
        }
        XMPPTCPConnection julietC = client("juliet");
        MultiUserChat juliet = muc(julietC, room);
        MucEnterConfiguration conf = juliet.getEnterConfigurationBuilder(Resourcepart.from("Juliet"))
                .requestMaxStanzasHistory(2).build();
        juliet.join(conf);
        Message first = nextBody(juliet);
        Message second = nextBody(juliet);
        assertThat(List.of(first.getBody(), second.getBody())).containsExactly("line 3", "line 4");
        DelayInformation delay = DelayInformation.from(first);
        assertThat(delay).as("history carries XEP-0203 delay").isNotNull();
        assertThat(delay.getFrom()).isEqualTo(room.toString());
        assertThat(StanzaIdElement.getStanzaId(first)).isNotNull();
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (juliet.getSubject() == null && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(juliet.getSubject()).isEqualTo("Verona");
    }

    /**
     * Smack 4.4.8's own {@code changeNickname()} times out against every MUC (verified against
     * Prosody's native MUC too): it holds the room's lock while its presence listener needs it
     * for the 303. So Juliet sends the nick-change presence herself, as XEP-0045 §7.6 has it.
     */
    @Test
    void nickChangeIsSeenByOthersAsA303() throws Exception {
        EntityBareJid room = newRoom("room");
        MultiUserChat romeo = create(client("romeo"), room, "Romeo");
        XMPPTCPConnection julietC = client("juliet");
        join(julietC, room, "Juliet");
        List<String> changes = new CopyOnWriteArrayList<>();
        romeo.addParticipantStatusListener(new org.jivesoftware.smackx.muc.ParticipantStatusListener() {
            @Override
            public void nicknameChanged(EntityFullJid participant, Resourcepart newNickname) {
                changes.add(participant.getResourceOrThrow() + "->" + newNickname);
            }
        });
        EntityFullJid jules = JidCreate.entityFullFrom(room, Resourcepart.from("Jules"));
        Presence rename = julietC.getStanzaFactory().buildPresenceStanza().to(jules).build();
        StanzaCollector self = julietC.createStanzaCollectorAndSend(new AndFilter(StanzaTypeFilter.PRESENCE,
                FromMatchesFilter.createFull(jules)), rename);
        try {
            Presence reflected = self.nextResult(WAIT_MS);
            assertThat(reflected).as("presence from the new nick").isNotNull();
            assertThat(reflected.getType()).isEqualTo(Presence.Type.available);
            assertThat(MUCUser.from(reflected).getStatus()).contains(MUCUser.Status.PRESENCE_TO_SELF_110);
        } finally {
            self.cancel();
        }
        awaitTrue(() -> !changes.isEmpty());
        assertThat(changes).containsExactly("Juliet->Jules");
        // Smack reports the 303 before it has processed the presence from the new nick.
        awaitTrue(() -> romeo.getOccupants().stream().anyMatch(j -> j.getResourceOrThrow().toString().equals("Jules")));
        assertThat(romeo.getOccupants()).extracting(j -> j.getResourceOrThrow().toString())
                .containsExactlyInAnyOrder("Romeo", "Jules");

        Presence taken = julietC.getStanzaFactory().buildPresenceStanza()
                .to(JidCreate.entityFullFrom(room, Resourcepart.from("Romeo"))).build();
        assertThat(errorFor(julietC, taken).getCondition()).isEqualTo(StanzaError.Condition.conflict);
    }

    @Test
    void aTakenNickIsAConflictAndLeavingIsSeen() throws Exception {
        EntityBareJid room = newRoom("room");
        MultiUserChat romeo = create(client("romeo"), room, "Romeo");
        XMPPTCPConnection tybaltC = client("tybalt");
        assertThatThrownBy(() -> join(tybaltC, room, "Romeo"))
                .isInstanceOfSatisfying(XMPPErrorException.class, e ->
                        assertThat(e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.conflict));
        MultiUserChat juliet = join(client("juliet"), room, "Juliet");
        awaitTrue(() -> romeo.getOccupantsCount() == 2);
        juliet.leave();
        awaitTrue(() -> romeo.getOccupantsCount() == 1);
    }

    @Test
    void privateMessagesReachOnlyTheNamedOccupant() throws Exception {
        EntityBareJid room = newRoom("room");
        XMPPTCPConnection romeoC = client("romeo");
        XMPPTCPConnection julietC = client("juliet");
        create(romeoC, room, "Romeo");
        join(julietC, room, "Juliet");
        EntityFullJid romeoInRoom = JidCreate.entityFullFrom(room, Resourcepart.from("Romeo"));
        StanzaCollector atJuliet = julietC.createStanzaCollector(new AndFilter(StanzaTypeFilter.MESSAGE,
                FromMatchesFilter.createFull(romeoInRoom)));
        try {
            romeoC.sendStanza(chat(romeoC, JidCreate.entityFullFrom(room, Resourcepart.from("Juliet")), "psst"));
            Message pm = atJuliet.nextResult(WAIT_MS);
            assertThat(pm).isNotNull();
            assertThat(pm.getBody()).isEqualTo("psst");
            assertThat(pm.getType()).isEqualTo(Message.Type.chat);
            assertThat(MUCUser.from(pm)).as("XEP-0045 §7.5 marks MUC PMs").isNotNull();
        } finally {
            atJuliet.cancel();
        }
        StanzaError error = errorFor(romeoC, chat(romeoC, JidCreate.entityFullFrom(room, Resourcepart.from("Mercutio")), "?"));
        assertThat(error.getCondition()).isEqualTo(StanzaError.Condition.item_not_found);
        assertThat(error.getDescriptiveText()).contains("Mercutio");
    }

    /**
     * Romeo speaks to a room of three: Juliet and the Nurse each get the message as a stanza of
     * their own — their own 'to', no XEP-0033 {@code <addresses/>} left on it, and but for the 'to'
     * the same text — whether the server's multicast service made the copies (Prosody with our
     * module, ejabberd's mod_multicast) or the component sent each one (Openfire).
     */
    @Test
    void aBroadcastReachesEachOccupantAsAStanzaOfItsOwnWhicheverWayItTravelled() throws Exception {
        ExternalComponentConnection link = live.connection();
        if (link != null && carriesBroadcastsByMulticast()) {
            Await.until(() -> link.multicastService() != null, Duration.ofSeconds(30), "the server's multicast service to be found");
        }
        long multicastBefore = link == null ? 0 : link.multicastStanzas();
        EntityBareJid room = newRoom("room");
        XMPPTCPConnection romeoC = client("romeo");
        XMPPTCPConnection julietC = client("juliet");
        XMPPTCPConnection nurseC = client("nurse");
        MultiUserChat romeo = create(romeoC, room, "Romeo");
        MultiUserChat juliet = join(julietC, room, "Juliet");
        MultiUserChat nurse = join(nurseC, room, "Nurse");

        romeo.sendMessage("Lady, by yonder blessed moon I vow");

        Message toJuliet = nextBody(juliet);
        Message toNurse = nextBody(nurse);
        assertThat(toJuliet.getTo().toString()).isEqualTo(julietC.getUser().toString());
        assertThat(toNurse.getTo().toString()).isEqualTo(nurseC.getUser().toString());
        for (Message copy : List.of(toJuliet, toNurse)) {
            assertThat(copy.getExtensionElement("addresses", "http://jabber.org/protocol/address") == null)
                    .as("no XEP-0033 addresses left on %s", copy.toXML()).isTrue();
        }
        assertThat(toJuliet.toXML().toString().replace(julietC.getUser().toString(), "(to)"))
                .isEqualTo(toNurse.toXML().toString().replace(nurseC.getUser().toString(), "(to)"));
        if (link != null) {
            assertThat(link.multicastStanzas() > multicastBefore).as("went through the server's multicast")
                    .isEqualTo(carriesBroadcastsByMulticast());
        }
    }

    /**
     * Tybalt takes Juliet's nick once she has left and corrects her line (XEP-0308): refused with
     * forbidden, and nobody sees it; his own message comes without the legacy delay he forged.
     */
    @Test
    void nobodyCorrectsSomeoneElsesMessageEvenUnderHerNick() throws Exception {
        EntityBareJid room = newRoom("room");
        XMPPTCPConnection romeoC = client("romeo");
        MultiUserChat romeo = create(romeoC, room, "Romeo");
        XMPPTCPConnection julietC = client("juliet");
        MultiUserChat juliet = join(julietC, room, "Juliet");
        Message line = groupchat(julietC, room, "meet me at noon");
        line.setStanzaId("juliet-1");
        julietC.sendStanza(line);
        assertThat(nextBody(romeo).getBody()).isEqualTo("meet me at noon");
        juliet.leave();
        awaitTrue(() -> romeo.getOccupantsCount() == 1);

        XMPPTCPConnection tybaltC = client("tybalt");
        join(tybaltC, room, "Juliet");
        Message forged = tybaltC.getStanzaFactory().buildMessageStanza().to(room).ofType(Message.Type.groupchat)
                .setBody("meet me at midnight")
                .addExtension(StandardExtensionElement.builder("replace", "urn:xmpp:message-correct:0")
                        .addAttribute("id", "juliet-1").build())
                .build();
        assertThat(errorFor(tybaltC, forged).getCondition()).isEqualTo(StanzaError.Condition.forbidden);

        tybaltC.sendStanza(tybaltC.getStanzaFactory().buildMessageStanza().to(room).ofType(Message.Type.groupchat)
                .setBody("hello")
                .addExtension(StandardExtensionElement.builder("x", "jabber:x:delay")
                        .addAttribute("stamp", "20010101T00:00:00").build())
                .build());
        Message next = nextBody(romeo);
        assertThat(next.getBody()).as("the refused correction reached nobody").isEqualTo("hello");
        assertThat(next.getExtensionElement("x", "jabber:x:delay")).as("only the room says when").isNull();
    }

    // ---- moderation -----------------------------------------------------------------------------

    @Test
    void theOwnerKicksAndBansAndABannedUserCannotReturn() throws Exception {
        EntityBareJid room = newRoom("room");
        MultiUserChat romeo = create(client("romeo"), room, "Romeo");
        XMPPTCPConnection tybaltC = client("tybalt");
        MultiUserChat tybalt = join(tybaltC, room, "Tybalt");
        XMPPTCPConnection mercutioC = client("mercutio");
        MultiUserChat mercutio = join(mercutioC, room, "Mercutio");
        List<String> happened = new CopyOnWriteArrayList<>();
        tybalt.addUserStatusListener(new UserStatusListener() {
            @Override
            public void kicked(Jid actor, String reason) {
                happened.add("kicked:" + reason);
            }
        });
        mercutio.addUserStatusListener(new UserStatusListener() {
            @Override
            public void banned(Jid actor, String reason) {
                happened.add("banned:" + reason);
            }
        });
        assertThatThrownBy(() -> tybalt.kickParticipant(Resourcepart.from("Mercutio"), "no"))
                .isInstanceOfSatisfying(XMPPErrorException.class, e ->
                        assertThat(e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.forbidden));
        assertThatThrownBy(() -> romeo.kickParticipant(Resourcepart.from("Benvolio"), "who?"))
                .isInstanceOfSatisfying(XMPPErrorException.class, e ->
                        assertThat(e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.item_not_found));

        romeo.kickParticipant(Resourcepart.from("Tybalt"), "fighting");
        romeo.banUser(mercutioC.getUser().asBareJid(), "plague");
        awaitTrue(() -> happened.size() == 2);
        assertThat(happened).containsExactlyInAnyOrder("kicked:fighting", "banned:plague");
        awaitTrue(() -> romeo.getOccupantsCount() == 1);

        assertThatThrownBy(() -> join(mercutioC, room, "Mercutio2"))
                .isInstanceOfSatisfying(XMPPErrorException.class, e ->
                        assertThat(e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.forbidden));
        join(tybaltC, room, "Tybalt"); // a kick is not a ban
    }

    @Test
    void anAdminCannotKickTheOwner() throws Exception {
        EntityBareJid room = newRoom("room");
        MultiUserChat romeo = create(client("romeo"), room, "Romeo");
        XMPPTCPConnection julietC = client("juliet");
        MultiUserChat juliet = join(julietC, room, "Juliet");
        romeo.grantAdmin(julietC.getUser().asBareJid());
        assertThatThrownBy(() -> juliet.kickParticipant(Resourcepart.from("Romeo"), "coup"))
                .isInstanceOfSatisfying(XMPPErrorException.class, e ->
                        assertThat(e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.not_allowed));
    }

    @Test
    void aMembersOnlyRoomRequiresMembership() throws Exception {
        EntityBareJid room = newRoom("room");
        MultiUserChat romeo = create(client("romeo"), room, "Romeo");
        romeo.getConfigFormManager().makeMembersOnly().submitConfigurationForm();
        XMPPTCPConnection julietC = client("juliet");
        assertThatThrownBy(() -> join(julietC, room, "Juliet"))
                .isInstanceOfSatisfying(XMPPErrorException.class, e -> assertThat(e.getStanzaError().getCondition())
                        .isEqualTo(StanzaError.Condition.registration_required));
        romeo.grantMembership(julietC.getUser().asBareJid());
        join(julietC, room, "Juliet");
        RoomInfo info = MultiUserChatManager.getInstanceFor(julietC).getRoomInfo(room);
        assertThat(info.isMembersOnly()).isTrue();
    }

    @Test
    void aParticipantWhoseVoiceWasRevokedDoesNotGetItBackByRegistering() throws Exception {
        // Issue 33: registering made anyone a member, and membership gave voice back.
        EntityBareJid room = newRoom("room");
        MultiUserChat romeo = create(client("romeo"), room, "Romeo");
        XMPPTCPConnection julietC = client("juliet");
        MultiUserChat juliet = join(julietC, room, "Juliet");
        romeo.revokeVoice(Resourcepart.from("Juliet"));
        assertThatThrownBy(juliet::getRegistrationForm)
                .isInstanceOfSatisfying(XMPPErrorException.class, e -> assertThat(e.getStanzaError().getCondition())
                        .isEqualTo(StanzaError.Condition.registration_required));

        // Romeo opens registration: Juliet registers, becomes a member, and is still a visitor.
        FillableForm config = romeo.getConfigurationForm().getFillableForm();
        config.setAnswer("reconmuc#roomconfig_allowregister", true);
        romeo.sendConfigurationForm(config);
        FillableForm registration = juliet.getRegistrationForm().getFillableForm();
        registration.setAnswer("muc#register_roomnick", "Juliet");
        juliet.sendRegistrationForm(registration);
        assertThat(romeo.getMembers()).extracting(a -> a.getJid().toString())
                .containsExactly(julietC.getUser().asBareJid().toString());
        assertThat(errorFor(julietC, groupchat(julietC, room, "hear me")).getCondition())
                .isEqualTo(StanzaError.Condition.forbidden);
    }

    @Test
    void aPasswordProtectedRoomChecksThePassword() throws Exception {
        EntityBareJid room = newRoom("room");
        MultiUserChat romeo = create(client("romeo"), room, "Romeo");
        romeo.getConfigFormManager().setAndEnablePassword("capulet").submitConfigurationForm();
        XMPPTCPConnection julietC = client("juliet");
        MultiUserChat juliet = muc(julietC, room);
        assertThatThrownBy(() -> juliet.join(Resourcepart.from("Juliet"), "montague"))
                .isInstanceOfSatisfying(XMPPErrorException.class, e ->
                        assertThat(e.getStanzaError().getCondition()).isEqualTo(StanzaError.Condition.not_authorized));
        juliet.join(Resourcepart.from("Juliet"), "capulet");
        assertThat(juliet.isJoined()).isTrue();
    }

    @Test
    void theOwnerDestroysTheRoom() throws Exception {
        EntityBareJid room = newRoom("room");
        MultiUserChat romeo = create(client("romeo"), room, "Romeo");
        XMPPTCPConnection julietC = client("juliet");
        MultiUserChat juliet = join(julietC, room, "Juliet");
        List<String> destroyed = new CopyOnWriteArrayList<>();
        juliet.addUserStatusListener(new UserStatusListener() {
            @Override
            public void roomDestroyed(MultiUserChat alternateMUC, String reason) {
                destroyed.add(reason);
            }
        });
        romeo.destroy("the end", null);
        awaitTrue(() -> !destroyed.isEmpty());
        assertThat(destroyed).containsExactly("the end");
        StanzaError error = errorFor(julietC, groupchat(julietC, room, "anyone?"));
        assertThat(error.getCondition()).isEqualTo(StanzaError.Condition.item_not_found);
    }

    // ---- discovery ---------------------------------------------------------------------------

    @Test
    void serviceDiscoveryShowsTheServiceAndItsRooms() throws Exception {
        EntityBareJid room = newRoom("room");
        XMPPTCPConnection romeoC = client("romeo");
        create(romeoC, room, "Romeo");
        join(client("juliet"), room, "Juliet");
        XMPPTCPConnection nurseC = client("nurse");
        ServiceDiscoveryManager disco = ServiceDiscoveryManager.getInstanceFor(nurseC);

        DiscoverInfo service = disco.discoverInfo(JidCreate.domainBareFrom(server.componentDomain()));
        assertThat(service.hasIdentity("conference", "text")).isTrue();
        assertThat(service.containsFeature("http://jabber.org/protocol/muc")).isTrue();

        DiscoverItems rooms = disco.discoverItems(JidCreate.domainBareFrom(server.componentDomain()));
        assertThat(rooms.getItems()).extracting(i -> i.getEntityID().toString()).contains(room.toString());

        RoomInfo info = MultiUserChatManager.getInstanceFor(nurseC).getRoomInfo(room);
        assertThat(info.getOccupantsCount()).isEqualTo(2);
        assertThat(info.isMembersOnly()).isFalse();
        assertThat(info.isPasswordProtected()).isFalse();
        DiscoverInfo roomInfo = disco.discoverInfo(room);
        assertThat(roomInfo.containsFeature("urn:xmpp:sid:0")).isTrue();
    }

    @Test
    void theSubjectCarriesWhenItWasSetAndOutsidersSeeAPublicRoomsOccupantsButMayNotAskThem() throws Exception {
        EntityBareJid room = newRoom("room");
        XMPPTCPConnection romeoC = client("romeo");
        MultiUserChat romeo = create(romeoC, room, "Romeo");
        romeo.changeSubject("Verona");
        XMPPTCPConnection julietC = client("juliet");
        MultiUserChat juliet = muc(julietC, room);
        StanzaCollector subjects = julietC.createStanzaCollector(new AndFilter(StanzaTypeFilter.MESSAGE,
                FromMatchesFilter.createFull(JidCreate.fullFrom(room + "/Romeo")), s -> ((Message) s).getSubject() != null));
        try {
            juliet.join(Resourcepart.from("Juliet"));
            Message subject = subjects.nextResult(WAIT_MS);
            assertThat(subject).isNotNull();
            DelayInformation delay = DelayInformation.from(subject);
            assertThat(delay).as("XEP-0203 delay on the subject (§7.2.15)").isNotNull();
            assertThat(delay.getFrom()).isEqualTo(room + "/Romeo");
        } finally {
            subjects.cancel();
        }

        XMPPTCPConnection nurseC = client("nurse");
        DiscoverItems items = ServiceDiscoveryManager.getInstanceFor(nurseC).discoverItems(room);
        assertThat(items.getItems()).extracting(i -> i.getEntityID().toString())
                .containsExactlyInAnyOrder(room + "/Romeo", room + "/Juliet");
        DiscoverInfo ask = DiscoverInfo.builder("ask-" + System.nanoTime()).to(JidCreate.fullFrom(room + "/Juliet"))
                .ofType(org.jivesoftware.smack.packet.IQ.Type.get).build();
        assertThat(errorFor(nurseC, ask).getCondition()).isEqualTo(StanzaError.Condition.bad_request);
    }

    @Test
    void smacksConfigFormManagerSetsTheRoomOwners() throws Exception {
        EntityBareJid room = newRoom("room");
        MultiUserChat romeo = create(client("romeo"), room, "Romeo");
        XMPPTCPConnection julietC = client("juliet");
        join(julietC, room, "Juliet");
        assertThat(romeo.getConfigFormManager().supportsRoomOwners()).isTrue();
        romeo.getConfigFormManager()
                .setRoomOwners(List.of(romeo.getXmppConnection().getUser().asBareJid(), julietC.getUser().asBareJid()))
                .submitConfigurationForm();
        assertThat(romeo.getOwners()).extracting(a -> a.getJid().toString())
                .contains(julietC.getUser().asBareJid().toString());
    }

    // ---- errors ------------------------------------------------------------------------------

    @Test
    void badRequestsGetTheRightErrors() throws Exception {
        EntityBareJid room = newRoom("room");
        XMPPTCPConnection romeoC = client("romeo");
        create(romeoC, room, "Romeo");
        XMPPTCPConnection tybaltC = client("tybalt");

        StanzaError notOccupant = errorFor(tybaltC, groupchat(tybaltC, room, "let me in"));
        assertThat(notOccupant.getCondition()).isEqualTo(StanzaError.Condition.not_acceptable);
        assertThat(notOccupant.getDescriptiveText()).isNotBlank();

        EntityBareJid missing = JidCreate.entityBareFrom("nowhere-" + System.nanoTime() + "@" + server.componentDomain());
        assertThat(errorFor(tybaltC, groupchat(tybaltC, missing, "hello?")).getCondition())
                .isEqualTo(StanzaError.Condition.item_not_found);

        Presence noNick = tybaltC.getStanzaFactory().buildPresenceStanza().to(room).build();
        assertThat(errorFor(tybaltC, noNick).getCondition()).isEqualTo(StanzaError.Condition.jid_malformed);

        assertThat(errorFor(romeoC, groupchat(romeoC, JidCreate.entityFullFrom(room, Resourcepart.from("Romeo")), "x"))
                .getCondition()).isEqualTo(StanzaError.Condition.bad_request);
    }

    @Test
    void anOversizedStanzaIsRefusedWithPolicyViolationAndTheRoomCarriesOn() throws Exception {
        EntityBareJid room = newRoom("room");
        XMPPTCPConnection romeoC = client("romeo");
        MultiUserChat romeo = create(romeoC, room, "Romeo");
        String big = "x".repeat(MAX_STANZA_BYTES + 1000);
        StanzaError error = errorFor(romeoC, groupchat(romeoC, room, big));
        assertThat(error.getCondition()).isEqualTo(StanzaError.Condition.policy_violation);
        romeo.sendMessage("small again");
        assertThat(nextBody(romeo).getBody()).isEqualTo("small again");
    }

    @Test
    void aFloodIsRateLimitedWithErrorsAndNothingIsLostBeforeTheLimit() throws Exception {
        EntityBareJid room = newRoom("room");
        XMPPTCPConnection romeoC = client("romeo");
        MultiUserChat romeo = create(romeoC, room, "Romeo");
        XMPPTCPConnection julietC = client("juliet");
        MultiUserChat juliet = join(julietC, room, "Juliet");
        StanzaCollector errors = romeoC.createStanzaCollector(new AndFilter(StanzaTypeFilter.MESSAGE,
                stanza -> stanza.getError() != null));
        int sent = 40;
        try {
            for (int i = 0; i < sent; i++) {
                romeo.sendMessage("flood " + i);
            }
            List<Stanza> refused = new ArrayList<>();
            Stanza s;
            while ((s = errors.nextResult(3000)) != null) {
                refused.add(s);
            }
            assertThat(refused).isNotEmpty();
            assertThat(refused).allMatch(r -> r.getError().getCondition() == StanzaError.Condition.policy_violation);
            int delivered = 0;
            Message m;
            while ((m = juliet.nextMessage(1000)) != null) {
                if (m.getBody() != null) {
                    delivered++; // the subject message at join has none
                }
            }
            assertThat(delivered + refused.size()).as("every message is either delivered or refused").isEqualTo(sent);
        } finally {
            errors.cancel();
        }
    }

    /**
     * Mallory asks Romeo, through the room, for a disco node his client does not have: Smack answers
     * item-not-found (XEP-0030). That answer is Mallory's; it is no sign that Romeo's session is gone,
     * so nobody sees him leave and he hears the room on (issue 33). (Not an IQ of an unknown
     * namespace: Smack 4.4.8 answers an empty one with XML the server refuses, and loses its stream.)
     */
    @Test
    void aDiscoNodeRomeosClientLacksIsAnsweredToMalloryAndRomeoStays() throws Exception {
        Stanza answer = malloryAsksRomeoAndRomeoStays(romeoInRoom -> DiscoverInfo.builder("node-" + System.nanoTime())
                .to(romeoInRoom).setNode("urn:example:none").ofType(org.jivesoftware.smack.packet.IQ.Type.get).build());
        assertThat(answer.getError()).as("an error: " + answer.toXML()).isNotNull();
        assertThat(answer.getError().getCondition()).isEqualTo(StanzaError.Condition.item_not_found);
    }

    /**
     * Mallory fetches Romeo's avatar through the room: as Prosody's own MUC, the room asks Romeo's
     * account, whose server answers (an empty vCard, or an error: he has none), not his client
     * (Smack's feature-not-implemented for an IQ it has no handler for); Romeo stays.
     */
    @Test
    void anAvatarFetchThroughTheRoomIsAnsweredByRomeosAccountAndRomeoStays() throws Exception {
        Stanza answer = malloryAsksRomeoAndRomeoStays(romeoInRoom -> {
            org.jivesoftware.smackx.vcardtemp.packet.VCard vCard = new org.jivesoftware.smackx.vcardtemp.packet.VCard();
            vCard.setTo(romeoInRoom);
            vCard.setType(org.jivesoftware.smack.packet.IQ.Type.get);
            return vCard;
        });
        assertThat(answer.getError() == null ? null : answer.getError().getCondition())
                .as("not Romeo's client's answer: " + answer.toXML()).isNotEqualTo(StanzaError.Condition.feature_not_implemented);
    }

    /**
     * Romeo, Juliet and Mallory are in a room; Mallory sends Romeo the request {@code ask} makes and
     * gets its answer from room/Romeo (returned); nobody sees Romeo leave, and he gets Juliet's next
     * message.
     */
    private Stanza malloryAsksRomeoAndRomeoStays(java.util.function.Function<EntityFullJid, Stanza> ask) throws Exception {
        EntityBareJid room = newRoom("room");
        MultiUserChat romeo = create(client("romeo"), room, "Romeo");
        MultiUserChat juliet = join(client("juliet"), room, "Juliet");
        XMPPTCPConnection malloryC = client("mallory");
        join(malloryC, room, "Mallory");
        awaitTrue(() -> juliet.getOccupantsCount() == 3);
        List<Presence> departures = new CopyOnWriteArrayList<>();
        juliet.addParticipantListener(p -> {
            if (p.getType() == Presence.Type.unavailable) {
                departures.add(p);
            }
        });
        EntityFullJid romeoInRoom = JidCreate.entityFullFrom(room, Resourcepart.from("Romeo"));
        Stanza request = ask.apply(romeoInRoom);
        Stanza answer;
        StanzaCollector answers = malloryC.createStanzaCollectorAndSend(new StanzaIdFilter(request.getStanzaId()), request);
        try {
            answer = answers.nextResult(WAIT_MS);
            assertThat(answer).as("Mallory gets Romeo's answer").isNotNull();
            assertThat(answer.getFrom().toString()).isEqualTo(romeoInRoom.toString());
        } finally {
            answers.cancel();
        }

        juliet.sendMessage("still with us?");
        assertThat(nextBody(romeo).getBody()).isEqualTo("still with us?");
        assertThat(departures).as("nobody saw Romeo leave").isEmpty();
        assertThat(juliet.getOccupants()).contains(romeoInRoom);
        return answer;
    }

    /**
     * The component's link to the server comes back (here the service is told so, as the link's
     * reconnection tells it) and the room pings every occupant. Romeo's client does not do XEP-0199
     * and answers service-unavailable (RFC 6120 §8.4), as his server would for a session it no longer
     * has; the room asks again with an empty groupchat message, which his server delivers to his live
     * client: Romeo stays, nobody sees him leave, and he gets the next message (issue 33).
     */
    @Test
    void romeosClientWithoutXep0199AnswersTheReconnectPingAndStays() throws Exception {
        MucService service = live.service();
        Assumptions.assumeTrue(service != null, "the service runs in the server's process: no component link");
        EntityBareJid room = newRoom("room");
        XMPPTCPConnection romeoC = client("romeo");
        romeoC.registerIQRequestHandler(new AbstractIqRequestHandler(Ping.ELEMENT, Ping.NAMESPACE,
                org.jivesoftware.smack.packet.IQ.Type.get, IQRequestHandler.Mode.sync) {
            @Override
            public org.jivesoftware.smack.packet.IQ handleIQRequest(org.jivesoftware.smack.packet.IQ request) {
                return org.jivesoftware.smack.packet.IQ.createErrorResponse(request, StanzaError.Condition.service_unavailable);
            }
        });
        MultiUserChat romeo = create(romeoC, room, "Romeo");
        MultiUserChat juliet = join(client("juliet"), room, "Juliet");
        awaitTrue(() -> juliet.getOccupantsCount() == 2);
        List<Presence> departures = new CopyOnWriteArrayList<>();
        juliet.addParticipantListener(p -> {
            if (p.getType() == Presence.Type.unavailable) {
                departures.add(p);
            }
        });
        StanzaCollector probes = romeoC.createStanzaCollector(new AndFilter(StanzaTypeFilter.MESSAGE,
                FromMatchesFilter.createBare(room), s -> ((Message) s).getBody() == null && ((Message) s).getSubject() == null));
        try {
            service.connected();
            Stanza probe = probes.nextResult(WAIT_MS);
            assertThat(probe).as("the room asks again: an empty groupchat message").isNotNull();
        } finally {
            probes.cancel();
        }

        juliet.sendMessage("still with us?");
        assertThat(nextBody(romeo).getBody()).isEqualTo("still with us?");
        assertThat(departures).as("nobody saw Romeo leave").isEmpty();
        assertThat(juliet.getOccupants()).contains(JidCreate.entityFullFrom(room, Resourcepart.from("Romeo")));
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + WAIT_MS + " ms");
            }
            Thread.sleep(20);
        }
    }
}
