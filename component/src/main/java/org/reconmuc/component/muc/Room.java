package org.reconmuc.component.muc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.jid.OccupantJid;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * One chat room (XEP-0045): its occupants, affiliations, configuration, subject and history,
 * and how presence moves people in and out. Messages, admin, owner, disco and IQ proxying live
 * in their own classes of this package.
 *
 * <p>Not thread-safe by design: the service hands a room one stanza at a time (its mailbox),
 * so the room needs no locks and sees stanzas in the order the server sent them.
 */
final class Room {
    private static final Logger LOG = LoggerFactory.getLogger(Room.class);

    /** Error conditions that mean a session is gone: its occupant is a ghost (XEP-0045 §7.2.? / status 333). */
    private static final Set<String> GONE_CONDITIONS = Set.of("gone", "item-not-found", "recipient-unavailable",
            "redirect", "remote-server-not-found", "remote-server-timeout", "service-unavailable");

    private final RoomJid jid;
    private final RoomContext context;
    private RoomConfig config;
    /** Occupants by nick, in join order. */
    private final Map<String, Occupant> occupantsByNick = new LinkedHashMap<>();
    private final Map<RealJid, Occupant> occupantsBySession = new HashMap<>();
    private final Map<RealJid, Affiliation> affiliations = new LinkedHashMap<>();
    private final History history;
    private final IqProxy iqProxy = new IqProxy();
    private final RoomFloodControl floodControl;
    private final RoomRegistration registration = new RoomRegistration();
    private final RoomLock lock = new RoomLock();
    /** XEP-0421; null when the service is configured without occupant ids. */
    private OccupantIds occupantIds;
    private final RoomIds ids = new RoomIds();
    private final RoomConsistency consistency;
    /** The last subject change as broadcast (from the occupant who set it), or null. */
    private Message subject;
    private Instant subjectSetAt;
    private boolean justCreated = true;
    private boolean destroyed;
    private volatile RoomListing listing;
    private final RoomPersistence persistence = new RoomPersistence(this);
    private final RoomOutput output;

    Room(RoomJid jid, RoomContext context) {
        this.jid = jid;
        this.context = context;
        this.output = new RoomOutput(this, context.outbox());
        int historySize = context.config().historySize();
        this.config = RoomConfig.instant(historySize, context.config().maxOccupantsPerRoom())
                .withPersistent(context.config().roomDefaultPersistent());
        this.history = new History(historySize, ids, jid.toString());
        this.consistency = new RoomConsistency(this, history.capacity());
        this.floodControl = new RoomFloodControl(context.config());
        this.occupantIds = context.config().occupantIds() ? new OccupantIds() : null;
        refreshListing();
    }

    /** What the service may read about the room from other threads (room directory). */
    record RoomListing(RoomJid jid, String name, boolean publicRoom, int occupants) {
    }

    RoomJid jid() {
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
            if (!floodControl.admits(packet, session, now().toEpochMilli())) {
                output.error(packet, Condition.POLICY_VIOLATION, floodControl.refusal(packet));
                return;
            }
            if (packet instanceof Presence presence) {
                handlePresence(presence, session);
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
            if (!destroyed && occupantsByNick.isEmpty() && !config.persistent()) {
                destroyed = true;
                context.discard(this);
            }
            refreshListing();
        }
    }

    /** Sends an IQ ping to every session, so that sessions the server no longer has answer with an error. */
    void pingOccupants() {
        for (RealJid session : occupantsBySession.keySet()) {
            IQ ping = new IQ(IQ.Type.get);
            ping.setFrom(jid.jid());
            ping.setTo(session.jid());
            ping.setChildElement("ping", Namespaces.PING);
            output.send(ping);
        }
    }

    // ---- presence -----------------------------------------------------------------------------

