package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.jid.OccupantJid;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.limits.TokenBucket;
import org.reconmuc.component.protocol.PresenceLevel;
import org.reconmuc.component.relaxed.MessageLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Who is in a room and how the others see them (XEP-0045 §7.1–§7.6, §7.14, §9–§10 removals):
 * entering (the join checks and the join sequence), presence updates, nick changes, leaving,
 * ghosts (status 333), removals ordered by someone (kick, ban, membership lost), and each
 * occupant's presence as a given viewer is to see it ({@code muc#roomconfig_presencebroadcast} and
 * large rooms, real JIDs), rendered once for all the viewers who see it alike. It owns the
 * occupants; the room's other features read them through {@link Room}.
 */
final class RoomPresence {
    private static final Logger LOG = LoggerFactory.getLogger(RoomPresence.class);

    /**
     * Conditions of a bounce that mean the session is gone: its occupant is a ghost (status 333).
     * Prosody's own MUC removes an occupant for these when a message the room sent comes back as an
     * error (plugins/muc/util.lib.lua {@code kickable_error_conditions}, and an error that names
     * none), and ejabberd for the same named ones (mod_muc_room.erl {@code check_error_kick}). A session
     * the server no longer has is bounced with {@code service-unavailable} from its full JID by both
     * (Prosody mod_message/mod_iq, ejabberd_sm).
     */
    private static final Set<String> GONE_CONDITIONS = Set.of("gone", "internal-server-error", "item-not-found",
            "jid-malformed", "recipient-unavailable", "redirect", "remote-server-not-found", "remote-server-timeout",
            "service-unavailable");
    /**
     * What a live client answers a ping it does not understand (RFC 6120 §8.4; XEP-0410 §3: "the
     * client is joined, but does not implement XEP-0199"). A server says the first too for a session
     * it no longer has, so the answer alone decides nothing: see {@link #pingAnswered}.
     */
    private static final Set<String> PING_NOT_UNDERSTOOD = Set.of("service-unavailable", "feature-not-implemented");
    private static final String PING_ID_PREFIX = "ghostcheck-";

    private final Room room;
    public final PresenceLevels levels = new PresenceLevels(this);
    /** Occupants by nick, in join order. */
    private final Map<String, Occupant> occupantsByNick = new LinkedHashMap<>();
    private final Map<RealJid, Occupant> occupantsBySession = new HashMap<>();
    /** The room's own pings not yet answered, by id, to the session each went to (one round at a time). */
    private final Map<String, RealJid> pendingPings = new HashMap<>();
    private long pingCounter;

    public RoomPresence(Room room) {
        this.room = room;
    }

    /**
     * An occupant of the room's last owner, back as it was (see {@link RoomCarry}): nobody is sent
     * anything, and nothing is written (the store has it already).
     */
    public Occupant carryIn(OccupantJid jid, List<RealJid> sessions, Presence presence, Role role, boolean shown) {
        long now = room.now().toEpochMilli();
        Occupant occupant = new Occupant(jid, sessions.get(0), presence, role,
                new TokenBucket(room.context().config().messagesPerSecond(), room.context().config().messageBurst(), now));
        for (RealJid s : sessions.subList(1, sessions.size())) {
            occupant.putSession(s, presence);
        }
        occupant.setShownToOthers(shown);
        occupantsByNick.put(jid.nick(), occupant);
        for (RealJid s : sessions) {
            occupantsBySession.put(s, occupant);
        }
        room.consistency().joined(occupant);
        return occupant;
    }

    /**
     * Sends an IQ ping to every session, so that sessions the server no longer has answer with an
     * error; an earlier round's pings still unanswered are forgotten.
     */
    public void pingOccupants() {
        pendingPings.clear();
        for (RealJid session : occupantsBySession.keySet()) {
            IQ ping = new IQ(IQ.Type.get, PING_ID_PREFIX + (++pingCounter));
            ping.setFrom(room.jid().jid());
            ping.setTo(session.jid());
            ping.setChildElement("ping", Namespaces.PING);
            pendingPings.put(ping.getID(), session);
            room.output().send(ping);
        }
    }

