package org.reconmuc.component.muc;

import java.time.Instant;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.relaxed.Fanout;
import org.reconmuc.component.relaxed.MessageLog;
import org.reconmuc.component.relaxed.RelaxedState;
import org.reconmuc.component.relaxed.StanzaIds;
import org.reconmuc.component.store.StoredOccupants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * One chat room (XEP-0045): its affiliations, configuration, subject and history, and the
 * features that act on them. Who is in the room and how presence moves people in and out is
 * {@link RoomPresence}; messages, admin, owner, disco and IQ proxying live in their own classes of
 * this package; everything the room sends leaves through its {@link RoomOutput}.
 *
 * <p>Not thread-safe by design: the service hands a room one stanza at a time (its mailbox),
 * so the room needs no locks and sees stanzas in the order the server sent them.
 */
public final class Room {
    private static final Logger LOG = LoggerFactory.getLogger(Room.class);

    private final RoomJid jid;
    private final RoomContext context;
    /** The handlers of the room's features, found once: every message fires them. */
    private final RoomEvents events;
    private RoomConfig config;
    private final Map<RealJid, Affiliation> affiliations = new LinkedHashMap<>();
    private final MessageLog<Occupant> history;
    private final IqProxy iqProxy = new IqProxy();
    private final RoomFloodControl floodControl;
    private final RoomRegistration registration = new RoomRegistration();
    private final RoomLock lock = new RoomLock();
    /** XEP-0421; null when the service is configured without occupant ids. */
    private OccupantIds occupantIds;
    private final StanzaIds ids = new StanzaIds();
    private final RelaxedState<Occupant> consistency;
    private final Fanout<Occupant> fanout;
    private final RoomRequirements requirements;
    /** The last subject change as broadcast (from the occupant who set it), or null. */
    private Message subject;
    private Instant subjectSetAt;
    private boolean justCreated = true;
    private boolean destroyed;
    private volatile RoomListing listing;
    private final RoomPersistence persistence = new RoomPersistence(this);
    private final RoomOutput output;
    private final RoomPresence presence = new RoomPresence(this);
    private final RoomCarry carry = new RoomCarry(this);
    /** What the features keep for this room ({@link RoomState}); null until one keeps something. */
    private Map<RoomState<?>, Object> states;

    Room(RoomJid jid, RoomContext context) {
        this.jid = jid;
        this.context = context;
        this.events = context.events();
        this.output = new RoomOutput(context.journal());
        int historySize = context.config().historySize();
        this.config = RoomConfig.defaults(events.options(), configLimits());
        this.history = new MessageLog<>(historySize, ids, jid.toString());
        RoomRelaxedHost relaxedHost = new RoomRelaxedHost(this);
        this.consistency = new RelaxedState<>(relaxedHost);
        this.fanout = new Fanout<>(relaxedHost, consistency);
        this.requirements = new RoomRequirements(this, consistency, fanout);
        this.floodControl = new RoomFloodControl(context.config());
        this.occupantIds = context.config().occupantIds() ? new OccupantIds() : null;
        fire(RoomEvent.CONFIGURED, new RoomEvent.Configured(this));
        refreshListing();
    }

    /** What the service may read about the room from other threads (room directory). */
    public record RoomListing(RoomJid jid, String name, boolean publicRoom, int occupants) {
    }

    public RoomJid jid() {
        return jid;
    }

    RoomListing listing() {
        return listing;
    }

    boolean destroyed() {
        return destroyed;
    }