    private void handlePresence(Presence presence, RealJid session) {
        Occupant current = occupantsBySession.get(session);
        Presence.Type type = presence.getType();
        if (type == Presence.Type.error) {
            removeGhost(current, session, presence);
            return;
        }
        if (type == Presence.Type.unavailable) {
            if (current != null) {
                leave(current, session, presence);
            }
            return;
        }
        if (type != null) {
            return; // subscription requests and probes mean nothing to a room
        }
        JID to = presence.getTo();
        if (to.getResource() == null || to.getResource().isBlank()) {
            output.error(presence, Condition.JID_MALFORMED, "A nickname is required: send presence to room@service/nick");
            return;
        }
        OccupantJid target = jid.occupant(to.getResource());
        if (current == null) {
            join(target, session, presence);
        } else if (current.nick().equals(target.nick())) {
            if (presence.getChildElement("x", Namespaces.MUC) != null) {
                // A client that believes it is not joined (e.g. after a reconnect): give it the room again.
                current.putSession(session, MucPresences.sanitize(presence));
                sendRoomStateTo(current, session, presence, Set.of());
            } else {
                current.putSession(session, MucPresences.sanitize(presence));
                broadcastPresence(current, Set.of());
            }
        } else {
            changeNick(current, session, target, presence);
        }
    }

    private void join(OccupantJid target, RealJid session, Presence presence) {
        Element mucJoin = presence.getChildElement("x", Namespaces.MUC);
        Affiliation affiliation = justCreated ? Affiliation.OWNER : affiliationOf(session);
        Occupant sameNick = occupantsByNick.get(target.nick());
        if (!justCreated && lock.refuses(this, session, presence)) {
            return;
        }
        if (affiliation == Affiliation.OUTCAST) {
            output.error(presence, Condition.FORBIDDEN, "You are banned from this room");
            return;
        }
        if (sameNick != null && !sameNick.bareJid().equals(session.bare())) {
            output.error(presence, Condition.CONFLICT, "The nickname '" + target.nick() + "' is already in use in this room");
            return;
        }
        if (registration.reservedForOther(target.nick(), session)) {
            output.error(presence, Condition.CONFLICT, "The nickname '" + target.nick() + "' is reserved in this room");
            return;
        }
        if (config.membersOnly() && !affiliation.atLeast(Affiliation.MEMBER)) {
            output.error(presence, Condition.REGISTRATION_REQUIRED, "This room is members-only and you are not a member");
            return;
        }
        if (config.passwordProtected() && !affiliation.atLeast(Affiliation.ADMIN)) {
            String given = mucJoin == null ? null : mucJoin.elementText("password");
            if (!config.password().equals(given)) {
                output.error(presence, Condition.NOT_AUTHORIZED, given == null
                        ? "This room requires a password" : "The password is not correct");
                return;
            }
        }
        if (sameNick == null && occupantsByNick.size() >= config.maxUsers() && !affiliation.atLeast(Affiliation.ADMIN)) {
            output.error(presence, Condition.SERVICE_UNAVAILABLE, "wait", "The room is full ("
                    + config.maxUsers() + " occupants)");
            return;
        }
        HistoryRequest historyRequest;
        try {
            historyRequest = HistoryRequest.parse(mucJoin == null ? null : mucJoin.element("history"));
        } catch (IllegalArgumentException e) {
            output.error(presence, Condition.BAD_REQUEST, e.getMessage());
            return;
        }
        Set<Integer> selfCodes = new LinkedHashSet<>();
        if (justCreated) {
            affiliations.put(session.bare(), Affiliation.OWNER);
            persistence.recordChanged();
            selfCodes.add(MucPresences.ROOM_CREATED);
            lock.created(this, presence);
        }
        Occupant occupant;
        if (sameNick != null) {
            // Another session of the same user under the same nick (multi-session).
            occupant = sameNick;
            occupant.putSession(session, MucPresences.sanitize(presence));
        } else {
            long now = now().toEpochMilli();
            occupant = new Occupant(target, session, MucPresences.sanitize(presence), defaultRole(affiliation),
                    new RateLimiter(context.config().messagesPerSecond(), context.config().messageBurst(), now));
            occupantsByNick.put(target.nick(), occupant);
            consistency.joined(occupant);
        }
        occupantsBySession.put(session, occupant);
        consistency.entered();
        sendRoomStateTo(occupant, session, presence, selfCodes, historyRequest);
        if (sameNick == null && config.broadcastsPresenceOf(occupant.role())) {
            for (Occupant other : occupantsByNick.values()) {
                if (other != occupant) {
                    for (RealJid s : other.sessions()) {
                        output.send(presenceOf(occupant, other, s, Set.of()));
                    }
                }
            }
            occupant.setShownToOthers(true);
        }
    }

