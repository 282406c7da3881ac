package org.reconmuc.component.muc;

import java.util.List;
import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.relaxed.MessageLog;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * One event a room fires, and what it tells its handlers ({@code E}): the open set of points
 * where a {@link RoomFeature} changes what a room does, as Prosody's {@code muc-*} events. A
 * handler of an event that asks ({@link Question}) answers it; one of an event that can be
 * refused ({@link Refusable}) may refuse it, and the room then sends the refusal and goes no
 * further; one of a request ({@link Request}) may take it, and the handlers after it are not asked.
 * Handlers run on the room's thread, one stanza at a time, in the order the service was given the
 * features ({@link RoomEvents}).
 *
 * <p>The core decides first what is the room's own to decide — who is an occupant, with which role,
 * within its own rate, and what a message is — and fires the events of what it lets through.
 *
 * @param <E> what the room tells the handlers
 */
public final class RoomEvent<E> {
    /**
     * A stanza from {@code session} reaches the room, after the sender's own flood limits and before
     * the room looks at it: a feature may refuse it (a real-time block list), and a room the stanza
     * was creating is then forgotten.
     */
    public static final RoomEvent<Arriving> ARRIVING = new RoomEvent<>("arriving");
    /** Someone is entering (XEP-0045 §7.2), after the access rule and the nickname checks: a feature may refuse. */
    public static final RoomEvent<Entering> ENTERING = new RoomEvent<>("entering");
    /** A session has entered: it has had the room's state (others' presences, its own, the history, the subject, §7.2.2–7.2.16), the others not yet its presence. */
    public static final RoomEvent<Session> ENTERED = new RoomEvent<>("entered");
    /** A session leaves by its unavailable presence (§7.14), before anyone is told; {@code occupant} stays while it has other sessions. */
    public static final RoomEvent<Session> LEAVING = new RoomEvent<>("leaving");
    /** An occupant changes its presence — its status, its nick, or it enters again (§7.3, §7.6) — before anyone is told: a feature may refuse it. */
    public static final RoomEvent<Changing> PRESENCE_CHANGE = new RoomEvent<>("presence-change");
    /**
     * An occupant with voice, within its own rate, sends a groupchat message (§7.4) that the room
     * could take now: a feature may refuse it.
     */
    public static final RoomEvent<Speaking> SPEAKING = new RoomEvent<>("speaking");
    /** An occupant with voice changes the subject (a subject and no body, §8.1): a feature may refuse it. */
    public static final RoomEvent<Speaking> SUBJECT_CHANGE = new RoomEvent<>("subject-change");
    /**
     * A groupchat message passed every check and is about to be logged and sent as {@code out}: a
     * feature may keep it from some occupants (the correction of a message they never had).
     */
    public static final RoomEvent<Sending> SENDING = new RoomEvent<>("sending");
    /**
     * A groupchat message has been logged and is about to go out: a feature may withhold it from
     * some occupants for a while ({@link MessageLog.Entry#withholdFrom}), and send it to them later.
     */
    public static final RoomEvent<Logged> LOGGED = new RoomEvent<>("logged");
    /** A groupchat message has been logged and sent out to the occupants (XEP-0045 §7.4). */
    public static final RoomEvent<Broadcast> BROADCAST = new RoomEvent<>("broadcast");
    /**
     * Is logged message {@code seq} hidden from {@code reader} now ({@code null}: from whoever
     * enters now)? No, unless a feature says so. To a reader it is hidden from, the message does not
     * exist yet: nothing the room answers it may depend on it.
     */
    public static final RoomEvent<Sight> HIDDEN = new RoomEvent<>("hidden");
    /** Who has not been sent message {@code seq} and may still be: a feature adds those it withholds it from. */
    public static final RoomEvent<Holders> HOLDERS = new RoomEvent<>("holders");
    /** Its author corrected message {@code seq} (XEP-0308), which is still in the room's history. */
    public static final RoomEvent<Corrected> CORRECTED = new RoomEvent<>("corrected");
    /**
     * How far every standard occupant has surely been sent the log once message {@code seq} went out
     * (several instances): a feature that withholds a message lowers it.
     */
    public static final RoomEvent<Watermark> FANNED_OUT = new RoomEvent<>("fanned-out");
    /** An archive query of {@code reader}'s (XEP-0313) is answered: a feature names stanza-ids the answer leaves out. */
    public static final RoomEvent<ArchiveQuery> ARCHIVE_QUERY = new RoomEvent<>("archive-query");
    /** The number of occupants changed (someone entered or left, was removed or carried over), as the room's listing shows it after a stanza or a take-over. */
    public static final RoomEvent<OccupantCount> OCCUPANT_COUNT = new RoomEvent<>("occupant-count");
    /** disco#info of the room (XEP-0045 §6.4) is being answered: a feature adds its features and fields. */
    public static final RoomEvent<Describing> DISCO_INFO = new RoomEvent<>("disco-info");
    /** An IQ request to the room's bare JID that the core does not answer itself: the feature it is for takes it. */
    public static final RoomEvent<Request> IQ_REQUEST = new RoomEvent<>("iq-request");
    /** Is the room persistent (§10.2 {@code muc#roomconfig_persistentroom}): kept when empty, and in the store? No, unless a feature says so. */
    public static final RoomEvent<Question> PERSISTENT = new RoomEvent<>("persistent");
    /** Does the room keep an archive of its messages (XEP-0313)? Yes, unless a feature says not. */
    public static final RoomEvent<Question> ARCHIVING = new RoomEvent<>("archiving");
    /** The room has its configuration: as it was made, as the store gave it back, or as an owner changed it. */
    public static final RoomEvent<Configured> CONFIGURED = new RoomEvent<>("configured");
    /** A persistent room's record is written: a feature may add what it keeps to the stored configuration form. */
    public static final RoomEvent<Storing> STORING = new RoomEvent<>("storing");
    /** A stored room comes back (at start, or claimed): a feature may adjust the configuration it comes back with, or read what it stored. */
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