    /** Handles one stanza addressed to the room or to one of its occupants. */
    void handle(Packet packet) {
        try {
            if (packet.getFrom() == null) {
                return;
            }
            RealJid session = new RealJid(packet.getFrom());
            // Messages have their own limit, per occupant (RoomMessages): flood control is for presences and IQs.
            if (!(packet instanceof Message) && !floodControl.admits(packet, session, now().toEpochMilli())) {
                output.error(packet, Condition.POLICY_VIOLATION, floodControl.refusal(packet));
                return;
            }
            RoomEvent.Arriving arriving = fire(RoomEvent.ARRIVING, new RoomEvent.Arriving(this, packet, session));
            if (arriving.refused()) {
                arriving.sendRefusal(this, packet);
                if (justCreated) {
                    forget();   // the stanza that would have created the room: it is not
                }
                return;
            }
            if (packet instanceof Presence p) {
                if (justCreated && p.getType() == null && !creationAdmitted(p, session)) {
                    return;
                }
                presence.handle(p, session);
            } else if (packet instanceof Message message) {
                RoomMessages.handle(this, message, session);
            } else if (packet instanceof IQ iq) {
                RoomIqs.handle(this, iq, session);
            }
        } catch (RuntimeException e) {
            LOG.warn("room {}: failed to handle a {} from {}", jid, packet.getElement().getName(), packet.getFrom(), e);
            output.error(packet, Condition.INTERNAL_SERVER_ERROR, "The room could not process this stanza");
        } finally {
            justCreated = false;
            settle();
        }
    }

    /** After a change: what moves with the room is written, an empty temporary room goes, the listing is new. */
    private void settle() {
        carry.writeChanges();
        if (!destroyed && presence.occupants().isEmpty() && !persistent()) {
            forget();
        }
        refreshListing();
    }

    /**
     * The room goes. Its listing says so first: with several instances the directory is the
     * store's, written under the room's lease, which the discard gives back.
     */
    private void forget() {
        destroyed = true;
        refreshListing();
        context.discard(this);
    }

    /**
     * The join that creates the room (a room restored from the store is not created): when its
     * sender may not create rooms, or has as many as they may, it is refused with not-allowed
     * (XEP-0045 §10.1.1) and the room is forgotten at once, whatever its default configuration.
     */
    private boolean creationAdmitted(Presence join, RealJid session) {
        String refusal = context.admitCreation(this, session);
        if (refusal == null) {
            return true;
        }
        output.error(join, Condition.NOT_ALLOWED, refusal);
        forget();
        return false;
    }

    /** Puts the room's XEP-0421 id of {@code from} on a stanza sent from it (and only the room's). */
    public void stampOccupantId(Packet packet, Occupant from) {
        if (occupantIds != null) {
            occupantIds.stamp(packet, from.bareJid());
        } else {
            OccupantIds.strip(packet.getElement());
        }
    }

    boolean hasOccupantIds() {
        return occupantIds != null;
    }

    // ---- shared helpers for the feature classes ----------------------------------------------------

    /** Tells the features' handlers of {@code event} about {@code payload} (see {@link RoomEvents}), and returns it with what they made of it. */
    public <E> E fire(RoomEvent<E> event, E payload) {
        return events.fire(this, event, payload);
    }

    /** What the feature of {@code key} keeps for this room, made now if it kept nothing yet. */
    public <T> T state(RoomState<T> key) {
        if (states == null) {
            states = new IdentityHashMap<>(4);
        }
        @SuppressWarnings("unchecked")
        T kept = (T) states.get(key);
        if (kept == null) {
            kept = key.make(this);
            states.put(key, kept);
        }
        return kept;
    }

    /** What the feature of {@code key} keeps for this room, or null if it kept nothing yet. */
    @SuppressWarnings("unchecked")
    public <T> T kept(RoomState<T> key) {
        return states == null ? null : (T) states.get(key);
    }

    /**
     * Runs {@code task} on the room's own thread after {@code delayMillis} (a feature's timer), unless
     * the room is gone by then; what moves with the room is written after it.
     */
    public void schedule(long delayMillis, Runnable task) {
        context.schedule(delayMillis, () -> {
            if (!destroyed) {
                task.run();
                carry.writeChanges();
            }
        });
    }

    /** A task of a feature's for every room ({@link ServiceHooks#eachRoom}), on the room's thread: then the room settles as after a stanza. */
    void run(Consumer<Room> task) {
        if (!destroyed) {
            task.accept(this);
            settle();
        }
    }