    private void sendRoomStateTo(Occupant occupant, RealJid session, Presence request, Set<Integer> selfCodes) {
        HistoryRequest historyRequest;
        try {
            Element mucJoin = request.getChildElement("x", Namespaces.MUC);
            historyRequest = HistoryRequest.parse(mucJoin == null ? null : mucJoin.element("history"));
        } catch (IllegalArgumentException e) {
            historyRequest = HistoryRequest.ALL;
        }
        sendRoomStateTo(occupant, session, request, selfCodes, historyRequest);
    }

    /**
     * The join sequence of XEP-0045 §7.2: every other occupant's presence (those the room shows),
     * then the newcomer's own presence (status 110), then discussion history, then the subject.
     */
    private void sendRoomStateTo(Occupant occupant, RealJid session, Presence request, Set<Integer> selfCodes,
            HistoryRequest historyRequest) {
        for (Occupant other : occupantsByNick.values()) {
            if (other != occupant && other.shownToOthers()) {
                output.send(presenceOf(other, occupant, session, Set.of()));
            }
        }
        Set<Integer> codes = new LinkedHashSet<>();
        codes.add(MucPresences.SELF);
        if (config.nonAnonymous()) {
            codes.add(MucPresences.NON_ANONYMOUS);
        }
        codes.addAll(selfCodes);
        Presence self = presenceOf(occupant, occupant, session, codes);
        self.setID(request.getID());
        output.send(self);
        for (History.Entry entry : history.select(historyRequest, now(), config.historyLength())) {
            Message m = delayed(entry);
            m.setTo(session.jid());
            output.send(m);
        }
        Message subjectMessage;
        if (subject != null) {
            subjectMessage = subject.createCopy();
            // XEP-0203: when the subject was set and by whom, not when the newcomer joined.
            Element delay = subjectMessage.getElement().addElement("delay", XmlNamespaces.DELAY);
            delay.addAttribute("from", subject.getFrom().toString());
            delay.addAttribute("stamp", subjectSetAt.toString());
        } else {
            subjectMessage = new Message();
            subjectMessage.setType(Message.Type.groupchat);
            subjectMessage.setFrom(jid.jid());
            subjectMessage.getElement().addElement("subject");
        }
        subjectMessage.setTo(session.jid());
        output.send(subjectMessage);
    }

    /** A logged message as sent later: with an XEP-0203 delay saying when the room received it. */
    Message delayed(History.Entry entry) {
        Message m = entry.broadcast().createCopy();
        Element delay = m.getElement().addElement("delay", XmlNamespaces.DELAY);
        delay.addAttribute("from", jid.toString());
        delay.addAttribute("stamp", entry.at().toString());
        return m;
    }

    private void leave(Occupant occupant, RealJid session, Presence presence) {
        occupant.removeSession(session);
        occupantsBySession.remove(session);
        Presence goodbye = new Presence(Presence.Type.unavailable);
        if (presence.getStatus() != null) {
            goodbye.setStatus(presence.getStatus());
        }
        if (occupant.sessionCount() > 0) {
            // Other sessions stay: only this one learns it has left.
            Presence self = unavailableOf(occupant, goodbye, occupant, Set.of(MucPresences.SELF));
            self.setTo(session.jid());
            output.send(self);
            broadcastPresence(occupant, Set.of());
            return;
        }
        occupantsByNick.remove(occupant.nick());
        consistency.left(occupant);
        Presence self = unavailableOf(occupant, goodbye, occupant, Set.of(MucPresences.SELF));
        self.setTo(session.jid());
        self.setID(presence.getID());
        output.send(self);
        for (Occupant other : shownTo(occupant)) {
            output.toOccupant(other, unavailableOf(occupant, goodbye, other, Set.of()));
        }
    }

