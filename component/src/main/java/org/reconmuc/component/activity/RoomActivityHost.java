package org.reconmuc.component.activity;

import java.time.Instant;
import org.reconmuc.component.consistency.Reader;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.Affiliation;
import org.reconmuc.component.muc.MembersOnlyOption;
import org.reconmuc.component.muc.Occupant;
import org.reconmuc.component.muc.PasswordOption;
import org.reconmuc.component.muc.PersistentOption;
import org.reconmuc.component.muc.PublicOption;
import org.reconmuc.component.muc.Room;
import org.reconmuc.component.muc.RoomAccess;
import org.reconmuc.component.muc.RoomConfig;
import org.reconmuc.component.muc.RoomEvent;
import org.reconmuc.component.muc.RoomFeature;
import org.reconmuc.component.muc.RoomState;
import org.reconmuc.component.muc.ServiceHooks;
import org.reconmuc.component.muc.StanzaErrors;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Room activity (XEP-0437, XEP-0502) as a feature of the service and its rooms, and the one way
 * this package reaches a room ({@link ActivityHost}). The service keeps its subscribers
 * ({@link ActivitySubscriptions}: presences to the service's own address, and the bounces of its
 * notices) and names XEP-0437 in its disco#info; each room keeps its {@link RoomActivity}, told of
 * a message logged, a session in or out, its configuration, and asked for disco#info.
 */
public final class RoomActivityHost implements ActivityHost {
    private final Room room;
    private final String serviceJid;

    private RoomActivityHost(Room room, String serviceJid) {
        this.room = room;
        this.serviceJid = serviceJid;
    }

    public static final RoomFeature FEATURE = events -> {
        ServiceHooks service = events.service();
        Attached attached = new Attached(service, events.config().domain(), events.config().raiMaxSubscribers());
        ActivitySubscriptions subscriptions = attached.subscriptions;
        RoomState<RoomActivity> activities = attached.activities;
        service.publish(subscriptions);
        service.discoFeature(RaiElement.NAMESPACE);
        service.toService(packet -> {
            if (packet instanceof Presence presence) {
                if (subscriptions.presence(presence.getFrom().toString(), presence) instanceof ActivitySubscriptions.Refused r) {
                    Packet error = StanzaErrors.reply(presence, Condition.RESOURCE_CONSTRAINT, r.text());
                    if (error != null) {
                        service.send(error);
                    }
                }
                return true;
            }
            if (packet instanceof Message m && m.getType() == Message.Type.error) {
                subscriptions.bounced(m.getFrom().toString());
                return true;
            }
            return false;
        });
        events.on(RoomEvent.CONFIGURED, c -> c.room().state(activities).persistent(c.room().persistent()));
        events.on(RoomEvent.BROADCAST, b -> b.room().state(activities).messageLogged(b.message().broadcast()));
        events.on(RoomEvent.ENTERED, s -> s.room().state(activities).joined(s.session().toString()));
        events.on(RoomEvent.LEAVING, s -> leaving(s.room().state(activities), s.room(), s.occupant(), s.session()));
        events.on(RoomEvent.DISCO_INFO, d -> d.room().state(activities).describe(d.roomInfo()));
    };

    /** The service's subscribers and its rooms' activity, each needing the other. */
    private static final class Attached {
        private final ServiceHooks service;
        private final String domain;
        private final RoomState<RoomActivity> activities;
        private final ActivitySubscriptions subscriptions;

        Attached(ServiceHooks service, String domain, int maxSubscribers) {
            this.service = service;
            this.domain = domain;
            this.activities = new RoomState<>(this::activityOf);
            this.subscriptions = new ActivitySubscriptions(maxSubscribers, this::toRooms);
        }

        private RoomActivity activityOf(Room room) {
            return new RoomActivity(new RoomActivityHost(room, domain), subscriptions);
        }

        /**
         * A subscription to the service began or ended: every room in memory looks at a new
         * subscriber on its own thread; the rooms that watched for one that ended forget it.
         */
        private void toRooms(ActivitySubscriptions.Change change) {
            if (change instanceof ActivitySubscriptions.Subscribed s) {
                service.eachRoom(jid -> true, room -> room.state(activities).subscribed(s.session()));
            } else if (change instanceof ActivitySubscriptions.Unsubscribed u) {
                service.eachRoom(jid -> u.rooms().contains(jid.toString()), room -> room.state(activities).unsubscribed(u.session()));
            }
        }
    }

    /**
     * {@code session} of {@code occupant} leaves (before the room forgets what it retained for the
     * occupant): what it was sent ends before the oldest message the room still retained for it.
     */
    private static void leaving(RoomActivity activity, Room room, Occupant occupant, RealJid session) {
        long newest = room.history().head();
        long seenUpTo = newest;
        Reader<Occupant> reader = occupant.reader();
        if (reader != null && newest - reader.cursor() + 1 - reader.earlyCount() > 0) {
            seenUpTo = reader.cursor() - 1;
        }
        activity.left(session.toString(), occupant.sessionCount() == 0, seenUpTo);
    }

    @Override
    public String roomJid() {
        return room.jid().toString();
    }

    @Override
    public String serviceJid() {
        return serviceJid;
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
}