    /** Whether message {@code seq} is hidden from {@code reader} (null: whoever enters now) by a feature ({@link RoomEvent#HIDDEN}). */
    boolean hiddenFrom(long seq, Occupant reader) {
        return fire(RoomEvent.HIDDEN, new RoomEvent.Sight(this, seq, reader)).hidden();
    }

    /**
     * Every standard occupant has now been sent the log up to {@code seq}, but what a feature still
     * withholds (several instances: the room's next owner sends them what follows again).
     */
    public void fannedOut(long seq) {
        carry.fannedOut(seq);
    }

    /** Whether the room outlives its last occupant and the store keeps it ({@link RoomEvent#PERSISTENT}). */
    public boolean persistent() {
        return fire(RoomEvent.PERSISTENT, new RoomEvent.Question(this, false)).answer();
    }

    /** Whether the room keeps an archive of its messages ({@link RoomEvent#ARCHIVING}). */
    boolean archiving() {
        return fire(RoomEvent.ARCHIVING, new RoomEvent.Question(this, true)).answer();
    }

    /** Where everything the room sends goes. */
    public RoomOutput output() {
        return output;
    }

    public Instant now() {
        return context.clock().instant();
    }

    RoomContext context() {
        return context;
    }

    public RoomConfig config() {
        return config;
    }

    /** The service's bounds and defaults for the room's options. */
    RoomConfig.Limits configLimits() {
        return RoomConfig.Limits.of(context.config());
    }

    void setConfig(RoomConfig newConfig) {
        this.config = newConfig;
        fire(RoomEvent.CONFIGURED, new RoomEvent.Configured(this));
        persistence.recordChanged();
    }

    public MessageLog<Occupant> history() {
        return history;
    }

    /** True while the room handles the stanza that created it. */
    boolean justCreated() {
        return justCreated;
    }

    RelaxedState<Occupant> consistency() {
        return consistency;
    }

    /** Where groupchat messages go out (reconmuc.md §5.6, §5.7). */
    public Fanout<Occupant> fanout() {
        return fanout;
    }

    /** The consistency-requirements IQs (reconmuc.md §5.1, §5.2, §5.8). */
    RoomRequirements requirements() {
        return requirements;
    }

    /** A time bound may be due: runs on the room's thread. */
    void onTimer() {
        if (!destroyed) {
            fanout.onTimer();
            carry.writeChanges();
        }
    }

    public StanzaIds ids() {
        return ids;
    }

    RoomRegistration registration() {
        return registration;
    }

    RoomLock lock() {
        return lock;
    }

    IqProxy iqProxy() {
        return iqProxy;
    }

    Message subject() {
        return subject;
    }

    void setSubject(Message subjectBroadcast) {
        Message stored = subjectBroadcast.createCopy();
        stored.setTo((String) null);
        this.subject = stored;
        this.subjectSetAt = now();
        persistence.recordChanged();
    }

    Instant subjectSetAt() {
        return subjectSetAt;
    }

    /** XEP-0421 ids of this room, or null without them. */
    OccupantIds occupantIds() {
        return occupantIds;
    }

    public RoomPersistence persistence() {
        return persistence;
    }

    /** Takes back the state a persistent room had (before any stanza reaches it): see {@link RoomPersistence#restore}. */
    void restore(RoomConfig storedConfig, Message storedSubject, Instant storedSubjectAt, OccupantIds storedIds) {
        this.config = storedConfig;
        this.subject = storedSubject;
        this.subjectSetAt = storedSubjectAt;
        if (occupantIds != null && storedIds != null) {
            this.occupantIds = storedIds;
        }
        this.justCreated = false;
        fire(RoomEvent.CONFIGURED, new RoomEvent.Configured(this));
        refreshListing();
    }