    /**
     * §7.6. An occupant joined from several sessions is one occupant: all its sessions change nick
     * together (each gets the 303 and the new presence with 110), as Prosody does.
     */
    private void changeNick(Occupant occupant, RealJid session, OccupantJid target, Presence presence) {
        if (registration.reservedForOther(target.nick(), session)) {
            output.error(presence, Condition.CONFLICT, "The nickname '" + target.nick() + "' is reserved in this room");
            return;
        }
        Occupant holder = occupantsByNick.get(target.nick());
        if (holder != null) {
            output.error(presence, Condition.CONFLICT, "The nickname '" + target.nick() + "' is already in use in this room");
            return;
        }
        Presence goodbye = new Presence(Presence.Type.unavailable);
        for (Occupant viewer : shownTo(occupant)) {
            Set<Integer> codes = viewer == occupant
                    ? Set.of(MucPresences.NICK_CHANGED, MucPresences.SELF) : Set.of(MucPresences.NICK_CHANGED);
            Presence p = unavailableOf(occupant, goodbye, viewer, codes);
            Element item = p.getChildElement("x", Namespaces.MUC_USER).element("item");
            // §7.6 Examples 51/52: the occupant stays in the room, so the 303 keeps its current role.
            item.addAttribute("role", occupant.role().xmlValue());
            item.addAttribute("nick", target.nick());
            output.toOccupant(viewer, p);
        }
        occupantsByNick.remove(occupant.nick());
        occupant.rename(target);
        occupantsByNick.put(target.nick(), occupant);
        occupant.putSession(session, MucPresences.sanitize(presence));
        for (Occupant viewer : shownTo(occupant)) {
            for (RealJid s : viewer.sessions()) {
                Presence p = presenceOf(occupant, viewer, s, viewer == occupant ? Set.of(MucPresences.SELF) : Set.of());
                if (s.equals(session)) {
                    p.setID(presence.getID());
                }
                output.send(p);
            }
        }
    }

    /** An error from a session the room sent something to: if it says the session is gone, drop it. */
    void removeGhost(Occupant occupant, RealJid session, Packet error) {
        if (occupant == null || !GONE_CONDITIONS.contains(StanzaErrors.conditionOf(error))) {
            return;
        }
        LOG.debug("room {}: removing {} after a '{}' error", jid, session, StanzaErrors.conditionOf(error));
        occupant.removeSession(session);
        occupantsBySession.remove(session);
        if (occupant.sessionCount() > 0) {
            broadcastPresence(occupant, Set.of());
            return;
        }
        occupantsByNick.remove(occupant.nick());
        consistency.left(occupant);
        Presence goodbye = new Presence(Presence.Type.unavailable);
        for (Occupant other : shownTo(occupant)) {
            output.toOccupant(other, unavailableOf(occupant, goodbye, other, Set.of(MucPresences.REMOVED_BY_ERROR)));
        }
    }

    /**
     * Removes an occupant on someone's order (kick, ban, membership lost):
     * every session of it and everyone else receive its unavailable presence with the reason.
     */
    void removeOccupant(Occupant occupant, int statusCode, String actorNick, String reason) {
        for (RealJid s : occupant.sessions()) {
            occupantsBySession.remove(s);
        }
        occupantsByNick.remove(occupant.nick());
        consistency.left(occupant);
        Presence goodbye = new Presence(Presence.Type.unavailable);
        List<Occupant> viewers = new ArrayList<>(shownTo(occupant));
        viewers.add(occupant);
        for (Occupant viewer : viewers) {
            Set<Integer> codes = new LinkedHashSet<>();
            if (statusCode > 0) {
                codes.add(statusCode);
            }
            if (viewer == occupant) {
                codes.add(MucPresences.SELF);
            }
            Presence p = unavailableOf(occupant, goodbye, viewer, codes);
            Element x = p.getChildElement("x", Namespaces.MUC_USER);
            Element item = x.element("item");
            if (actorNick != null) {
                item.addElement("actor").addAttribute("nick", actorNick);
            }
            if (reason != null && !reason.isEmpty()) {
                item.addElement("reason").setText(reason);
            }
            output.toOccupant(viewer, p);
        }
    }

