package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.consistency.Delivery;
import org.reconmuc.component.consistency.Requirements;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.protocol.Dom4jText;
import org.reconmuc.component.protocol.PresenceLevel;
import org.reconmuc.component.protocol.ProtocolException;
import org.reconmuc.component.protocol.RequirementsRequest;
import org.reconmuc.component.store.RoomJournal;
import org.reconmuc.component.store.StoredOccupants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.packet.JID;
import org.xmpp.packet.Presence;

/**
 * Occupants carry on when their room moves to another instance (several instances, DESIGN.md
 * "Several instances"): what the next owner needs to serve them as they were is written under
 * the room's lease, cheaply, and taken back by the next owner without a word to anyone.
 *
 * <ul>
 * <li>Each occupant's <em>state</em> (role, affiliation, whether the others see it, its presence,
 * its requirements) is written when one of them changes — rare next to messages.</li>
 * <li>A relaxed occupant's <em>delivery position</em> (its cursor and what it was sent early) and
 * the room's fan-out watermark (every standard occupant was sent the messages up to it) pass in
 * order with the room's stanzas, and are written by the first commit after the connection wrote
 * those stanzas: one row per occupant and one per room per commit, never per message.</li>
 * </ul>
 *
 * <p>The next owner re-derives from the archive what a relaxed occupant is still owed (everything
 * after its position that it was not sent early), and sends standard occupants again, with the
 * same stanza-id, what came after the watermark. Nothing is written when the service runs alone.
 */
final class RoomCarry {
    private static final Logger LOG = LoggerFactory.getLogger(RoomCarry.class);
    private static final String ELEMENT = "occupant";

    private final Room room;
    /** Occupants whose state changed during this turn of the room (written at its end). */
    private final Set<Occupant> changed = new LinkedHashSet<>();
    /** Relaxed occupants that were sent something during this turn. */
    private final Set<Occupant> delivered = new LinkedHashSet<>();
    /** Occupants that became relaxed during this turn, with their first position (nothing sent to them as such). */
    private final Map<Occupant, String> startedRelaxed = new LinkedHashMap<>();

    RoomCarry(Room room) {
        this.room = room;
    }

    private RoomJournal journal() {
        return room.context().journal();
    }

    /** True while the room is served under a lease: only then is anything written. */
    private boolean active() {
        return journal().fenced();
    }

    /** {@code occupant}'s role, affiliation, presence or requirements changed (or it came in). */
    public void changed(Occupant occupant) {
        if (active()) {
            changed.add(occupant);
            if (occupant.reader() != null) {
                delivered.add(occupant);
            }
        }
    }

    /**
     * {@code occupant} has just become relaxed: its position now (everything before the room's head counts
     * as sent, nothing is retained) is written with its state, before any stanza of the room's is: a
     * position written only with its first flush would leave a window in which the next owner finds it
     * without one.
     */
    void startedRelaxed(Occupant occupant) {
        if (active() && occupant.reader() != null) {
            startedRelaxed.put(occupant, position(occupant));
            changed(occupant);
        }
    }

    /** {@code occupant} was sent something: if relaxed, its position may have moved. */
    void delivered(Occupant occupant) {
        if (occupant.reader() != null && active()) {
            delivered.add(occupant);
        }
    }

    /** Each of {@code occupants} was sent something. */
    void delivered(Iterable<Occupant> occupants) {
        if (active()) {
            for (Occupant o : occupants) {
                if (o.reader() != null) {
                    delivered.add(o);
                }
            }
        }
    }

    /** The occupant known as {@code nick} has gone (left or removed). */
    public void gone(String nick) {
        if (active()) {
            journal().occupantState(nick, null);
        }
    }

    /**
     * {@code occupant}, known as {@code from} until now, changed its nick: its stored state and delivery
     * position go to the new nick (a relaxed occupant keeps what it is owed if the room moves before its
     * next flush), and its state is written anew.
     */
    void renamed(String from, Occupant occupant) {
        if (active()) {
            journal().occupantRenamed(from, occupant.nick());
            changed(occupant);
        }
    }