    /**
     * Takes over occupants of the room's last owner (several instances): the room exists already,
     * and is not created by the next join; a temporary room keeps the XEP-0421 key it had
     * ({@code storedIdKey}, null if none), so everyone keeps their occupant id. Returns the
     * sessions that could not be restored (see {@link RoomCarry#carryOn}).
     */
    List<String> carryOn(StoredOccupants stored) {
        if (!persistence.archivedInStore() && occupantIds != null && stored.occupantIdKey() != null) {
            this.occupantIds = OccupantIds.withKey(stored.occupantIdKey());
        }
        List<String> notRestored = carry.carryOn(stored);
        if (!presence.occupants().isEmpty()) {
            justCreated = false;
        }
        carry.writeChanges();
        refreshListing();
        return notRestored;
    }

    /** What the room's next owner needs to carry on with its occupants (several instances). */
    RoomCarry carry() {
        return carry;
    }

    public Occupant occupantBySession(RealJid session) {
        return presence.occupantBySession(session);
    }

    Occupant occupantByNick(String nick) {
        return presence.occupantByNick(nick);
    }

    /** See {@link RoomPresence#occupantByNickIgnoringCase}. */
    Occupant occupantByNickIgnoringCase(String nick) {
        return presence.occupantByNickIgnoringCase(nick);
    }

    /** The occupants, in join order. */
    public Collection<Occupant> occupants() {
        return presence.occupants();
    }

    /** Who is in the room and how the others see them. */
    RoomPresence presence() {
        return presence;
    }

    /**
     * Removes {@code occupant} on a feature's order (a block list that now names it): every session
     * of it and everyone else receive its unavailable presence with {@code statusCode} and {@code reason}.
     */
    public void remove(Occupant occupant, int statusCode, String reason) {
        presence.removeOccupant(occupant, statusCode, null, reason);
    }

    public Affiliation affiliationOf(RealJid user) {
        return affiliations.getOrDefault(user.bare(), Affiliation.NONE);
    }

    Map<RealJid, Affiliation> affiliations() {
        return affiliations;
    }

    /**
     * Sets one user's affiliation; a user left with none, or banned, loses its reserved nickname
     * (XEP-0045 §17.4). Only that user's rows are written, not the whole table.
     */
    void setAffiliation(RealJid user, Affiliation affiliation) {
        if (affiliation == Affiliation.NONE) {
            affiliations.remove(user.bare());
        } else {
            affiliations.put(user.bare(), affiliation);
        }
        if (!affiliation.atLeast(Affiliation.MEMBER)) {
            registration.release(user);
        }
        persistence.affiliationChanged(user);
    }

    Role defaultRole(Affiliation affiliation) {
        return switch (affiliation) {
            case OWNER, ADMIN -> Role.MODERATOR;
            case MEMBER -> Role.PARTICIPANT;
            case NONE -> config.get(ModeratedOption.MODERATED) ? Role.VISITOR : Role.PARTICIPANT;
            case OUTCAST -> Role.NONE;
        };
    }

    /**
     * Destroys the room (XEP-0045 §10.9): each occupant receives only its own unavailable
     * presence, carrying the destroy notice; nobody is told of the others leaving.
     */
    void destroy(Element destroyNotice) {
        persistence.destroying();
        presence.removeEveryone(destroyNotice);
        forget();
    }

    private void refreshListing() {
        String name = config.get(NameOption.NAME);
        int before = listing == null ? 0 : listing.occupants();
        listing = new RoomListing(jid, name.isEmpty() ? jid.node() : name, config.get(PublicOption.PUBLIC) && !destroyed,
                presence.occupants().size());
        // Several instances: the service's room list is answered from the store by whichever gets the query
        // (the journal writes only what changed, and only under a lease).
        context.journal().listing(listing.name(), listing.publicRoom());
        if (listing.occupants() != before) {
            fire(RoomEvent.OCCUPANT_COUNT, new RoomEvent.OccupantCount(this, before, listing.occupants()));
        }
    }
}
