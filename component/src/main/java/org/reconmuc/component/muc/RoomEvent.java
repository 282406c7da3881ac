package org.reconmuc.component.muc;

import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.relaxed.MessageLog;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * One event a room fires, and what it tells its handlers ({@code E}): the open set of points
 * where a {@link RoomFeature} changes what a room does, as Prosody's {@code muc-*} events. A
 * handler of an event that asks ({@link Question}) answers it; one of an event that can be
 * refused ({@link Refusable}) may refuse it, and the room then sends the refusal and goes no
 * further. Handlers run on the room's thread, one stanza at a time.
 *
 * @param <E> what the room tells the handlers
 */
public final class RoomEvent<E> {
    /** Someone is entering (XEP-0045 §7.2), after the access rule and the nickname checks: a feature may refuse. */
    public static final RoomEvent<Entering> ENTERING = new RoomEvent<>("entering");
    /** A session has entered: it has had the room's state (others' presences, its own, the history, the subject, §7.2.2–7.2.16), the others not yet its presence. */
    public static final RoomEvent<Session> ENTERED = new RoomEvent<>("entered");
    /** A session leaves by its unavailable presence (§7.14), before anyone is told; {@code occupant} stays while it has other sessions. */
    public static final RoomEvent<Session> LEAVING = new RoomEvent<>("leaving");
    /** An occupant changes its presence — its status, its nick, or it enters again (§7.3, §7.6) — before anyone is told: a feature may refuse it. */
    public static final RoomEvent<Changing> PRESENCE_CHANGE = new RoomEvent<>("presence-change");
    /** An occupant with voice sends a groupchat message (§7.4), after its own rate and slow mode: a feature may refuse it. */
    public static final RoomEvent<Speaking> SPEAKING = new RoomEvent<>("speaking");
    /** An occupant with voice changes the subject (a subject and no body, §8.1): a feature may refuse it. */
    public static final RoomEvent<Speaking> SUBJECT_CHANGE = new RoomEvent<>("subject-change");
    /** A groupchat message has been logged and sent out to the occupants (XEP-0045 §7.4). */
    public static final RoomEvent<Broadcast> BROADCAST = new RoomEvent<>("broadcast");
    /** The number of occupants changed (someone entered or left, was removed or carried over), as the room's listing shows it after a stanza or a take-over. */
    public static final RoomEvent<OccupantCount> OCCUPANT_COUNT = new RoomEvent<>("occupant-count");
    /** disco#info of the room (XEP-0045 §6.4) is being answered: a feature adds its features and fields. */
    public static final RoomEvent<Describing> DISCO_INFO = new RoomEvent<>("disco-info");
    /** Is the room persistent (§10.2 {@code muc#roomconfig_persistentroom}): kept when empty, and in the store? No, unless a feature says so. */
    public static final RoomEvent<Question> PERSISTENT = new RoomEvent<>("persistent");
    /** Does the room keep an archive of its messages (XEP-0313)? Yes, unless a feature says not. */
    public static final RoomEvent<Question> ARCHIVING = new RoomEvent<>("archiving");
    /** A stored room comes back (at start, or claimed): a feature may adjust the configuration it comes back with. */
    public static final RoomEvent<Restoring> RESTORING = new RoomEvent<>("restoring");

    private final String name;

    private RoomEvent(String name) {
        this.name = name;
    }

    @Override
    public String toString() {
        return name;
    }

    /** What a handler may refuse: the first refusal stops the event, and the room sends it as the error. */
    public abstract static class Refusable {
        private Condition condition;
        private String type;
        private String text;

        /** Refuses with {@code condition} of its usual type, and {@code text}. */
        public void refuse(Condition condition, String text) {
            refuse(condition, null, text);
        }

        /** Refuses with {@code condition} of error type {@code type} ({@code wait}, …), and {@code text}. */
        public void refuse(Condition condition, String type, String text) {
            this.condition = condition;
            this.type = type;
            this.text = text;
        }

        public boolean refused() {
            return condition != null;
        }

        /** Sends the refusal as the error reply to {@code request}. */
        public void sendRefusal(Room room, Packet request) {
            if (type == null) {
                room.output().error(request, condition, text);
            } else {
                room.output().error(request, condition, type, text);
            }
        }
    }

    /** {@link #ENTERING}: {@code session} asks to enter with {@code presence}; {@code newOccupant} unless another session of the same user is in under that nick. */
    public static final class Entering extends Refusable {
        private final Room room;
        private final RealJid session;
        private final Presence presence;
        private final Affiliation affiliation;
        private final boolean newOccupant;

        public Entering(Room room, RealJid session, Presence presence, Affiliation affiliation, boolean newOccupant) {
            this.room = room;
            this.session = session;
            this.presence = presence;
            this.affiliation = affiliation;
            this.newOccupant = newOccupant;
        }

        public Room room() {
            return room;
        }

        public RealJid session() {
            return session;
        }

        public Presence presence() {
            return presence;
        }

        /** The affiliation the user enters with (owner for the room's creator). */
        public Affiliation affiliation() {
            return affiliation;
        }

        public boolean newOccupant() {
            return newOccupant;
        }
    }

    /** {@link #PRESENCE_CHANGE}: {@code occupant}'s session {@code session} sends {@code presence}. */
    public static final class Changing extends Refusable {
        private final Room room;
        private final Occupant occupant;

        public Changing(Room room, Occupant occupant) {
            this.room = room;
            this.occupant = occupant;
        }

        public Room room() {
            return room;
        }

        public Occupant occupant() {
            return occupant;
        }
    }

    /** {@link #ENTERED}, {@link #LEAVING}: one session of {@code occupant}. */
    public record Session(Room room, Occupant occupant, RealJid session) {
    }

    /** {@link #SPEAKING}, {@link #SUBJECT_CHANGE}: {@code sender} sends {@code message} (as received) to everyone in the room. */
    public static final class Speaking extends Refusable {
        private final Room room;
        private final Occupant sender;
        private final Message message;

        public Speaking(Room room, Occupant sender, Message message) {
            this.room = room;
            this.sender = sender;
            this.message = message;
        }

        public Room room() {
            return room;
        }

        public Occupant sender() {
            return sender;
        }

        public Message message() {
            return message;
        }
    }

    /** {@link #BROADCAST}: the logged message, as the occupants get it. */
    public record Broadcast(Room room, MessageLog.Entry<Occupant> message) {
    }

    /** {@link #OCCUPANT_COUNT}: how many occupants the room had, and has. */
    public record OccupantCount(Room room, int before, int after) {
    }

    /** {@link #DISCO_INFO}: features go to {@code query}, fields to the {@code muc#roominfo} form {@code roomInfo}. */
    public record Describing(Room room, Element query, Element roomInfo) {
    }

    /** A question to the room's features, which start from {@code answer} and may change it. */
    public static final class Question {
        private final Room room;
        private boolean answer;

        public Question(Room room, boolean answer) {
            this.room = room;
            this.answer = answer;
        }

        public Room room() {
            return room;
        }

        public void answer(boolean answer) {
            this.answer = answer;
        }

        public boolean answer() {
            return answer;
        }
    }

    /** {@link #RESTORING}: the configuration a stored room comes back with, as the features leave it. */
    public static final class Restoring {
        private RoomConfig config;

        public Restoring(RoomConfig config) {
            this.config = config;
        }

        public RoomConfig config() {
            return config;
        }

        public void config(RoomConfig config) {
            this.config = config;
        }
    }
}
