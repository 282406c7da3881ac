package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.messages.ArchiveTest.JULIET;
import static org.reconmuc.component.muc.messages.ArchiveTest.MAM;
import static org.reconmuc.component.muc.messages.ArchiveTest.ROMEO;
import static org.reconmuc.component.muc.messages.ArchiveTest.answer;
import static org.reconmuc.component.muc.messages.ArchiveTest.field;
import static org.reconmuc.component.muc.messages.ArchiveTest.query;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.dom4j.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.messages.ArchiveTest;
import org.reconmuc.component.muc.messages.RoomArchiveFuzzTest;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.config.StoreLocation;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Persistent rooms on an SQLite store (in a temporary directory, committed by hand): nothing
 * leaves before it is stored, and a restarted service brings the room back — configuration,
 * affiliations, reserved nicknames, subject, occupant ids, history and archive.
 */
public class DurableRoomTest {
    private static final ServiceConfig CONFIG = ServiceConfig.defaults().withDomainAndSecret(MucBench.SERVICE, "x");

    @TempDir
    Path dir;
    private Store store;
    private MucBench muc;

    @BeforeEach
    void start() throws Exception {
        muc = service(Instant.parse("2026-01-01T10:00:00Z"));
    }

    @AfterEach
    void stop() {
        store.close();
    }

    private MucBench service(Instant now) throws Exception {
        store = Store.openWithoutThreads(StoreLocation.parse("sqlite:" + dir.resolve("rooms.db")));
        return new MucBench(CONFIG, now, store);
    }

    /** The process ends (nothing queued is committed) and a new one starts on the same file. */
    private MucBench restart() throws Exception {
        Instant now = muc.clock.instant().plus(Duration.ofMinutes(5));
        store.close();
        muc = service(now);
        return muc;
    }

    private void configure(String user, String fields) {
        muc.send("<iq type='set' id='cfg' from='" + user + "' to='" + ROOM + "'><query xmlns='" + Namespaces.MUC_OWNER
                + "'><x xmlns='jabber:x:data' type='submit'>" + fields + "</x></query></iq>");
    }

    private void makePersistent() {
        configure(JULIET, field("muc#roomconfig_persistentroom", "1"));
        muc.commit();
        muc.clear();
    }

    private List<String> bodies(List<Packet> packets) {
        return packets.stream().filter(p -> p instanceof Message m && m.getBody() != null)
                .map(p -> ((Message) p).getBody()).collect(Collectors.toList());
    }

    @Test
    void romeosEchoWaitsUntilHisMessageIsStored() {
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(ROMEO, ROOM, "Romeo");
        makePersistent();

        muc.say(ROMEO, ROOM, "is the store there?");
        assertThat(muc.receivedBy(ROMEO)).as("nothing before the commit").isEmpty();
        assertThat(muc.receivedBy(JULIET)).isEmpty();
        muc.commit();
        assertThat(bodies(muc.receivedBy(ROMEO))).containsExactly("is the store there?");
        assertThat(bodies(muc.receivedBy(JULIET))).containsExactly("is the store there?");
    }

    @Test
    void whetherTheOwnerChoseThePresenceBroadcastSurvivesARestart() throws Exception {
        muc.join(JULIET, ROOM, "Juliet");
        makePersistent();
        assertThat(largeRoomLimitInTheFormAfterARestart()).as("left to the service").isEqualTo("1");

        configure(JULIET, "<field var='muc#roomconfig_presencebroadcast'><value>moderator</value><value>participant</value>"
                + "<value>visitor</value></field>");
        muc.commit();
        assertThat(largeRoomLimitInTheFormAfterARestart()).as("the roles chosen for every size").isEqualTo("0");
    }

    private String largeRoomLimitInTheFormAfterARestart() throws Exception {
        restart();
        muc.send("<iq type='get' id='form' from='" + JULIET + "' to='" + ROOM + "'><query xmlns='" + Namespaces.MUC_OWNER + "'/></iq>");
        Element form = muc.replyTo(JULIET, "form").getElement().element("query").element("x");
        return form.elements("field").stream().filter(f -> PresenceBroadcastOption.LARGE_ROOM_VAR.equals(f.attributeValue("var")))
                .findFirst().orElseThrow().elementText("value");
    }

