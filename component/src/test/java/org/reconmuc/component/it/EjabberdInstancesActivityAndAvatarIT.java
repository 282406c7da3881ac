package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.jivesoftware.smack.StanzaCollector;
import org.jivesoftware.smack.StanzaListener;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.FromMatchesFilter;
import org.jivesoftware.smack.filter.StanzaFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.IQ;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.disco.ServiceDiscoveryManager;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jivesoftware.smackx.muc.packet.MUCUser;
import org.jivesoftware.smackx.vcardtemp.VCardManager;
import org.jivesoftware.smackx.vcardtemp.packet.VCard;
import org.jivesoftware.smackx.xdata.packet.DataForm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.jxmpp.jid.DomainBareJid;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.EntityFullJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.component.activity.RaiElement;
import org.reconmuc.component.testing.Await;
import org.reconmuc.servers.InstancesBehindEjabberd;

/**
 * Features that once worked on one instance only, with three behind ejabberd sharing PostgreSQL
 * (temporary rooms, two buckets each): XEP-0437 room activity indicators reach a subscriber from
 * the rooms of every instance, not only from the one holding the service's bucket; a temporary
 * room's avatar (XEP-0486) is served by its next owner after a {@code kill -9} of the instance
 * serving it. The kill comes last.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EjabberdInstancesActivityAndAvatarIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Enough rooms that they land on at least two instances (checked), so on one without the service's bucket. */
    private static final int ROOMS = 9;
    /** A real 1x1 PNG. */
    private static final byte[] PNG = java.util.Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==");
    private InstancesBehindEjabberd<ComponentJvm> cluster;
    private DomainBareJid service;

    @BeforeAll
    void start() throws Exception {
        cluster = ComponentJvm.behindEjabberd("it-ejabberd-instances-activity", List.of("a", "b", "c"),
                "--lease-seconds", "2", "--lock-new-rooms", "false",
                "--rate-messages-per-second", "1000", "--rate-burst", "1000");
        service = JidCreate.domainBareFrom(cluster.server().componentDomain());
    }

    @AfterAll
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static MultiUserChat muc(XMPPTCPConnection c, EntityBareJid room) {
        return MultiUserChatManager.getInstanceFor(c).getMultiUserChat(room);
    }

    private EntityBareJid newRoom(String prefix) throws Exception {
        return JidCreate.entityBareFrom(prefix + "-" + System.nanoTime() % 1_000_000 + "@" + service);
    }

    /**
     * A nick change (XEP-0045 §7.6) is answered from the new nick in rooms on every instance, where
     * the room's writes are fenced (the new nick is stored for its next owner before the answer
     * leaves). Sent by hand: Smack 4.4.8's {@code changeNickname} times out against every MUC.
     */
    @Test
    @Order(0)
    void romeoChangesHisNickInRoomsOnEveryInstanceAndJulietSeesIt() throws Exception {
        XMPPTCPConnection romeoC = cluster.server().newClient("romeo-nick");
        XMPPTCPConnection julietC = cluster.server().newClient("juliet-nick");
        List<EntityBareJid> rooms = new ArrayList<>();
        List<MultiUserChat> juliet = new ArrayList<>();
        for (int i = 0; i < ROOMS; i++) {
            EntityBareJid room = newRoom("orchard" + i);
            rooms.add(room);
            muc(romeoC, room).join(Resourcepart.from("Romeo"));
            MultiUserChat j = muc(julietC, room);
            j.join(Resourcepart.from("Juliet"));
            juliet.add(j);
        }
        Map<String, String> owners = new TreeMap<>(cluster.store().roomOwners());
        assertThat(Set.copyOf(rooms.stream().map(r -> owners.get(r.toString())).toList())).as("the rooms' owners " + owners)
                .hasSizeGreaterThanOrEqualTo(2);
        for (int i = 0; i < ROOMS; i++) {
            String nick = "Montague" + i;
            EntityFullJid montague = JidCreate.entityFullFrom(rooms.get(i), Resourcepart.from(nick));
            StanzaCollector answer = romeoC.createStanzaCollectorAndSend(new AndFilter(StanzaTypeFilter.PRESENCE,
                    FromMatchesFilter.createFull(montague)), romeoC.getStanzaFactory().buildPresenceStanza().to(montague).build());
            try {
                Presence p = answer.nextResultOrThrow();
                assertThat(MUCUser.from(p).getStatus()).as("the answer from " + montague).contains(MUCUser.Status.PRESENCE_TO_SELF_110);
            } finally {
                answer.cancel();
            }
            MultiUserChat j = juliet.get(i);
            Await.until(() -> j.getOccupants().stream().anyMatch(o -> o.getResourceOrEmpty().toString().equals(nick)),
                    WAIT, "Juliet to see " + nick + " in a room of " + owners.get(rooms.get(i).toString()));
            assertThat(j.getOccupants()).extracting(o -> o.getResourceOrEmpty().toString())
                    .containsExactlyInAnyOrder("Juliet", nick);
        }
    }

    @Test
    @Order(1)
    void romeoSubscribedOnceIsToldOfJulietsWordsInRoomsOnEveryInstance() throws Exception {
        XMPPTCPConnection romeoC = cluster.server().newClient("romeo");
        XMPPTCPConnection julietC = cluster.server().newClient("juliet");
        List<EntityBareJid> rooms = new ArrayList<>();
        List<MultiUserChat> juliet = new ArrayList<>();
        // Romeo makes each room (he is its owner: it owes him a notice while he is out) and leaves
        // it to Juliet, who stays, so that the temporary room stays too.
        for (int i = 0; i < ROOMS; i++) {
            EntityBareJid room = newRoom("balcony" + i);
            rooms.add(room);
            MultiUserChat romeo = muc(romeoC, room);
            romeo.join(Resourcepart.from("Romeo"));
            MultiUserChat j = muc(julietC, room);
            j.join(Resourcepart.from("Juliet"));
            juliet.add(j);
            romeo.leave();
        }
        Map<String, String> owners = new TreeMap<>(cluster.store().roomOwners());
        Set<String> instances = Set.copyOf(rooms.stream().map(r -> owners.get(r.toString())).toList());
        assertThat(instances).as("the rooms' owners " + owners).hasSizeGreaterThanOrEqualTo(2).doesNotContainNull();

        Set<String> noticed = ConcurrentHashMap.newKeySet();
        StanzaFilter fromService = new AndFilter(StanzaTypeFilter.MESSAGE, FromMatchesFilter.createFull(service),
                s -> s.getExtensionElement(RaiElement.ELEMENT, RaiElement.NAMESPACE) != null);
        StanzaListener notices = s -> ((StandardExtensionElement) s.getExtensionElement(RaiElement.ELEMENT, RaiElement.NAMESPACE))
                .getElements(RaiElement.ACTIVITY).forEach(a -> noticed.add(a.getText()));
        romeoC.addAsyncStanzaListener(notices, fromService);
        // Romeo subscribes: his presence reaches the one instance holding the service's bucket.
        romeoC.sendStanza(romeoC.getStanzaFactory().buildPresenceStanza().to(service)
                .addExtension(StandardExtensionElement.builder(RaiElement.ELEMENT, RaiElement.NAMESPACE).build()).build());
        for (int i = 0; i < ROOMS; i++) {
            juliet.get(i).sendMessage("Romeo, where art thou? (" + i + ")");
        }
        try {
            Await.until(() -> noticed.size() == ROOMS, WAIT, "a notice from each of the " + ROOMS + " rooms on " + instances);
        } finally {
            assertThat(noticed).as("the rooms that told Romeo, of those on " + owners)
                    .containsExactlyInAnyOrderElementsOf(rooms.stream().map(Object::toString).toList());
        }

        // One notice per room, however much more is said, until he joins again.
        noticed.clear();
        for (int i = 0; i < ROOMS; i++) {
            juliet.get(i).sendMessage("Wherefore art thou Romeo? (" + i + ")");
        }
        MultiUserChat back = muc(romeoC, rooms.get(0));
        back.join(Resourcepart.from("Romeo"));   // his join reaches room 0 after Juliet's words: a barrier for it
        assertThat(noticed).as("no second notice").isEmpty();
        back.leave();
        juliet.get(0).sendMessage("He came and went");
        Await.until(() -> noticed.contains(rooms.get(0).toString()), WAIT, "a new notice from room 0 after he came and went");

        romeoC.sendStanza(romeoC.getStanzaFactory().buildPresenceStanza().ofType(Presence.Type.unavailable).to(service).build());
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (cluster.store().activitySubscribers() > 0) {
            assertThat(System.nanoTime()).as("Romeo's subscription gone from the store").isLessThan(deadline);
            Thread.sleep(100);
        }
        romeoC.removeAsyncStanzaListener(notices);
    }

    @Test
    @Order(2)
    void aTemporaryRoomsAvatarIsServedByItsNextOwnerAfterAKill() throws Exception {
        XMPPTCPConnection romeoC = cluster.server().newClient("romeo2");
        XMPPTCPConnection julietC = cluster.server().newClient("juliet2");
        EntityBareJid room = newRoom("square");
        muc(romeoC, room).join(Resourcepart.from("Romeo"));
        MultiUserChat juliet = muc(julietC, room);
        juliet.join(Resourcepart.from("Juliet"));
        VCard vcard = new VCard();
        vcard.setField("FN", "Verona square");
        vcard.setAvatar(PNG, "image/png");
        vcard.setTo(room);
        vcard.setType(IQ.Type.set);
        String hash = vcard.getAvatarHash();
        romeoC.createStanzaCollectorAndSend(vcard).nextResultOrThrow();
        XMPPTCPConnection parisC = cluster.server().newClient("paris");
        assertThat(avatarHash(parisC, room)).isEqualTo(hash);

        String owner = cluster.store().roomOwners().get(room.toString());
        assertThat(owner).isNotNull();
        cluster.remove(owner).kill();
        // Juliet speaks until the room is served by its next owner (a survivor adopts the dead one's buckets).
        long deadline = System.nanoTime() + WAIT.toNanos();
        String next = owner;
        while (next == null || next.equals(owner)) {
            assertThat(System.nanoTime()).as("the room served by another instance than " + owner).isLessThan(deadline);
            juliet.sendMessage("Is anyone there?");
            Thread.sleep(250);
            next = cluster.store().roomOwners().get(room.toString());
        }

        VCard read = VCardManager.getInstanceFor(parisC).loadVCard(room);
        assertThat(read.getAvatar()).as("the avatar, from the room's next owner").isEqualTo(PNG);
        assertThat(read.getField("FN")).isEqualTo("Verona square");
        assertThat(avatarHash(parisC, room)).isEqualTo(hash);
    }

    private static String avatarHash(XMPPTCPConnection c, EntityBareJid room) throws Exception {
        DataForm roomInfo = DataForm.from(ServiceDiscoveryManager.getInstanceFor(c).discoverInfo(room),
                "http://jabber.org/protocol/muc#roominfo");
        List<String> values = roomInfo.getField("muc#roominfo_avatarhash").getValuesAsString();
        return values.isEmpty() ? null : values.get(0);
    }
}
