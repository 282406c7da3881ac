package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;
import static org.reconmuc.component.muc.MucBench.errorText;
import static org.reconmuc.component.muc.MucBench.statusCodes;

import java.time.Duration;
import java.util.List;
import org.dom4j.Element;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.config.ServiceConfig.RoomLocking;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/** XEP-0045 §10.1: a room created by a join is locked until its owner configures it. */
class RoomLockingTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String ROMEO_LAPTOP = "romeo@montague.lit/laptop";
    private static final String JULIET = "juliet@capulet.lit/balcony";

    private final MucBench muc = new MucBench();

    private void enter(String who, String nick) {
        muc.send("<presence from='" + who + "' to='" + ROOM + "/" + nick + "' id='join-" + nick + "'>"
                + "<x xmlns='http://jabber.org/protocol/muc'/></presence>");
    }

    private void owner(String fromWho, String id, String payload) {
        muc.send("<iq from='" + fromWho + "' to='" + ROOM + "' type='" + (payload.isEmpty() ? "get" : "set") + "' id='" + id
                + "'><query xmlns='http://jabber.org/protocol/muc#owner'>" + payload + "</query></iq>");
    }

    private Packet romeoCreatesTheRoom() {
        enter(ROMEO, "Romeo");
        List<Packet> romeo = muc.receivedBy(ROMEO);
        assertThat(statusCodes(romeo.get(0))).containsExactlyInAnyOrder("110", "170", "201");
        return romeo.get(0);
    }

    private void julietIsTurnedAway() {
        enter(JULIET, "Juliet");
        Packet error = muc.replyTo(JULIET, "join-Juliet");
        assertThat(((Presence) error).getType()).isEqualTo(Presence.Type.error);
        assertThat(errorCondition(error)).isEqualTo("item-not-found");
        assertThat(errorText(error)).contains("locked");
        assertThat(muc.receivedBy(ROMEO)).as("Romeo hears nothing of it").isEmpty();
    }

    private void julietGetsIn() {
        enter(JULIET, "Juliet");
        assertThat(muc.receivedBy(JULIET)).anyMatch(p -> statusCodes(p).contains("110"));
        assertThat(muc.receivedBy(ROMEO)).anyMatch(p -> ROOM.concat("/Juliet").equals(p.getFrom().toString()));
    }

    @Test
    void julietCannotEnterUntilRomeoAcceptsTheInstantRoom() {
        romeoCreatesTheRoom();
        julietIsTurnedAway();

        owner(ROMEO, "instant", "<x xmlns='jabber:x:data' type='submit'/>");
        assertThat(muc.replyTo(ROMEO, "instant").getElement().attributeValue("type")).isEqualTo("result");
        assertThat(muc.receivedBy(ROMEO)).as("no 104: nothing changed").isEmpty();

        julietGetsIn();
    }

    @Test
    void romeoAsksForTheFormAndTheRoomStaysLockedUntilHeSubmitsIt() {
        romeoCreatesTheRoom();
        owner(ROMEO, "form", "");
        assertThat(muc.replyTo(ROMEO, "form").getElement().element("query").element("x")).isNotNull();
        julietIsTurnedAway();

        owner(ROMEO, "submit", "<x xmlns='jabber:x:data' type='submit'>"
                + "<field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>"
                + "<field var='muc#roomconfig_roomname'><value>Verona</value></field></x>");
        assertThat(muc.replyTo(ROMEO, "submit").getElement().attributeValue("type")).isEqualTo("result");
        muc.clear();
        julietGetsIn();
    }

    @Test
    void romeoCancelsTheInitialConfigurationAndTheRoomIsDestroyed() {
        romeoCreatesTheRoom();
        owner(ROMEO, "cancel", "<x xmlns='jabber:x:data' type='cancel'/>");

        assertThat(muc.replyTo(ROMEO, "cancel").getElement().attributeValue("type")).isEqualTo("result");
        Presence gone = (Presence) muc.lastReceivedBy(ROMEO);
        assertThat(gone.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(statusCodes(gone)).contains("110");
        Element destroy = MucBench.mucUser(gone).element("destroy");
        assertThat(destroy.elementText("reason")).contains("cancelled");
        assertThat(muc.service.roomCount()).isZero();

        // The name is free again: Juliet's join creates a new room that she owns.
        enter(JULIET, "Juliet");
        assertThat(statusCodes(muc.receivedBy(JULIET).get(0))).contains("201");
    }

    @Test
    void cancellingAFormLaterChangesNothing() {
        muc.join(ROMEO, ROOM, "Romeo");
        owner(ROMEO, "cancel", "<x xmlns='jabber:x:data' type='cancel'/>");
        assertThat(muc.replyTo(ROMEO, "cancel").getElement().attributeValue("type")).isEqualTo("result");
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
        julietGetsIn();
    }

    @Test
    void aRoomNobodyConfiguresIsDestroyedAfterTheTimeoutAndRomeoIsToldWhy() {
        romeoCreatesTheRoom();
        muc.advance(Duration.ofMinutes(4));
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
        julietIsTurnedAway();

        muc.advance(Duration.ofMinutes(1));
        Presence gone = (Presence) muc.lastReceivedBy(ROMEO);
        assertThat(gone.getType()).isEqualTo(Presence.Type.unavailable);
        assertThat(MucBench.mucUser(gone).element("destroy").elementText("reason")).contains("not configured within 300 seconds");
        assertThat(muc.service.roomCount()).isZero();
    }

    @Test
    void aConfiguredRoomOutlivesTheLockTimeout() {
        muc.join(ROMEO, ROOM, "Romeo");
        muc.advance(Duration.ofMinutes(6));
        assertThat(muc.receivedBy(ROMEO)).isEmpty();
        assertThat(muc.service.roomCount()).isOne();
    }

    @Test
    void romeosOtherDeviceMayEnterTheLockedRoom() {
        romeoCreatesTheRoom();
        enter(ROMEO_LAPTOP, "Romeo");
        assertThat(muc.receivedBy(ROMEO_LAPTOP)).anyMatch(p -> statusCodes(p).contains("110"));
    }

    @Test
    void aGroupchatOneJoinDoesNotLockTheRoomForItCannotConfigureIt() {
        muc.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo'/>");
        assertThat(statusCodes(muc.receivedBy(ROMEO).get(0))).contains("201");
        julietGetsIn();
    }

    @Test
    void withLockingOffJulietEntersAtOnce() {
        MucBench open = new MucBench(ServiceConfig.defaults().toBuilder().domain(MucBench.SERVICE).secret("x")
                .roomLocking(RoomLocking.OFF).build());
        open.send("<presence from='" + ROMEO + "' to='" + ROOM + "/Romeo'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        open.send("<presence from='" + JULIET + "' to='" + ROOM + "/Juliet'><x xmlns='http://jabber.org/protocol/muc'/></presence>");
        assertThat(open.receivedBy(JULIET)).anyMatch(p -> statusCodes(p).contains("110"));
    }
}