    /**
     * A result or error sent to the room itself by {@code session}: if it answers the room's ping to
     * that session, it says whether the session is still there. Any other IQ answer is nobody's
     * evidence and is dropped.
     */
    public void pingAnswered(IQ answer, RealJid session) {
        if (!session.equals(pendingPings.get(answer.getID()))) {
            return;
        }
        pendingPings.remove(answer.getID());
        Occupant occupant = occupantsBySession.get(session);
        if (occupant == null || answer.getType() != IQ.Type.error) {
            return;
        }
        if (PING_NOT_UNDERSTOOD.contains(StanzaErrors.conditionOf(answer))) {
            // A live client without XEP-0199, or its server for a session that is gone: ask with what
            // only a server answers. A groupchat message with nothing to show passes a live client
            // by (as the room's status-code messages do); a session the server no longer has is
            // bounced with service-unavailable (Prosody mod_message, ejabberd_sm), a message error
            // that removeGhost takes as the session's end.
            Message probe = new Message();
            probe.setType(Message.Type.groupchat);
            probe.setID(answer.getID());
            probe.setFrom(room.jid().jid());
            probe.setTo(session.jid());
            room.output().send(probe);
            return;
        }
        removeGhost(occupant, session, answer);
    }

    // ---- presence -----------------------------------------------------------------------------

