package org.reconmuc.component.muc;

import java.time.Instant;
import org.reconmuc.component.activity.ActivityHost;
import org.reconmuc.component.activity.RoomActivity;
import org.reconmuc.component.consistency.Reader;
import org.reconmuc.component.jid.RealJid;
import org.xmpp.packet.Message;

/**
 * The one way the {@code activity} package (XEP-0437, XEP-0502) reaches a room, and the hooks the
 * room's classes call: a message logged, a session in, a session out.
 */
public final class RoomActivityHost implements ActivityHost {
    private final Room room;

    RoomActivityHost(Room room) {
        this.room = room;
    }

    /**
     * XEP-0437 and XEP-0502 on the room's events: a message logged counts, a session in or out
     * moves what its user has seen, and disco#info shows the messages per hour.
     */
    public static final RoomFeature FEATURE = events -> {
        events.on(RoomEvent.BROADCAST, b -> b.room().activity().messageLogged(b.message().broadcast()));
        events.on(RoomEvent.ENTERED, s -> s.room().activity().joined(s.session().toString()));
        events.on(RoomEvent.LEAVING, s -> leaving(s.room(), s.occupant(), s.session()));
        events.on(RoomEvent.DISCO_INFO, d -> d.room().activity().describe(d.roomInfo()));
    };

    /**
     * {@code session} of {@code occupant} leaves (before the room forgets what it retained for the
     * occupant): what it was sent ends before the oldest message the room still retained for it.
     */
    private static void leaving(Room room, Occupant occupant, RealJid session) {
        long newest = room.history().head();
        long seenUpTo = newest;
        Reader<Occupant> reader = occupant.reader();
        if (reader != null && newest - reader.cursor() + 1 - reader.earlyCount() > 0) {
            seenUpTo = reader.cursor() - 1;
        }
        room.activity().left(session.toString(), occupant.sessionCount() == 0, seenUpTo);
    }

    @Override
    public String roomJid() {
        return room.jid().toString();
    }

    @Override
    public String serviceJid() {
        return room.context().config().domain();
    }

    @Override
    public Instant now() {
        return room.now();
    }

    @Override
    public long newestMessage() {
        return room.history().head();
    }

    @Override
    public boolean joined(String session) {
        return room.occupantBySession(RealJid.of(session)) != null;
    }

    @Override
    public boolean affiliated(String session) {
        return room.affiliationOf(RealJid.of(session)).atLeast(Affiliation.MEMBER);
    }

    @Override
    public boolean mayEnter(String session) {
        return RoomAccess.refusal(room, RoomAccess.Act.ENTER, RealJid.of(session), null, null) == null;
    }

    @Override
    public boolean publishesActivity() {
        RoomConfig c = room.config();
        return c.get(PublicOption.PUBLIC) && c.get(PersistentOption.PERSISTENT)
                && !c.get(MembersOnlyOption.MEMBERS_ONLY) && c.get(PasswordOption.PASSWORD).isEmpty();
    }

    @Override
    public void send(Message notice) {
        room.output().send(notice);
    }

    /** For the room's constructor. */
    static RoomActivity of(Room room) {
        return new RoomActivity(new RoomActivityHost(room), room.context().activitySubscriptions());
    }
}