    // ---- presence rendering -------------------------------------------------------------------

    /** The presence of {@code subject} as {@code viewer} sees it (real JID only where allowed). */
    Presence presenceOf(Occupant subjectOccupant, Occupant viewer, RealJid viewerSession, Set<Integer> codes) {
        Presence p = subjectOccupant.presence().createCopy();
        p.setFrom(subjectOccupant.jid().jid());
        p.setTo(viewerSession.jid());
        MucPresences.addUserItem(p, affiliationOf(subjectOccupant.bareJid()), subjectOccupant.role(),
                realJidVisibleTo(subjectOccupant, viewer), codes);
        stampOccupantId(p, subjectOccupant);
        return p;
    }

    /** Puts the room's XEP-0421 id of {@code from} on a stanza sent from it (and only the room's). */
    void stampOccupantId(Packet packet, Occupant from) {
        if (occupantIds != null) {
            occupantIds.stamp(packet, from.bareJid());
        } else {
            OccupantIds.strip(packet.getElement());
        }
    }

    boolean hasOccupantIds() {
        return occupantIds != null;
    }

    private Presence unavailableOf(Occupant leaving, Presence goodbye, Occupant viewer, Set<Integer> codes) {
        Presence p = goodbye.createCopy();
        p.setFrom(leaving.jid().jid());
        Affiliation affiliation = affiliationOf(leaving.bareJid());
        MucPresences.addUserItem(p, affiliation, Role.NONE, realJidVisibleTo(leaving, viewer), codes);
        stampOccupantId(p, leaving);
        return p;
    }

    String realJidVisibleTo(Occupant subjectOccupant, Occupant viewer) {
        boolean visible = config.nonAnonymous() || viewer == subjectOccupant
                || (viewer != null && viewer.role() == Role.MODERATOR);
        return visible ? subjectOccupant.shownRealJid().toString() : null;
    }

    /**
     * Each session of {@code occupant} receives its current presence with status 110, everyone else
     * the presence they are to see now ({@link #currentPresenceOf}).
     */
    void broadcastPresence(Occupant occupant, Set<Integer> extraCodes) {
        for (Occupant viewer : occupantsByNick.values()) {
            Set<Integer> codes = new LinkedHashSet<>(extraCodes);
            if (viewer == occupant) {
                codes.add(MucPresences.SELF);
            }
            for (RealJid s : viewer.sessions()) {
                Presence p = currentPresenceOf(occupant, viewer, s, codes);
                if (p != null) {
                    output.send(p);
                }
            }
        }
        presenceShown(occupant);
    }

    /**
     * {@code subject}'s presence as {@code viewer} is to be sent it after a change, or null: the
     * others see an occupant only while the room broadcasts its role's presence
     * ({@code muc#roomconfig_presencebroadcast}), and one whose role stops being broadcast leaves
     * their view with an unavailable presence. Whoever sends it to everyone then calls
     * {@link #presenceShown}.
     */
    Presence currentPresenceOf(Occupant subject, Occupant viewer, RealJid viewerSession, Set<Integer> codes) {
        if (viewer == subject || config.broadcastsPresenceOf(subject.role())) {
            return presenceOf(subject, viewer, viewerSession, codes);
        }
        if (!subject.shownToOthers()) {
            return null;
        }
        Presence p = unavailableOf(subject, new Presence(Presence.Type.unavailable), viewer, codes);
        p.setTo(viewerSession.jid());
        return p;
    }