    /**
     * Messages up to {@code seq} went out to every standard occupant — but for those still held back
     * from them: the archive is where the next owner finds the rest again.
     */
    public void fannedOut(long seq) {
        if (active() && LoggingOption.archivesInStore(room)) {
            journal().fannedOut(room.fire(RoomEvent.FANNED_OUT, new RoomEvent.Watermark(room, seq)).upTo());
        }
    }

    /** The end of a turn of the room: what changed is written (states at once, positions with the next commit). */
    void writeChanges() {
        if (changed.isEmpty() && delivered.isEmpty()) {
            return;
        }
        for (Occupant o : changed) {
            if (room.occupantByNick(o.nick()) == o) {
                journal().occupantState(o.nick(), render(o), o.reader() == null ? null : startedRelaxed.get(o));
            }
        }
        changed.clear();
        startedRelaxed.clear();
        if (LoggingOption.archivesInStore(room)) {
            Map<String, String> positions = new LinkedHashMap<>();
            for (Occupant o : delivered) {
                if (o.reader() != null && room.occupantByNick(o.nick()) == o) {
                    positions.put(o.nick(), position(o));
                }
            }
            journal().positions(positions);
        }
        delivered.clear();
    }

    // ---- what is written ------------------------------------------------------------------------

    private String render(Occupant o) {
        Element e = DocumentHelper.createElement(ELEMENT);
        e.addAttribute("jid", o.bareJid().toString());
        e.addAttribute("role", o.role().xmlValue());
        e.addAttribute("affiliation", room.affiliationOf(o.bareJid()).xmlValue());
        e.addAttribute("shown", Boolean.toString(o.shownToOthers()));
        if (o.presenceLevel() != PresenceLevel.ALL) {
            e.addAttribute("presences", o.presenceLevel().xmlValue());
        }
        e.add(o.presence().getElement().createCopy());
        if (o.reader() != null) {
            e.add(RequirementsRequest.render(XmlNamespaces.RECONMUC, o.reader().requirements()));
        }
        return e.asXML();
    }

    /** "cursor" or "cursor:early,early…": every message before the cursor was sent, and those listed after it. */
    private static String position(Occupant o) {
        StringBuilder s = new StringBuilder(Long.toString(o.reader().cursor()));
        char sep = ':';
        for (long seq : o.reader().earlySeqs()) {
            s.append(sep).append(seq);
            sep = ',';
        }
        return s.toString();
    }

