package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.StanzaFilter;
import org.jivesoftware.smack.filter.StanzaIdFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.packet.StanzaError;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.disco.packet.DiscoverInfo;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jxmpp.jid.DomainBareJid;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.activity.ActivitySubscriptions;
import org.reconmuc.component.activity.RaiElement;
import org.reconmuc.component.activity.MessageRate;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.testing.Await;
import org.reconmuc.component.testing.ShiftedClock;

/**
 * XEP-0437 room activity indicators through a real server, with real Smack clients: Juliet
 * subscribes with a presence to the service, leaves the room, and is told once that Romeo spoke,
 * until she joins again; her server ends the subscription when she goes offline; the service
 * refuses a subscriber past its limit. Each subclass names the server.
 */
abstract class RoomActivityIT extends LiveServiceIT {
    private static final long WAIT_MS = 15_000;
    private static final int MAX_SUBSCRIBERS = 2;

    /** The service's time, which the XEP-0502 conversation moves on by two hours. */
    private final ShiftedClock clock = new ShiftedClock();
    private DomainBareJid service;

    @Override
    ServiceConfig configured(ServiceConfig c) {
        return c.toBuilder().raiMaxSubscribers(MAX_SUBSCRIBERS).build();
    }

    @Override
    Clock clock() {
        return clock;
    }

    @BeforeAll
    void serviceAddress() throws Exception {
        service = JidCreate.domainBareFrom(server.componentDomain());
    }

    private static MultiUserChat muc(XMPPTCPConnection c, EntityBareJid room) {
        return MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
    }

    private Presence raiPresence(XMPPTCPConnection c) {
        return c.getStanzaFactory().buildPresenceStanza().to(service)
                .addExtension(StandardExtensionElement.builder(RaiElement.ELEMENT, RaiElement.NAMESPACE).build()).build();
    }

    /** Activity notices from the service (messages carrying {@code <rai/>}). */
    private StanzaCollector notices(XMPPTCPConnection c) {
        StanzaFilter fromService = new AndFilter(StanzaTypeFilter.MESSAGE, FromMatchesFilter.createFull(service),
                s -> s.getExtensionElement(RaiElement.ELEMENT, RaiElement.NAMESPACE) != null);
        return c.createStanzaCollector(fromService);
    }

    private static List<String> rooms(Stanza notice) {
        StandardExtensionElement rai = (StandardExtensionElement) notice.getExtensionElement(RaiElement.ELEMENT, RaiElement.NAMESPACE);
        return rai.getElements(RaiElement.ACTIVITY).stream().map(StandardExtensionElement::getText).toList();
    }

    /**
     * Juliet asks the room for its disco#info and waits for the answer: the room has handled everything
     * before it, and whatever the service sent her before the answer has reached her.
     */
    private static void barrier(XMPPTCPConnection c, EntityBareJid room) throws Exception {
        DiscoverInfo ask = DiscoverInfo.builder("barrier-" + System.nanoTime()).to(room).ofType(org.jivesoftware.smack.packet.IQ.Type.get).build();
        StanzaCollector answer = c.createStanzaCollectorAndSend(new StanzaIdFilter(ask.getStanzaId()), ask);
        try {
            assertThat((Stanza) answer.nextResult(WAIT_MS)).as("the room's disco#info").isNotNull();
        } finally {
            answer.cancel();
        }
    }

    @Test
    void julietWhoLeftIsToldOnceThatRomeoSpokeUntilSheJoinsAgain() throws Exception {
        XMPPTCPConnection romeoC = server.newClient("romeo");
        XMPPTCPConnection julietC = server.newClient("juliet");
        EntityBareJid room = newRoom("rai");
        MultiUserChat romeo = muc(romeoC, room);
        romeo.createOrJoin(Resourcepart.from("Romeo")).makeInstant();
        MultiUserChat juliet = muc(julietC, room);
        juliet.join(Resourcepart.from("Juliet"));
        StanzaCollector notices = notices(julietC);
        try {
            julietC.sendStanza(raiPresence(julietC));
            romeo.sendMessage("Juliet is here: no notice");
            barrier(julietC, room);
            assertThat((Stanza) notices.pollResult()).as("no notice for a room she is in").isNull();

            juliet.leave();
            romeo.sendMessage("Is she gone?");
            Message first = notices.nextResult(WAIT_MS);
            assertThat(first).as("the activity notice").isNotNull();
            assertThat(rooms(first)).containsExactly(room.toString());
            romeo.sendMessage("Still talking");
            barrier(julietC, room);
            assertThat((Stanza) notices.pollResult()).as("one notice per room, however much is said").isNull();

            juliet.join(Resourcepart.from("Juliet"));
            juliet.leave();
            romeo.sendMessage("She came and went");
            Message second = notices.nextResult(WAIT_MS);
            assertThat(second).as("a new notice after joining again").isNotNull();
            assertThat(rooms(second)).containsExactly(room.toString());
        } finally {
            notices.cancel();
            julietC.sendStanza(julietC.getStanzaFactory().buildPresenceStanza().ofType(Presence.Type.unavailable).to(service).build());
            Await.until(() -> live.service().feature(ActivitySubscriptions.class).size() == 0, Duration.ofMillis(WAIT_MS), "Juliet unsubscribed");
        }
    }