    /** A presence from {@code session} to the room or one of its occupants. */
    public void handle(Presence presence, RealJid session) {
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
            room.output().error(presence, Condition.JID_MALFORMED, "A nickname is required: send presence to room@service/nick");
            return;
        }
        OccupantJid target = room.jid().occupant(to.getResource());
        PresenceLevel level;
        try {
            level = PresenceLevels.requested(room, presence);
        } catch (PresenceLevels.Refused refused) {
            return;
        }
        if (current == null) {
            join(target, session, presence, level);
        } else if (refusedChange(current, presence)) {
            return;
        } else if (current.nick().equals(target.nick())) {
            if (presence.getChildElement("x", Namespaces.MUC) != null) {
                // A client that believes it is not joined (e.g. after a reconnect): give it the room again,
                // and its batches a new stream (its inflater is new too).
                current.putSession(session, MucPresences.sanitize(presence));
                current.entered(room.history().head());
                levels.entering(current, level);
                room.consistency().sessionRejoined(session);
                room.carry().changed(current);
                sendRoomStateTo(current, session, presence, Set.of());
            } else {
                current.putSession(session, MucPresences.sanitize(presence));
                if (level != null) {
                    levels.change(current, level);
                }
                broadcastPresence(current, Set.of());
            }
        } else {
            changeNick(current, session, target, presence);
        }
    }

    /** Whether a feature refuses {@code occupant}'s change of presence ({@link RoomEvent#PRESENCE_CHANGE}); if so the refusal is sent. */
    private boolean refusedChange(Occupant occupant, Presence presence) {
        RoomEvent.Changing changing = room.fire(RoomEvent.PRESENCE_CHANGE, new RoomEvent.Changing(room, occupant));
        if (changing.refused()) {
            changing.sendRefusal(room, presence);
        }
        return changing.refused();
    }

    private void join(OccupantJid target, RealJid session, Presence presence, PresenceLevel level) {
        Element mucJoin = presence.getChildElement("x", Namespaces.MUC);
        Affiliation affiliation = room.justCreated() ? Affiliation.OWNER : room.affiliationOf(session);
        Occupant sameNick = occupantsByNick.get(target.nick());
        if (!room.justCreated() && room.lock().refuses(room, session, presence)) {
            return;
        }
        String password = mucJoin == null ? null : mucJoin.elementText("password");
        if (RoomAccess.refuses(room, presence, RoomAccess.Act.ENTER, session, null, password)) {
            return;
        }
        if (sameNick != null && !sameNick.bareJid().equals(session.bare())) {
            room.output().error(presence, Condition.CONFLICT, "The nickname '" + target.nick() + "' is already in use in this room");
            return;
        }
        if (room.registration().reservedForOther(target.nick(), session)) {
            room.output().error(presence, Condition.CONFLICT, "The nickname '" + target.nick() + "' is reserved in this room");
            return;
        }
        RoomEvent.Entering entering = room.fire(RoomEvent.ENTERING,
                new RoomEvent.Entering(room, session, presence, affiliation, sameNick == null));
        if (entering.refused()) {
            entering.sendRefusal(room, presence);
            return;
        }
        HistoryRequest historyRequest = HistoryRequest.parse(mucJoin == null ? null : mucJoin.element("history"));
        Set<Integer> selfCodes = new LinkedHashSet<>();
        if (room.justCreated()) {
            room.affiliations().put(session.bare(), Affiliation.OWNER);
            room.persistence().recordChanged();
            selfCodes.add(MucPresences.ROOM_CREATED);
            room.lock().created(room, presence);
        }
        Occupant occupant;
        if (sameNick != null) {
            // Another session of the same user under the same nick (multi-session).
            occupant = sameNick;
            occupant.putSession(session, MucPresences.sanitize(presence));
        } else {
            long now = room.now().toEpochMilli();
            occupant = new Occupant(target, session, MucPresences.sanitize(presence), room.defaultRole(affiliation),
                    new TokenBucket(room.context().config().messagesPerSecond(), room.context().config().messageBurst(), now));
            occupantsByNick.put(target.nick(), occupant);
            room.consistency().joined(occupant);
        }
        occupantsBySession.put(session, occupant);
        occupant.entered(room.history().head());
        levels.entering(occupant, level);
        room.context().journal().occupantIn(session.toString(), occupant.nick());
        room.consistency().entered(RoomArchive.readableFrom(room));
        sendRoomStateTo(occupant, session, presence, selfCodes, historyRequest);
        room.fire(RoomEvent.ENTERED, new RoomEvent.Session(room, occupant, session));
        if (sameNick == null && showsToOthers(occupant)) {
            for (List<Occupant> view : viewsOf(occupant, levels.wanting(occupant, others(occupant)))) {
                room.output().toOccupants(view, presenceOf(occupant, view.get(0), Set.of()));
            }
            occupant.setShownToOthers(true);
        }
        room.carry().changed(occupant);
    }

    private void sendRoomStateTo(Occupant occupant, RealJid session, Presence request, Set<Integer> selfCodes) {
        Element mucJoin = request.getChildElement("x", Namespaces.MUC);
        HistoryRequest historyRequest = HistoryRequest.parse(mucJoin == null ? null : mucJoin.element("history"));
        sendRoomStateTo(occupant, session, request, selfCodes, historyRequest);
    }

    /**
     * The join sequence of XEP-0045 §7.2: every other occupant's presence (those the room shows),
     * then the newcomer's own presence (status 110), then discussion history, then the subject.
     */
    private void sendRoomStateTo(Occupant occupant, RealJid session, Presence request, Set<Integer> selfCodes,
            HistoryRequest historyRequest) {
        for (Occupant other : levels.onEntry(occupant, occupantsByNick.values())) {
            room.output().toSession(session, presenceOf(other, occupant, Set.of()));
        }
        Set<Integer> codes = new LinkedHashSet<>();
        codes.add(MucPresences.SELF);
        for (RoomOption<?> option : room.config().options()) {
            option.addEntryCodes(room.config(), codes);
        }
        codes.addAll(selfCodes);
        Presence self = presenceOf(occupant, occupant, codes);
        self.setTo(session.jid());
        self.setID(request.getID());
        room.output().send(self);
        for (MessageLog.Entry<Occupant> entry : history(historyRequest)) {
            Message m = entry.delayed(room.jid().toString());
            m.setTo(session.jid());
            room.output().send(m);
        }
        Message subjectMessage;
        Message subject = room.subject();
        if (subject != null) {
            subjectMessage = subject.createCopy();
            // XEP-0203: when the subject was set and by whom, not when the newcomer joined.
            Element delay = subjectMessage.getElement().addElement("delay", XmlNamespaces.DELAY);
            delay.addAttribute("from", subject.getFrom().toString());
            delay.addAttribute("stamp", room.subjectSetAt().toString());
        } else {
            subjectMessage = new Message();
            subjectMessage.setType(Message.Type.groupchat);
            subjectMessage.setFrom(room.jid().jid());
            subjectMessage.getElement().addElement("subject");
        }
        subjectMessage.setTo(session.jid());
        room.output().send(subjectMessage);
    }

    /** The discussion history a join asked for (§7.2.15), within the room's history length. */
    private List<MessageLog.Entry<Occupant>> history(HistoryRequest request) {
        int max = room.config().get(HistoryLengthOption.HISTORY_LENGTH);
        if (request.maxStanzas() != null) {
            max = Math.min(max, request.maxStanzas());
        }
        return room.history().newest(max, request.maxChars(),
                request.within() == null ? null : room.now().minus(request.within()), request.since())
                .stream().filter(e -> !room.hiddenFrom(e.seq(), null)).toList();
    }

    private void leave(Occupant occupant, RealJid session, Presence presence) {
        occupant.removeSession(session);
        occupantsBySession.remove(session);
        room.fire(RoomEvent.LEAVING, new RoomEvent.Session(room, occupant, session));
        room.context().journal().occupantOut(session.toString());
        room.consistency().sessionLeft(session);
        Presence goodbye = new Presence(Presence.Type.unavailable);
        if (presence.getStatus() != null) {
            goodbye.setStatus(presence.getStatus());
        }
        if (occupant.sessionCount() > 0) {
            // Other sessions stay: only this one learns it has left.
            Presence self = unavailableOf(occupant, goodbye, occupant, Set.of(MucPresences.SELF));
            self.setTo(session.jid());
            room.output().send(self);
            broadcastPresence(occupant, Set.of());
            return;
        }
        occupantsByNick.remove(occupant.nick());
        room.consistency().left(occupant);
        room.carry().gone(occupant.nick());
        Presence self = unavailableOf(occupant, goodbye, occupant, Set.of(MucPresences.SELF));
        self.setTo(session.jid());
        self.setID(presence.getID());
        room.output().send(self);
        sendToOthers(occupant, viewer -> unavailableOf(occupant, goodbye, viewer, Set.of()));
        levels.left(occupant);
    }

    /**
     * §7.6. An occupant joined from several sessions is one occupant: all its sessions change nick
     * together (each gets the 303 and the new presence with 110), as Prosody does.
     */
    private void changeNick(Occupant occupant, RealJid session, OccupantJid target, Presence presence) {
        if (room.registration().reservedForOther(target.nick(), session)) {
            room.output().error(presence, Condition.CONFLICT, "The nickname '" + target.nick() + "' is reserved in this room");
            return;
        }
        Occupant holder = occupantsByNick.get(target.nick());
        if (holder != null) {
            room.output().error(presence, Condition.CONFLICT, "The nickname '" + target.nick() + "' is already in use in this room");
            return;
        }
        Presence goodbye = new Presence(Presence.Type.unavailable);
        Function<Occupant, Presence> nickChanged = viewer -> {
            Set<Integer> codes = viewer == occupant
                    ? Set.of(MucPresences.NICK_CHANGED, MucPresences.SELF) : Set.of(MucPresences.NICK_CHANGED);
            Presence p = unavailableOf(occupant, goodbye, viewer, codes);
            Element item = p.getChildElement("x", Namespaces.MUC_USER).element("item");
            // §7.6 Examples 51/52: the occupant stays in the room, so the 303 keeps its current role.
            item.addAttribute("role", occupant.role().xmlValue());
            item.addAttribute("nick", target.nick());
            return p;
        };
        room.output().toOccupant(occupant, nickChanged.apply(occupant));
        sendToOthers(occupant, nickChanged);
        String formerNick = occupant.nick();
        occupantsByNick.remove(formerNick);
        occupant.rename(target);
        occupantsByNick.put(target.nick(), occupant);
        room.carry().renamed(formerNick, occupant);
        for (RealJid s : occupant.sessions()) {
            room.context().journal().occupantIn(s.toString(), target.nick());
        }
        occupant.putSession(session, MucPresences.sanitize(presence));
        for (RealJid s : occupant.sessions()) {
            Presence p = presenceOf(occupant, occupant, Set.of(MucPresences.SELF));
            p.setTo(s.jid());
            if (s.equals(session)) {
                p.setID(presence.getID());   // the answer to the request: its session's own
            }
            room.output().send(p);
        }
        sendToOthers(occupant, viewer -> presenceOf(occupant, viewer, Set.of()));
    }

    /**
     * A bounce from {@code session} of a message or presence the room sent it, or its answer to the
     * room's ping: if it says the session is gone, drop it. Never called for an answer to a request
     * the room passed on from another occupant ({@link IqProxy}): that is the asker's answer.
     */
    public void removeGhost(Occupant occupant, RealJid session, Packet error) {
        String condition = StanzaErrors.conditionOf(error);
        // An error that names no condition counts as gone, as in Prosody ("malformed error").
        if (occupant == null || condition != null && !GONE_CONDITIONS.contains(condition)) {
            return;
        }
        if (error instanceof Message bounced && sentBeforeItsLastEntry(occupant, bounced)) {
            LOG.debug("room {}: not removing {}: the '{}' error bounces a message sent before it entered again",
                    room.jid(), session, condition);
            return;
        }
        LOG.debug("room {}: removing {} after a '{}' error", room.jid(), session, condition);
        occupant.removeSession(session);
        occupantsBySession.remove(session);
        room.context().journal().occupantOut(session.toString());
        room.consistency().sessionLeft(session);
        if (occupant.sessionCount() > 0) {
            broadcastPresence(occupant, Set.of());
            return;
        }
        occupantsByNick.remove(occupant.nick());
        room.consistency().left(occupant);
        room.carry().gone(occupant.nick());
        Presence goodbye = new Presence(Presence.Type.unavailable);
        sendToOthers(occupant, viewer -> unavailableOf(occupant, goodbye, viewer, Set.of(MucPresences.REMOVED_BY_ERROR)));
        levels.left(occupant);
    }

    /**
     * Whether {@code bounced} returns one of the room's messages sent before a session of
     * {@code occupant} last entered: the evidence of an earlier session under the same full JID, not
     * of the one in the room now. A client that lost its connection and comes back with the same
     * resource before its server gave up the old session (XEP-0198 resumption pending) joins again;
     * when the server then ends the old session it bounces the room's messages still unacknowledged
     * there ({@code service-unavailable}, ejabberd's {@code resend_on_timeout: false}, the default),
     * from that same full JID: taken as proof, they removed the new session, which got nothing more
     * and was told nothing. A copy from the history sent at the entry ({@code <delay/>}) was sent
     * after it, and a message no longer in the room's memory cannot be dated: both count, as before.
     */
    private boolean sentBeforeItsLastEntry(Occupant occupant, Message bounced) {
        if (bounced.getChildElement("delay", XmlNamespaces.DELAY) != null) {
            return false;
        }
        long seq = bounced.getTo() == null ? 0 : room.history().seqOfSent(bounced.getTo(), bounced.getID());
        return seq > 0 && seq <= occupant.lastEntryAt();
    }

    /**
     * Removes an occupant on someone's order (kick, ban, membership lost):
     * every session of it and everyone else receive its unavailable presence with the reason.
     */
    public void removeOccupant(Occupant occupant, int statusCode, String actorNick, String reason) {
        for (RealJid s : occupant.sessions()) {
            occupantsBySession.remove(s);
            room.context().journal().occupantOut(s.toString());
        }
        occupantsByNick.remove(occupant.nick());
        room.consistency().left(occupant);
        room.carry().gone(occupant.nick());
        Presence goodbye = new Presence(Presence.Type.unavailable);
        Function<Occupant, Presence> removed = viewer -> {
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
            return p;
        };
        sendToOthers(occupant, removed);
        levels.left(occupant);
        room.output().toOccupant(occupant, removed.apply(occupant));
    }

    // ---- presence rendering -------------------------------------------------------------------

    /** The presence of {@code subject} as {@code viewer} sees it (real JID only where allowed), without a {@code to}. */
    Presence presenceOf(Occupant subjectOccupant, Occupant viewer, Set<Integer> codes) {
        Presence p = subjectOccupant.presence().createCopy();
        p.setFrom(subjectOccupant.jid().jid());
        MucPresences.addUserItem(p, room.affiliationOf(subjectOccupant.bareJid()), subjectOccupant.role(),
                realJidVisibleTo(subjectOccupant, viewer), codes);
        room.stampOccupantId(p, subjectOccupant);
        return p;
    }

    /** {@code subject} leaves {@code viewer}'s view, though it stays in the room (a role or a level no longer shown). */
    Presence unavailableOf(Occupant subject, Occupant viewer) {
        return unavailableOf(subject, new Presence(Presence.Type.unavailable), viewer, Set.of());
    }

    private Presence unavailableOf(Occupant leaving, Presence goodbye, Occupant viewer, Set<Integer> codes) {
        Presence p = goodbye.createCopy();
        p.setFrom(leaving.jid().jid());
        Affiliation affiliation = room.affiliationOf(leaving.bareJid());
        MucPresences.addUserItem(p, affiliation, Role.NONE, realJidVisibleTo(leaving, viewer), codes);
        room.stampOccupantId(p, leaving);
        return p;
    }

    public String realJidVisibleTo(Occupant subjectOccupant, Occupant viewer) {
        boolean visible = WhoisOption.nonAnonymous(room.config()) || viewer == subjectOccupant
                || (viewer != null && viewer.role() == Role.MODERATOR);
        return visible ? subjectOccupant.shownRealJid().toString() : null;
    }

    /**
     * Each session of {@code occupant} receives its current presence with status 110, everyone else
     * the presence they are to see now ({@link #currentPresenceOf}), rendered once per view.
     */
    public void broadcastPresence(Occupant occupant, Set<Integer> extraCodes) {
        Set<Integer> selfCodes = new LinkedHashSet<>(extraCodes);
        selfCodes.add(MucPresences.SELF);
        for (RealJid s : occupant.sessions()) {
            room.output().toSession(s, currentPresenceOf(occupant, occupant, selfCodes));
        }
        for (List<Occupant> view : viewsOf(occupant, changeViewers(occupant, others(occupant)))) {
            Presence p = currentPresenceOf(occupant, view.get(0), extraCodes);
            if (p != null) {
                room.output().toOccupants(view, p);
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
    public Presence currentPresenceOf(Occupant subject, Occupant viewer, Set<Integer> codes) {
        if (viewer == subject || showsToOthers(subject)) {
            return presenceOf(subject, viewer, codes);
        }
        if (!subject.shownToOthers()) {
            return null;
        }
        return unavailableOf(subject, new Presence(Presence.Type.unavailable), viewer, codes);
    }

    /**
     * Of {@code viewers}, those to be sent {@code subject}'s presence after a change, as
     * {@link #currentPresenceOf} renders it for them; those whose presence level no longer follows
     * it are sent its unavailable presence here (see {@link PresenceLevels}).
     */
    public List<Occupant> changeViewers(Occupant subject, List<Occupant> viewers) {
        List<Occupant> losing = new ArrayList<>();
        List<Occupant> receiving = levels.afterChange(subject, viewers, showsToOthers(subject), losing);
        for (List<Occupant> view : viewsOf(subject, losing)) {
            room.output().toOccupants(view, unavailableOf(subject, view.get(0)));
        }
        return receiving;
    }

    /** Whether someone entering now is sent {@code subject}'s presence (at presence level all). */
    boolean showsNewcomer(Occupant subject) {
        return subject.shownToOthers() && PresenceBroadcastOption.showsNewcomers(room.config(), subject.role(),
                occupantsByNick.size(), room.context().config().largeRoomOccupants());
    }

    Room room() {
        return room;
    }

    public PresenceLevels levels() {
        return levels;
    }

    /** Everyone has been sent {@code subject}'s current presence (see {@link #currentPresenceOf}). */
    public void presenceShown(Occupant subject) {
        subject.setShownToOthers(showsToOthers(subject));
        room.carry().changed(subject);
    }

    /**
     * Whether the others are to see {@code subject} from now on: its role's presence is broadcast
     * ({@code muc#roomconfig_presencebroadcast}), and a large room shows no one new but moderators.
     */
    public boolean showsToOthers(Occupant subject) {
        return PresenceBroadcastOption.shows(room.config(), subject.role(), subject.shownToOthers(),
                occupantsByNick.size(), room.context().config().largeRoomOccupants());
    }

    /** The occupants but {@code subject}. */
    private List<Occupant> others(Occupant subject) {
        List<Occupant> others = new ArrayList<>(occupantsByNick.size());
        for (Occupant o : occupantsByNick.values()) {
            if (o != subject) {
                others.add(o);
            }
        }
        return others;
    }

    /**
     * {@code viewers} in groups that see {@code subject}'s presences alike — with its real JID
     * (moderators; everyone in a non-anonymous room) or without — so that each is rendered once
     * per group, not once per viewer.
     */
    public List<List<Occupant>> viewsOf(Occupant subject, List<Occupant> viewers) {
        List<Occupant> withRealJid = new ArrayList<>();
        List<Occupant> without = new ArrayList<>();
        for (Occupant v : viewers) {
            (realJidVisibleTo(subject, v) != null ? withRealJid : without).add(v);
        }
        return Stream.of(withRealJid, without).filter(view -> !view.isEmpty()).toList();
    }

    /**
     * The others who see {@code subject} (all of them while it is shown, nobody otherwise) are sent
     * what {@code presenceAs} renders for a viewer, once per view. {@code subject} is not one of them.
     */
    private void sendToOthers(Occupant subject, Function<Occupant, Presence> presenceAs) {
        if (!subject.shownToOthers()) {
            return;
        }
        for (List<Occupant> view : viewsOf(subject, levels.holding(subject, others(subject)))) {
            room.output().toOccupants(view, presenceAs.apply(view.get(0)));
        }
    }

    /** Everyone leaves at once, each told only of itself, with this notice (the room is destroyed). */
    public void removeEveryone(Element notice) {
        for (Occupant o : new ArrayList<>(occupantsByNick.values())) {
            Presence p = unavailableOf(o, new Presence(Presence.Type.unavailable), o, Set.of(MucPresences.SELF));
            p.getChildElement("x", Namespaces.MUC_USER).add(notice.createCopy());
            room.output().toOccupant(o, p);
            room.consistency().left(o);
            levels.left(o);
            room.carry().gone(o.nick());
            for (RealJid s : o.sessions()) {
                room.context().journal().occupantOut(s.toString());
            }
        }
        occupantsByNick.clear();
        occupantsBySession.clear();
    }

    public Occupant occupantBySession(RealJid session) {
        return occupantsBySession.get(session);
    }

    public Occupant occupantByNick(String nick) {
        return occupantsByNick.get(nick);
    }

    /**
     * The occupant a {@code nick:} prefix addresses: the exact nick, else the one nick equal
     * ignoring case (reconmuc.md §5.5). The case-insensitive look-up scans, but only for a
     * prefix that names no occupant exactly.
     */
    public Occupant occupantByNickIgnoringCase(String nick) {
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

    /** The occupants, in join order. */
    public Collection<Occupant> occupants() {
        return occupantsByNick.values();
    }
}