    @Test
    void aTemporaryRoomWaitsForNothing() {
        muc.join(JULIET, ROOM, "Juliet");
        muc.say(JULIET, ROOM, "hello");
        assertThat(bodies(muc.receivedBy(JULIET))).containsExactly("hello");
    }

    @Test
    void theRoomComesBackAfterARestartAsItWas() throws Exception {
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(ROMEO, ROOM, "Romeo");
        configure(JULIET, field("muc#roomconfig_persistentroom", "1") + field("muc#roomconfig_roomname", "Verona")
                + field("reconmuc#roomconfig_allowregister", "1"));
        muc.send("<iq type='set' id='aff' from='" + JULIET + "' to='" + ROOM + "'><query xmlns='" + Namespaces.MUC_ADMIN
                + "'><item affiliation='outcast' jid='tybalt@capulet.lit'/><item affiliation='member' jid='nurse@capulet.lit'/>"
                + "</query></iq>");
        muc.send("<iq type='set' id='reg' from='" + ROMEO + "' to='" + ROOM + "'><query xmlns='jabber:iq:register'>"
                + "<x xmlns='jabber:x:data' type='submit'>" + field("muc#register_roomnick", "Romeo") + "</x></query></iq>");
        // Moderated once Romeo is a member: he keeps his voice (a registration gives none to a visitor).
        configure(JULIET, field("muc#roomconfig_moderatedroom", "1"));
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat'><subject>Balcony</subject></message>");
        ArchiveTest.talk(muc);
        muc.send(query("before", null, null));
        List<String> idsBefore = answer(muc, ROMEO, "before").results().stream()
                .map(r -> r.getChildElement("result", MAM).attributeValue("id")).collect(Collectors.toList());
        String julietsOccupantId = occupantIdOfJulietSeenBy(ROMEO);

        restart();

        // Romeo comes back: history and subject as before; the room still knows its name and rules.
        muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        List<Packet> join = muc.receivedBy(ROMEO);
        assertThat(bodies(join)).containsExactly("j1", "r1", "j2", "r2", "j3", "r3");
        Message subject = (Message) join.get(join.size() - 1);
        assertThat(subject.getSubject()).isEqualTo("Balcony");
        assertThat(subject.getChildElement("delay", org.reconmuc.codec.XmlNamespaces.DELAY).attributeValue("from")).isEqualTo(ROOM + "/Juliet");
        Presence self = (Presence) join.stream().filter(p -> p instanceof Presence).reduce((a, b) -> b).orElseThrow();
        assertThat(MucBench.item(self).attributeValue("affiliation")).as("registered: a member").isEqualTo("member");
        assertThat(MucBench.item(self).attributeValue("role")).isEqualTo("participant");
        muc.send("<iq type='get' id='info' from='" + ROMEO + "' to='" + ROOM + "'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        IQ info = (IQ) muc.replyTo(ROMEO, "info");
        List<String> features = info.getChildElement().elements("feature").stream().map(f -> f.attributeValue("var"))
                .collect(Collectors.toList());
        assertThat(features).contains("muc_persistent", "muc_moderated", MAM);
        assertThat(info.getChildElement().element("identity").attributeValue("name")).isEqualTo("Verona");

        // The archive is the same, under the same ids, and goes on.
        muc.send(query("after", null, null));
        assertThat(answer(muc, ROMEO, "after").results().stream()
                .map(r -> r.getChildElement("result", MAM).attributeValue("id"))).containsExactlyElementsOf(idsBefore);
        muc.say(ROMEO, ROOM, "r4");
        muc.commit();
        muc.clear();
        muc.send(query("more", null, "<max>2</max><after>" + idsBefore.get(idsBefore.size() - 1) + "</after>"));
        ArchiveTest.Answer more = answer(muc, ROMEO, "more");
        assertThat(more.bodies()).containsExactly("r4");
        assertThat(more.last()).isNotIn(idsBefore);

        // Affiliations: Tybalt is still banned; the nurse is still a member; Juliet still owns the room.
        muc.send("<presence from='tybalt@capulet.lit/sword' to='" + ROOM + "/Tybalt'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(errorCondition(muc.lastReceivedBy("tybalt@capulet.lit/sword"))).isEqualTo("forbidden");
        muc.send("<presence from='" + JULIET + "' to='" + ROOM + "/Juliet'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        Presence julietSelf = (Presence) muc.receivedBy(JULIET).stream().filter(p -> p instanceof Presence
                && MucBench.statusCodes(p).contains("110")).findFirst().orElseThrow();
        assertThat(MucBench.item(julietSelf).attributeValue("affiliation")).isEqualTo("owner");
        // Nobody else may take Romeo's reserved nick; Juliet keeps her occupant id.
        muc.send("<presence from='mercutio@montague.lit/x' to='" + ROOM + "/Romeo'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(errorCondition(muc.lastReceivedBy("mercutio@montague.lit/x"))).isEqualTo("conflict");
        assertThat(occupantIdOfJulietSeenBy(ROMEO)).isEqualTo(julietsOccupantId);
    }

    private String occupantIdOfJulietSeenBy(String viewer) {
        muc.clear();
        muc.send("<presence from='" + JULIET + "' to='" + ROOM + "/Juliet'><show>away</show></presence>");
        Packet p = muc.receivedBy(viewer).stream().filter(x -> x instanceof Presence).findFirst().orElseThrow();
        muc.clear();
        Element id = p.getElement().element(org.dom4j.QName.get(OccupantIds.ELEMENT, OccupantIds.NAMESPACE));
        return id.attributeValue("id");
    }

    @Test
    void whatWasNotCommittedWasNeverSeenAndIsGone() throws Exception {
        muc.join(JULIET, ROOM, "Juliet");
        makePersistent();
        muc.say(JULIET, ROOM, "stored");
        muc.commit();
        muc.say(JULIET, ROOM, "lost in the crash");
        assertThat(bodies(muc.receivedBy(JULIET))).containsExactly("stored");

        restart();

        muc.send(query("q", null, null));
        assertThat(answer(muc, ROMEO, "q").bodies()).containsExactly("stored");
    }

    /**
     * Found by {@link RoomArchiveFuzzTest}: java.time reads years far past XEP-0082's four digits,
     * and the store counts time in microseconds, which overflowed: Romeo's query got
     * resource-constraint and the store dropped its read connection (an occupant could make it
     * reconnect with every query). A time no XEP-0082 date holds is a bad request, on any room.
     */
    @Test
    void aQueryFromTheYear1000000IsABadRequestAndTheStoreReadsOn() {
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(ROMEO, ROOM, "Romeo");
        makePersistent();
        muc.say(JULIET, ROOM, "stored");
        muc.commit();
        muc.clear();
        muc.send(query("far", field("start", "+1000000-01-01T00:00:00Z"), null));
        Packet far = muc.replyTo(ROMEO, "far");
        assertThat(errorCondition(far)).isEqualTo("bad-request");
        assertThat(MucBench.errorText(far)).contains("start");
        muc.send(query("five-digits", field("end", "+10000-01-01T00:00:00Z"), null));
        assertThat(errorCondition(muc.replyTo(ROMEO, "five-digits"))).isEqualTo("bad-request");
        muc.send(query("past", field("end", "-0001-12-31T23:59:59Z"), null));
        assertThat(errorCondition(muc.replyTo(ROMEO, "past"))).isEqualTo("bad-request");
        muc.send(query("q", null, null));
        assertThat(answer(muc, ROMEO, "q").bodies()).containsExactly("stored");
    }

    /** The directory the service shows anyone (disco#items of the service). */
    private List<String> roomDirectory() {
        muc.send("<iq type='get' id='dir' from='nurse@capulet.lit/x' to='" + MucBench.SERVICE + "'><query xmlns='"
                + Namespaces.DISCO_ITEMS + "'/></iq>");
        return muc.replyTo("nurse@capulet.lit/x", "dir").getElement().element("query").elements("item").stream()
                .map(i -> i.attributeValue("jid")).collect(Collectors.toList());
    }

    @Test
    void aMembersOnlyRoomItsOwnerListedStaysListedAfterARestart() throws Exception {
        // Made members-only, the room leaves the directory; listed again by its owner, it stays listed:
        // a stored configuration is read as it was, not changed again on the way back.
        muc.join(JULIET, ROOM, "Juliet");
        makePersistent();
        configure(JULIET, field("muc#roomconfig_membersonly", "1"));
        assertThat(roomDirectory()).isEmpty();
        configure(JULIET, field("muc#roomconfig_publicroom", "1"));
        muc.commit();
        assertThat(roomDirectory()).containsExactly(ROOM);

        restart();

        assertThat(roomDirectory()).containsExactly(ROOM);
    }

    @Test
    void aRoomThatStopsBeingPersistentOrIsDestroyedIsForgotten() throws Exception {
        muc.join(JULIET, ROOM, "Juliet");
        makePersistent();
        muc.say(JULIET, ROOM, "one");
        muc.commit();
        configure(JULIET, field("muc#roomconfig_persistentroom", "0"));
        muc.commit();
        restart();
        muc.send(query("q1", null, null));
        assertThat(errorCondition(muc.replyTo(ROMEO, "q1"))).as("no such room").isEqualTo("item-not-found");

        muc.join(JULIET, ROOM, "Juliet");
        makePersistent();
        muc.send("<iq type='set' id='d' from='" + JULIET + "' to='" + ROOM + "'><query xmlns='" + Namespaces.MUC_OWNER
                + "'><destroy><reason>done</reason></destroy></query></iq>");
        assertThat(muc.receivedBy(JULIET)).as("the destruction is announced once it is stored").isEmpty();
        muc.commit();
        assertThat(muc.receivedBy(JULIET)).isNotEmpty();
        restart();
        muc.send(query("q2", null, null));
        assertThat(errorCondition(muc.replyTo(ROMEO, "q2"))).isEqualTo("item-not-found");
    }

    @Test
    void aRoomThatBecomesPersistentKeepsWhatItAlreadySaid() throws Exception {
        muc.join(JULIET, ROOM, "Juliet");
        muc.say(JULIET, ROOM, "before");
        makePersistent();
        muc.say(JULIET, ROOM, "after");
        muc.commit();
        restart();
        muc.send(query("q", null, null));
        assertThat(answer(muc, ROMEO, "q").bodies()).containsExactly("before", "after");
    }

    @Test
    void whileTheDatabaseFailsHeldMessagesWaitAndNewOnesAreRefusedThenAllGoesOnInOrder() throws Exception {
        muc.join(JULIET, ROOM, "Juliet");
        muc.join(ROMEO, ROOM, "Romeo");
        makePersistent();
        String url = "jdbc:sqlite:" + dir.resolve("rooms.db");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url); java.sql.Statement s = c.createStatement()) {
            s.execute("ALTER TABLE reconmuc_message RENAME TO reconmuc_message_away");
        }
        muc.say(ROMEO, ROOM, "accepted before the failure");
        muc.commit();   // fails: the message stays queued, its echo held
        assertThat(muc.receivedBy(ROMEO)).isEmpty();

        muc.say(JULIET, ROOM, "sent while the database is down");
        Packet refusal = muc.lastReceivedBy(JULIET);
        assertThat(errorCondition(refusal)).isEqualTo("resource-constraint");
        assertThat(refusal.getElement().element("error").attributeValue("type")).isEqualTo("wait");
        assertThat(MucBench.errorText(refusal)).contains("not delivered");

        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url); java.sql.Statement s = c.createStatement()) {
            s.execute("ALTER TABLE reconmuc_message_away RENAME TO reconmuc_message");
        }
        muc.commit();   // the retry succeeds
        assertThat(bodies(muc.receivedBy(ROMEO))).containsExactly("accepted before the failure");
        assertThat(bodies(muc.receivedBy(JULIET))).containsExactly("accepted before the failure");
        muc.say(JULIET, ROOM, "back");
        muc.commit();
        assertThat(bodies(muc.receivedBy(ROMEO))).containsExactly("back");
        muc.send(query("q", null, null));
        assertThat(answer(muc, ROMEO, "q").bodies()).containsExactly("accepted before the failure", "back");
    }

    @Test
    void withRoomsPersistentByDefaultTheFirstMessageIsAlreadyKept() throws Exception {
        store.close();
        store = Store.openWithoutThreads(StoreLocation.parse("sqlite:" + dir.resolve("rooms.db")));
        muc = new MucBench(CONFIG.toBuilder().roomDefaultPersistent(true).build(), Instant.parse("2026-01-01T10:00:00Z"), store);
        muc.join(JULIET, ROOM, "Juliet");
        muc.commit();
        muc.clear();
        muc.say(JULIET, ROOM, "kept from the start");
        muc.commit();
        restart();
        muc.send(query("q", null, null));
        assertThat(answer(muc, ROMEO, "q").bodies()).containsExactly("kept from the start");
    }

    @Test
    void afterARestartOnlyTheAuthorTakesBackARestoredMessageWhoeverHasHerNick() throws Exception {
        muc.join(JULIET, ROOM, "Juliet");
        makePersistent();
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='j1'><body>kept</body></message>");
        muc.commit();
        String stanzaId = ((Message) muc.lastReceivedBy(JULIET)).getChildElement("stanza-id", "urn:xmpp:sid:0").attributeValue("id");
        restart();

        // Tybalt enters the restored room under Juliet's nick and retracts her line: refused.
        String tybalt = "tybalt@capulet.lit/sword";
        muc.join(tybalt, ROOM, "Juliet");
        muc.send("<message from='" + tybalt + "' to='" + ROOM + "' type='groupchat' id='t1'><retract xmlns='urn:xmpp:message-retract:1' id='"
                + stanzaId + "'/><body>retracted</body></message>");
        muc.commit();
        assertThat(errorCondition(muc.lastReceivedBy(tybalt))).isEqualTo("forbidden");
        muc.send("<presence from='" + tybalt + "' to='" + ROOM + "/Juliet' type='unavailable'/>");
        muc.commit();

        // Juliet, back under her nick, may.
        muc.join(JULIET, ROOM, "Juliet");
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "' type='groupchat' id='j2'><retract xmlns='urn:xmpp:message-retract:1' id='"
                + stanzaId + "'/><body>retracted</body></message>");
        muc.commit();
        assertThat(errorCondition(muc.lastReceivedBy(JULIET))).isNull();
        muc.send(query("q", null, null));
        assertThat(answer(muc, ROMEO, "q").bodies()).doesNotContain("kept");
    }

    /** When the room's record was last written whole (each Save stamps it). */
    private long recordWrittenAt() throws Exception {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("rooms.db"));
             java.sql.ResultSet r = c.createStatement().executeQuery("SELECT saved_at_us FROM reconmuc_room")) {
            assertThat(r.next()).isTrue();
            return r.getLong(1);
        }
    }

    @Test
    void anInvitationIntoAMembersOnlyRoomWritesTheNewMemberAloneAndARestartKeepsHer() throws Exception {
        muc.join(JULIET, ROOM, "Juliet");
        configure(JULIET, field("muc#roomconfig_persistentroom", "1") + field("muc#roomconfig_membersonly", "1"));
        muc.commit();
        long written = recordWrittenAt();

        // Juliet invites the nurse: one row joins the affiliations; the record is not written again.
        muc.send("<message from='" + JULIET + "' to='" + ROOM + "'><x xmlns='http://jabber.org/protocol/muc#user'>"
                + "<invite to='nurse@capulet.lit'/></x></message>");
        muc.commit();
        assertThat(muc.receivedBy("nurse@capulet.lit")).hasSize(1);
        assertThat(recordWrittenAt()).as("the whole record was not rewritten").isEqualTo(written);

        restart();
        muc.send("<presence from='nurse@capulet.lit/x' to='" + ROOM + "/Nurse'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        Presence self = (Presence) muc.receivedBy("nurse@capulet.lit/x").stream().filter(p -> p instanceof Presence)
                .reduce((a, b) -> b).orElseThrow();
        assertThat(errorCondition(self)).isNull();
        assertThat(MucBench.item(self).attributeValue("affiliation")).isEqualTo("member");
    }
}