    /**
     * XEP-0502: Paris, outside Romeo's public persistent room, reads its messages per hour beside its
     * occupant count, once the service's clock has moved on past a completed hour (the exact figure on a
     * virtual clock: RoomMessageActivityTest).
     */
    @Test
    void parisReadsARoomsMessagesPerHourBesideItsOccupantCount() throws Exception {
        XMPPTCPConnection romeoC = server.newClient("romeo");
        XMPPTCPConnection parisC = server.newClient("paris");
        EntityBareJid room = newRoom("rai");
        MultiUserChat romeo = muc(romeoC, room);
        romeo.create(Resourcepart.from("Romeo"));
        org.jivesoftware.smackx.xdata.form.FillableForm form = romeo.getConfigurationForm().getFillableForm();
        form.setAnswer("muc#roomconfig_persistentroom", true);
        romeo.sendConfigurationForm(form);
        for (int i = 0; i < 3; i++) {
            romeo.sendMessage("news " + i);
        }
        // The room has logged all three once Romeo has their echoes (Paris's query could overtake them
        // through the server, and a message logged after the clock moves on is in no completed hour).
        for (int i = 0; i < 3; i++) {
            assertThat(romeo.nextMessage(WAIT_MS)).as("Romeo's echo of news " + i).isNotNull();
        }
        org.jivesoftware.smackx.disco.ServiceDiscoveryManager disco =
                org.jivesoftware.smackx.disco.ServiceDiscoveryManager.getInstanceFor(parisC);
        org.jivesoftware.smackx.xdata.packet.DataForm before = org.jivesoftware.smackx.xdata.packet.DataForm.from(disco.discoverInfo(room), "http://jabber.org/protocol/muc#roominfo");
        assertThat(before.getField("muc#roominfo_occupants").getFirstValue()).isEqualTo("1");
        assertThat(before.getField(MessageRate.FIELD)).as("no figure within the first hour").isNull();

        // Two hours on: between one and two completed hours cover the room's three messages.
        clock.advance(Duration.ofHours(2));
        org.jivesoftware.smackx.xdata.packet.DataForm after = org.jivesoftware.smackx.xdata.packet.DataForm.from(disco.discoverInfo(room), "http://jabber.org/protocol/muc#roominfo");
        org.jivesoftware.smackx.xdata.FormField activity = after.getField(MessageRate.FIELD);
        assertThat(activity).as("the messages per hour").isNotNull();
        assertThat(activity.getLabel()).isEqualTo(MessageRate.LABEL);
        assertThat(Double.parseDouble(activity.getFirstValue())).isBetween(1.5, 3.0);
        assertThat(after.getField("muc#roominfo_occupants").getFirstValue()).isEqualTo("1");
        romeo.destroy("done", null);
    }

    @Test
    void julietsServerEndsHerSubscriptionWhenSheGoesOffline() throws Exception {
        XMPPTCPConnection julietC = server.newClient("juliet");
        julietC.sendStanza(raiPresence(julietC));
        Await.until(() -> live.service().feature(ActivitySubscriptions.class).size() == 1, Duration.ofMillis(WAIT_MS), "Juliet subscribed");
        julietC.disconnect();
        Await.until(() -> live.service().feature(ActivitySubscriptions.class).size() == 0, Duration.ofMillis(WAIT_MS),
                "her server sending the service her unavailable presence (RFC 6121 §4.6.3)");
    }

    @Test
    void theServiceRefusesASubscriberPastItsLimitWithResourceConstraint() throws Exception {
        XMPPTCPConnection[] subscribers = new XMPPTCPConnection[MAX_SUBSCRIBERS];
        for (int i = 0; i < MAX_SUBSCRIBERS; i++) {
            subscribers[i] = server.newClient("reader" + i);
            subscribers[i].sendStanza(raiPresence(subscribers[i]));
        }
        Await.until(() -> live.service().feature(ActivitySubscriptions.class).size() == MAX_SUBSCRIBERS, Duration.ofMillis(WAIT_MS), "two subscribers");
        XMPPTCPConnection paris = server.newClient("paris");
        Presence ask = raiPresence(paris);
        StanzaCollector refusal = paris.createStanzaCollectorAndSend(new AndFilter(StanzaTypeFilter.PRESENCE,
                FromMatchesFilter.createFull(service)), ask);
        try {
            Presence error = refusal.nextResult(WAIT_MS);
            assertThat(error).as("the refusal").isNotNull();
            assertThat(error.getType()).isEqualTo(Presence.Type.error);
            assertThat(error.getError().getCondition()).isEqualTo(StanzaError.Condition.resource_constraint);
            assertThat(error.getError().getType()).isEqualTo(StanzaError.Type.WAIT);
            assertThat(error.getError().getDescriptiveText()).contains("rai-max-subscribers");
        } finally {
            refusal.cancel();
            for (XMPPTCPConnection c : subscribers) {
                c.disconnect();
            }
        }
        Await.until(() -> live.service().feature(ActivitySubscriptions.class).size() == 0, Duration.ofMillis(WAIT_MS), "both gone offline");
    }
}