    /** {@link #RESTORING}: the configuration a stored room comes back with, as the features leave it, and the form it was stored as (null if unreadable). */
    public static final class Restoring {
        private final Room room;
        private final Element stored;
        private RoomConfig config;

        public Restoring(Room room, RoomConfig config, Element stored) {
            this.room = room;
            this.config = config;
            this.stored = stored;
        }

        public Room room() {
            return room;
        }

        /** The stored configuration form, with what the features added to it ({@link #STORING}); null if it was unreadable. */
        public Element stored() {
            return stored;
        }

        public RoomConfig config() {
            return config;
        }

        public void config(RoomConfig config) {
            this.config = config;
        }
    }

    /** {@link #ARRIVING}: {@code packet} from {@code session}. */
    public static final class Arriving extends Refusable {
        private final Room room;
        private final Packet packet;
        private final RealJid session;

        public Arriving(Room room, Packet packet, RealJid session) {
            this.room = room;
            this.packet = packet;
            this.session = session;
        }

        public Room room() {
            return room;
        }

        public Packet packet() {
            return packet;
        }

        public RealJid session() {
            return session;
        }

        /** The sender's occupant, or null if it is not in the room. */
        public Occupant occupant() {
            return room.occupantBySession(session);
        }
    }

    /** {@link #SENDING}: {@code sender}'s {@code message} (as received) goes out as {@code out}; not to those in {@link #withheldFrom}. */
    public record Sending(Room room, Occupant sender, Message message, Message out, List<Occupant> withheldFrom) {
    }

    /** {@link #LOGGED}: {@code sender}'s {@code message} (as received) is in the log as {@code entry}. */
    public record Logged(Room room, MessageLog.Entry<Occupant> entry, Occupant sender, Message message) {
    }

    /** {@link #HIDDEN}: whether message {@code seq} is hidden from {@code reader} (null: whoever enters now). */
    public static final class Sight {
        private final Room room;
        private final long seq;
        private final Occupant reader;
        private boolean hidden;

        public Sight(Room room, long seq, Occupant reader) {
            this.room = room;
            this.seq = seq;
            this.reader = reader;
        }

        public Room room() {
            return room;
        }

        public long seq() {
            return seq;
        }

        /** Who asks; null for whoever enters the room now. */
        public Occupant reader() {
            return reader;
        }

        public void hide() {
            this.hidden = true;
        }

        public boolean hidden() {
            return hidden;
        }
    }

    /** {@link #HOLDERS}: those who have not been sent message {@code seq} and may still be (a list the handlers add to). */
    public record Holders(Room room, long seq, List<Occupant> holders) {
    }

    /** {@link #CORRECTED}: message {@code seq} was corrected by its author. */
    public record Corrected(Room room, long seq) {
    }

    /** {@link #FANNED_OUT}: every standard occupant has surely been sent the log up to {@link #upTo()}. */
    public static final class Watermark {
        private final Room room;
        private long upTo;

        public Watermark(Room room, long upTo) {
            this.room = room;
            this.upTo = upTo;
        }

        public Room room() {
            return room;
        }

        public long upTo() {
            return upTo;
        }

        /** Not past {@code seq}. */
        public void atMost(long seq) {
            upTo = Math.min(upTo, seq);
        }
    }

    /** {@link #ARCHIVE_QUERY}: the stanza-ids an answer to {@code reader} leaves out (a set the handlers add to). */
    public record ArchiveQuery(Room room, Occupant reader, Set<String> leftOut) {
    }

    /** {@link #IQ_REQUEST}: {@code iq} (a get or set with its child element) from {@code session}, in the room as {@code sender} (or null). */
    public static final class Request {
        private final Room room;
        private final IQ iq;
        private final RealJid session;
        private final Occupant sender;
        private boolean taken;

        public Request(Room room, IQ iq, RealJid session, Occupant sender) {
            this.room = room;
            this.iq = iq;
            this.session = session;
            this.sender = sender;
        }

        public Room room() {
            return room;
        }

        public IQ iq() {
            return iq;
        }

        public Element query() {
            return iq.getChildElement();
        }

        public RealJid session() {
            return session;
        }

        public Occupant sender() {
            return sender;
        }

        /** The handler answers the request: the handlers after it are not asked. */
        public void take() {
            this.taken = true;
        }

        public boolean taken() {
            return taken;
        }
    }

    /** {@link #CONFIGURED}: the room, with its configuration. */
    public record Configured(Room room) {
    }

    /** {@link #STORING}: {@code form}, the room's configuration as it is stored, to which a feature may add. */
    public record Storing(Room room, Element form) {
    }
}