    /** Everyone has been sent {@code subject}'s current presence (see {@link #currentPresenceOf}). */
    void presenceShown(Occupant subject) {
        subject.setShownToOthers(config.broadcastsPresenceOf(subject.role()));
    }

    /** Who is sent {@code subject}'s presences: itself, and the others while they see it. */
    private List<Occupant> shownTo(Occupant subject) {
        if (subject.shownToOthers()) {
            return new ArrayList<>(occupantsByNick.values());
        }
        return occupantsByNick.get(subject.nick()) == subject ? List.of(subject) : List.of();
    }

    // ---- shared helpers for the feature classes ----------------------------------------------------

    /** Where everything the room sends goes. */
    RoomOutput output() {
        return output;
    }

    Instant now() {
        return context.clock().instant();
    }

    RoomContext context() {
        return context;
    }

    RoomConfig config() {
        return config;
    }

    void setConfig(RoomConfig newConfig) {
        this.config = newConfig;
        persistence.recordChanged();
    }

    History history() {
        return history;
    }

    RoomConsistency consistency() {
        return consistency;
    }

    /** A time bound may be due: runs on the room's thread. */
    void onTimer() {
        if (!destroyed) {
            consistency.fanout().onTimer();
        }
    }

    RoomIds ids() {
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

    RoomPersistence persistence() {
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
        refreshListing();
    }

    Occupant occupantBySession(RealJid session) {
        return occupantsBySession.get(session);
    }

    Occupant occupantByNick(String nick) {
        return occupantsByNick.get(nick);
    }

    /**
     * The occupant a {@code nick:} prefix addresses: the exact nick, else the one nick equal
     * ignoring case (reconmuc.md §5.5). The case-insensitive look-up scans, but only for a
     * prefix that names no occupant exactly.
     */
    Occupant occupantByNickIgnoringCase(String nick) {
        Occupant exact = occupantsByNick.get(nick);
        if (exact != null || nick.isEmpty() || nick.length() > 64) {
            return exact;
        }
        for (Occupant o : occupantsByNick.values()) {
            if (o.nick().equalsIgnoreCase(nick)) {
                return o;
            }
        }
        return null;
    }

    Collection<Occupant> occupants() {
        return occupantsByNick.values();
    }

    Affiliation affiliationOf(RealJid user) {
        return affiliations.getOrDefault(user.bare(), Affiliation.NONE);
    }

    Map<RealJid, Affiliation> affiliations() {
        return affiliations;
    }

    void setAffiliation(RealJid user, Affiliation affiliation) {
        if (affiliation == Affiliation.NONE) {
            affiliations.remove(user.bare());
        } else {
            affiliations.put(user.bare(), affiliation);
        }
        persistence.recordChanged();
    }

    Role defaultRole(Affiliation affiliation) {
        return switch (affiliation) {
            case OWNER, ADMIN -> Role.MODERATOR;
            case MEMBER -> Role.PARTICIPANT;
            case NONE -> config.moderated() ? Role.VISITOR : Role.PARTICIPANT;
            case OUTCAST -> Role.NONE;
        };
    }

    /**
     * Destroys the room (XEP-0045 §10.9): each occupant receives only its own unavailable
     * presence, carrying the destroy notice; nobody is told of the others leaving.
     */
    void destroy(Element destroyNotice) {
        persistence.destroying();
        for (Occupant o : new ArrayList<>(occupantsByNick.values())) {
            Presence p = unavailableOf(o, new Presence(Presence.Type.unavailable), o, Set.of(MucPresences.SELF));
            p.getChildElement("x", Namespaces.MUC_USER).add(destroyNotice.createCopy());
            output.toOccupant(o, p);
            consistency.left(o);
        }
        occupantsByNick.clear();
        occupantsBySession.clear();
        destroyed = true;
        context.discard(this);
    }

    private void refreshListing() {
        listing = new RoomListing(jid, config.name().isEmpty() ? jid.node() : config.name(), config.publicRoom(),
                occupantsByNick.size());
    }
}