    private static long[] early(String position) {
        int colon = position.indexOf(':');
        if (colon < 0) {
            return new long[0];
        }
        String[] parts = position.substring(colon + 1).split(",");
        long[] seqs = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            seqs[i] = Long.parseLong(parts[i]);
        }
        return seqs;
    }

    private static long cursor(String position) {
        int colon = position.indexOf(':');
        return Long.parseLong(colon < 0 ? position : position.substring(0, colon));
    }

    // ---- taking them back ---------------------------------------------------------------------

    /**
     * The room's first task under its new owner, after its record (if any) was restored: its
     * occupants under the last owner are back, as they were, told nothing; relaxed ones with
     * their requirements and what they are owed (re-derived from the log, which a logged room
     * restored from its archive), standard ones sent again, with the same stanza-ids, the messages
     * after the room's watermark. Returns the sessions that could not be restored (their stored
     * state is missing or unreadable): they are told to rejoin.
     */
    List<String> carryOn(StoredOccupants stored) {
        Map<String, List<String>> sessionsByNick = new LinkedHashMap<>();
        stored.sessions().forEach((session, nick) -> sessionsByNick.computeIfAbsent(nick, n -> new ArrayList<>()).add(session));
        List<String> notRestored = new ArrayList<>();
        Map<Occupant, Element> relaxed = new LinkedHashMap<>();
        List<Occupant> restored = new ArrayList<>();
        boolean recorded = room.persistence().archivedInStore();
        for (Map.Entry<String, List<String>> e : sessionsByNick.entrySet()) {
            String nick = e.getKey();
            StoredOccupants.Carried carried = stored.occupants().get(nick);
            Occupant o = null;
            try {
                o = carried == null ? null : restore(nick, e.getValue(), carried, recorded, relaxed);
            } catch (DocumentException | IllegalArgumentException | ProtocolException unreadable) {
                LOG.warn("room {}: the stored state of {} is unreadable ({}); its sessions are told to rejoin", room.jid(),
                        nick, unreadable.getMessage());
            }
            if (o == null) {
                notRestored.addAll(e.getValue());
            } else {
                restored.add(o);
            }
        }
        if (restored.isEmpty()) {
            return notRestored;
        }
        room.presence().levels().carriedOn();
        boolean archived = LoggingOption.archivesInStore(room);
        List<Delivery<Occupant>> deliveries = new ArrayList<>();
        if (archived) {
            room.fanout().restoredLog();
        }
        for (Map.Entry<Occupant, Element> r : relaxed.entrySet()) {
            Occupant o = r.getKey();
            try {
                Requirements requirements = room.requirements().carried(r.getValue());
                String position = archived ? stored.occupants().get(o.nick()).position() : null;
                long head = room.history().head();
                LOG.debug("room {}: relaxed {} carried on from stored position {} (log head {}, archived {})", room.jid(),
                        o.nick(), position, head, archived);
                // No position: a row written before start positions were (an older version): it was current.
                room.consistency().carryOver(o, requirements, position == null ? head + 1 : cursor(position),
                        position == null ? new long[0] : early(position), deliveries);
            } catch (ProtocolException | IllegalArgumentException unreadable) {
                LOG.warn("room {}: the stored requirements of {} are unusable ({}); it carries on in standard mode",
                        room.jid(), o.nick(), unreadable.getMessage());
                changed(o);
            }
        }
        if (archived) {
            room.fanout().resendAfter(stored.fannedOutUpTo());
        }
        room.fanout().deliverFlushes(deliveries);
        LOG.info("room {}: carried on with {} occupants of its last owner ({} relaxed){}", room.jid(), restored.size(),
                relaxed.size(), notRestored.isEmpty() ? "" : "; " + notRestored.size() + " sessions told to rejoin");
        return notRestored;
    }

    /** One occupant back from its stored state, into the room; null if the state says nothing usable. */
    private Occupant restore(String nick, List<String> sessions, StoredOccupants.Carried carried, boolean recorded,
                             Map<Occupant, Element> relaxed) throws DocumentException, ProtocolException {
        Element state = Dom4jText.parse(carried.state());
        Element presenceElement = state.element("presence");
        Role role = Role.parse(state.attributeValue("role")).orElse(null);
        String bare = state.attributeValue("jid");
        if (presenceElement == null || role == null || role == Role.NONE || bare == null) {
            return null;
        }
        RealJid bareJid = new RealJid(new JID(bare)).bare();
        List<RealJid> sessionJids = new ArrayList<>();
        for (String s : sessions) {
            RealJid session = new RealJid(new JID(s));
            if (!session.bare().equals(bareJid) || room.occupantBySession(session) != null) {
                throw new IllegalArgumentException(s + " is not one of " + bare + "'s sessions");
            }
            sessionJids.add(session);
        }
        if (room.occupantByNick(nick) != null) {
            throw new IllegalArgumentException("the nick is taken");
        }
        Presence presence = new Presence(presenceElement.createCopy());
        Occupant o = room.presence().carryIn(room.jid().occupant(nick), sessionJids, presence, role,
                Boolean.parseBoolean(state.attributeValue("shown")));
        room.presence().levels().carriedIn(o, PresenceLevel.parse(state.attributeValue("presences")));
        if (!recorded) {
            // A temporary room has no record: its affiliations are those its occupants had.
            Affiliation.parse(state.attributeValue("affiliation")).filter(a -> a != Affiliation.NONE)
                    .ifPresent(a -> room.affiliations().putIfAbsent(bareJid, a));
        }
        Element requirements = state.element(RequirementsRequest.ELEMENT);
        if (requirements != null) {
            relaxed.put(o, requirements);
        }
        return o;
    }
}
