package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.errorText;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reconmuc.component.config.RoomCreation;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.config.StoreLocation;
import org.xmpp.packet.JID;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Issue 27 part 4: who may create rooms ({@code room-creators}, {@code admins}) and how many rooms
 * one user may have created that still exist ({@code max-rooms-per-user}). A refused creation is
 * {@code not-allowed} (XEP-0045 §10.1.1, as Prosody's "Room creation is restricted") and leaves no
 * room behind; entering a room that exists is never refused for it.
 */
class RoomCreationTest {
    private static final String SERVICE = MucBench.SERVICE;
    private static final String ROMEO = "romeo@montague.lit/orchard";
    private static final String ROMEO_LAPTOP = "romeo@montague.lit/laptop";
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String NURSE = "nurse@capulet.lit/kitchen";
    private static final String LOBBY = "lobby@" + SERVICE;

    @TempDir
    Path dir;

    private static MucBench service(RoomCreation creation) {
        return new MucBench(ServiceConfig.builder().domain(SERVICE).roomCreation(creation).build());
    }

    private static String room(int i) {
        return "room" + i + "@" + SERVICE;
    }

    /** {@code who} sends a join to {@code room}; returns the answer to it (its self-presence or an error). */
    private static Packet enter(MucBench muc, String who, String room, String nick) {
        String id = "join-" + room.substring(0, room.indexOf('@')) + "-" + nick;
        muc.send("<presence from='" + who + "' to='" + room + "/" + nick + "' id='" + id + "'>"
                + "<x xmlns='http://jabber.org/protocol/muc'/></presence>");
        Packet answer = muc.replyTo(new JID(who).toString(), id);   // answered to the address stringprep'd
        if (statusCodes(answer).contains("201")) {
            muc.acceptInstantRoom(who, room);
        }
        muc.clear();
        return answer;
    }

    private static void assertCreated(Packet answer) {
        assertThat(((Presence) answer).getType()).as("a self-presence, not an error: %s", answer.toXML()).isNull();
        assertThat(statusCodes(answer)).contains("110", "201");
    }

    private static void assertEntered(Packet answer) {
        assertThat(((Presence) answer).getType()).as("a self-presence, not an error: %s", answer.toXML()).isNull();
        assertThat(statusCodes(answer)).contains("110").doesNotContain("201");
    }

    private static void assertRefused(Packet answer, String... textContains) {
        assertThat(((Presence) answer).getType()).isEqualTo(Presence.Type.error);
        assertThat(errorCondition(answer)).isEqualTo("not-allowed");
        assertThat(answer.getElement().element("error").attributeValue("type")).isEqualTo("cancel");
        assertThat(errorText(answer)).contains(textContains);
    }

    private static void destroy(MucBench muc, String owner, String room) {
        muc.send("<iq type='set' id='destroy' from='" + owner + "' to='" + room + "'><query xmlns='"
                + Namespaces.MUC_OWNER + "'><destroy><reason>done</reason></destroy></query></iq>");
        assertThat(muc.replyTo(owner, "destroy").getElement().attributeValue("type")).isEqualTo("result");
        muc.clear();
    }

    // ---- who may create rooms -----------------------------------------------------------------

    @Test
    void byDefaultAnyoneMayCreateRooms() {
        MucBench muc = new MucBench();
        assertCreated(enter(muc, JULIET, LOBBY, "Juliet"));
        assertCreated(enter(muc, ROMEO, room(1), "Romeo"));
    }

    @Test
    void aUserOfAnUnlistedDomainIsRefusedAndNoRoomIsMadeButMayEnterARoomThatExists() {
        MucBench muc = service(RoomCreation.parse("montague.lit", "", RoomCreation.DEFAULT_MAX_ROOMS_PER_USER));

        assertRefused(enter(muc, JULIET, LOBBY, "Juliet"), "Room creation is restricted", "juliet@capulet.lit");
        assertThat(muc.service.roomCount()).as("no room left behind").isZero();
        muc.send("<iq type='get' id='items' from='" + JULIET + "' to='" + SERVICE + "'>"
                + "<query xmlns='http://jabber.org/protocol/disco#items'/></iq>");
        assertThat(muc.replyTo(JULIET, "items").getElement().element("query").elements()).isEmpty();

        assertCreated(enter(muc, ROMEO, LOBBY, "Romeo"));
        assertEntered(enter(muc, JULIET, LOBBY, "Juliet"));
    }

    @Test
    void aRefusedCreationLeavesNoRoomEvenWhenNewRoomsStartPersistent() {
        MucBench muc = new MucBench(ServiceConfig.builder().domain(SERVICE).roomDefaultPersistent(true)
                .roomCreation(RoomCreation.parse("romeo@montague.lit", "", RoomCreation.DEFAULT_MAX_ROOMS_PER_USER)).build());
        assertRefused(enter(muc, JULIET, LOBBY, "Juliet"), "Room creation is restricted");
        assertThat(muc.service.roomCount()).isZero();
        assertCreated(enter(muc, ROMEO, LOBBY, "Romeo"));
    }

    @Test
    void localMeansTheUsersOfTheServerTheServiceIsASubdomainOf() {
        // The service is chat.example: its local users are those of example.
        MucBench muc = service(RoomCreation.parse("local", "", RoomCreation.DEFAULT_MAX_ROOMS_PER_USER));
        assertCreated(enter(muc, "tybalt@example/sword", room(1), "Tybalt"));
        assertRefused(enter(muc, ROMEO, room(2), "Romeo"), "Room creation is restricted");
        assertRefused(enter(muc, "mercutio@chat.example/x", room(3), "Mercutio"), "Room creation is restricted");
    }

    @Test
    void whenOnlyAdminsMayCreateRoomsTheAdminsMayAndTheOthersEnterTheirs() {
        MucBench muc = service(RoomCreation.parse("admins", "nurse@capulet.lit", RoomCreation.DEFAULT_MAX_ROOMS_PER_USER));
        assertRefused(enter(muc, JULIET, LOBBY, "Juliet"), "Room creation is restricted");
        assertCreated(enter(muc, NURSE, LOBBY, "Nurse"));
        assertEntered(enter(muc, JULIET, LOBBY, "Juliet"));
    }

    @Test
    void aListedUserIsRecognisedWhateverTheCaseOfTheirAddress() {
        MucBench muc = service(RoomCreation.parse("Romeo@Montague.LIT", "", RoomCreation.DEFAULT_MAX_ROOMS_PER_USER));
        assertCreated(enter(muc, "ROMEO@montague.lit/Orchard", LOBBY, "Romeo"));
    }

    @Test
    void roomsRestoredFromTheStoreAreNotCreatedAndOpenToAnyoneAllowedIn() throws Exception {
        StoreLocation location = StoreLocation.parse("sqlite:" + dir.resolve("rooms.db"));
        ServiceConfig anyone = ServiceConfig.builder().domain(SERVICE).roomDefaultPersistent(true).build();
        Store first = Store.openWithoutThreads(location);
        MucBench before = new MucBench(anyone, Instant.parse("2026-01-01T10:00:00Z"), first);
        before.send("<presence from='" + JULIET + "' to='" + LOBBY + "/Juliet' id='create'>"
                + "<x xmlns='http://jabber.org/protocol/muc'/></presence>");
        before.commit();
        assertCreated(before.replyTo(JULIET, "create"));
        before.acceptInstantRoom(JULIET, LOBBY);
        before.commit();
        first.close();

        // After a restart only Romeo may create rooms, and only one: the restored lobby is nobody's creation.
        Store second = Store.openWithoutThreads(location);
        try {
            MucBench after = new MucBench(anyone.toBuilder().roomCreation(new RoomCreation(List.of("romeo@montague.lit"),
                    java.util.Set.of(), 1)).build(), Instant.parse("2026-01-01T11:00:00Z"), second);
            assertThat(after.service.roomCount()).isEqualTo(1);
            after.send("<presence from='" + JULIET + "' to='" + LOBBY + "/Juliet' id='back'>"
                    + "<x xmlns='http://jabber.org/protocol/muc'/></presence>");
            after.commit();
            assertEntered(after.replyTo(JULIET, "back"));
            assertThat(after.service.roomsCreatedBy("juliet@capulet.lit")).isZero();
            after.send("<presence from='" + ROMEO + "' to='" + room(1) + "/Romeo' id='new'>"
                    + "<x xmlns='http://jabber.org/protocol/muc'/></presence>");
            after.commit();
            assertCreated(after.replyTo(ROMEO, "new"));
            assertThat(after.service.roomsCreatedBy("romeo@montague.lit")).isEqualTo(1);
        } finally {
            second.close();
        }
    }

    // ---- how many rooms one user may have ------------------------------------------------------

    @Test
    void aUserAtTheLimitIsRefusedFromEveryResourceUntilOneOfTheirRoomsIsDestroyed() {
        MucBench muc = service(RoomCreation.parse("anyone", "", 3));
        for (int i = 1; i <= 3; i++) {
            assertCreated(enter(muc, ROMEO, room(i), "Romeo"));
        }
        assertRefused(enter(muc, ROMEO, room(4), "Romeo"), "reached the limit of rooms", "(3,", "destroy one of your rooms");
        assertRefused(enter(muc, ROMEO_LAPTOP, room(5), "Romeo"), "(3,");
        assertRefused(enter(muc, "Romeo@Montague.lit/Tablet", room(6), "Romeo"), "(3,");
        assertThat(muc.service.roomCount()).isEqualTo(3);

        assertCreated(enter(muc, JULIET, LOBBY, "Juliet"));
        assertEntered(enter(muc, ROMEO, LOBBY, "Romeo"));
        assertEntered(enter(muc, ROMEO_LAPTOP, room(1), "Romeo"));

        destroy(muc, ROMEO, room(2));
        assertCreated(enter(muc, ROMEO_LAPTOP, room(4), "Romeo"));
        assertRefused(enter(muc, ROMEO, room(5), "Romeo"), "(3,");
    }

    @Test
    void aTemporaryRoomThatVanishesWhenItsLastOccupantLeavesNoLongerCounts() {
        MucBench muc = service(RoomCreation.parse("anyone", "", 1));
        assertCreated(enter(muc, ROMEO, room(1), "Romeo"));
        assertRefused(enter(muc, ROMEO, room(2), "Romeo"), "reached the limit of rooms");
        muc.send("<presence from='" + ROMEO + "' to='" + room(1) + "/Romeo' type='unavailable'/>");
        muc.clear();
        assertThat(muc.service.roomCount()).isZero();
        assertCreated(enter(muc, ROMEO, room(2), "Romeo"));
    }

    @Test
    void aRoomLeftByItsCreatorStillCountsWhileOthersKeepItAlive() {
        MucBench muc = service(RoomCreation.parse("anyone", "", 1));
        assertCreated(enter(muc, ROMEO, room(1), "Romeo"));
        assertEntered(enter(muc, JULIET, room(1), "Juliet"));
        muc.send("<presence from='" + ROMEO + "' to='" + room(1) + "/Romeo' type='unavailable'/>");
        muc.clear();
        assertRefused(enter(muc, ROMEO, room(2), "Romeo"), "reached the limit of rooms");
    }

    @Test
    void adminsHaveNoLimitAndZeroMeansNoLimitForAnyone() {
        MucBench limited = service(RoomCreation.parse("anyone", "nurse@capulet.lit", 1));
        for (int i = 1; i <= 5; i++) {
            assertCreated(enter(limited, NURSE, room(i), "Nurse"));
        }
        MucBench unlimited = service(RoomCreation.parse("anyone", "", 0));
        for (int i = 1; i <= 30; i++) {
            assertCreated(enter(unlimited, ROMEO, room(i), "Romeo"));
        }
    }

    @Test
    void theDefaultLimitStopsOneUserCreatingRoomsWithoutEnd() {
        MucBench muc = new MucBench();
        int made = 0;
        for (int i = 1; i <= 200; i++) {
            Packet answer = enter(muc, ROMEO, room(i), "Romeo");
            if (((Presence) answer).getType() == null) {
                made++;
            } else {
                assertRefused(answer, "(" + RoomCreation.DEFAULT_MAX_ROOMS_PER_USER + ",");
            }
        }
        assertThat(made).isEqualTo(RoomCreation.DEFAULT_MAX_ROOMS_PER_USER);
        assertThat(muc.service.roomCount()).isEqualTo(RoomCreation.DEFAULT_MAX_ROOMS_PER_USER);
    }
}
