package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.protocol.PresenceLevel;
import org.reconmuc.component.protocol.PresencesElement;
import org.reconmuc.component.protocol.ProtocolException;
import org.xmpp.packet.Presence;

/**
 * Presence levels (reconmuc.md §5.17): whose presences each occupant is sent, as it asked — everyone
 * the room shows ({@link PresenceLevel#ALL}: XEP-0045, the room's presence broadcast and its big-room
 * default, and the level of whoever asks nothing), the moderators among them, or nobody but itself.
 * A level only narrows what the room shows; an occupant's own presence (status 110) always reaches it.
 *
 * <p>An XEP-0045 client keeps a list of the occupants it was sent as available, and only their
 * unavailable presence takes them off. So the room keeps, for each occupant at the moderators'
 * level, whom it holds as available: its changes, nick changes and leaving reach it; a subject that
 * becomes a moderator appears to it, and one that stops being one leaves its view (an unavailable
 * presence). At level none it holds nobody. A later change of level sends what the new level
 * needs: the presences a newcomer at it would get that it lacks, and an unavailable presence for
 * each it held and no longer follows.
 */
final class PresenceLevels {
    private final RoomPresence presence;
    /** How many occupants asked for less than everyone (while none has, nothing is filtered). */
    private int narrowed;
    /** For each occupant at the moderators' level: the others it holds as available. */
    private final Map<Occupant, Set<Occupant>> held = new HashMap<>();
    /** Every occupant some viewer holds or held (moderators: few), so that a leave looks through {@link #held} only for them. */
    private final Set<Occupant> everHeld = new HashSet<>();

    PresenceLevels(RoomPresence presence) {
        this.presence = presence;
    }

    public PresenceLevel levelOf(Occupant viewer) {
        return viewer.presenceLevel();
    }

    /**
     * The level {@code request} asks for: the one it names, null if it names none. A malformed
     * element is answered with a {@code bad-request} and the request goes no further ({@link Refused}).
     */
    static PresenceLevel requested(Room room, Presence request) throws Refused {
        Element e = PresencesElement.in(request.getElement(), PresencesElement.NAMESPACE);
        if (e == null) {
            return null;
        }
        try {
            return PresencesElement.parse(e).level();
        } catch (ProtocolException ex) {
            room.output().error(request, Condition.BAD_REQUEST, "modify", ex.getMessage());
            throw new Refused();
        }
    }

    /** A request refused with an error already sent. */
    static final class Refused extends Exception {
        Refused() {
            super(null, null, false, false);
        }
    }

    /**
     * {@code occupant} enters at {@code level} (or keeps its own, if null), or enters again: it
     * holds nobody until the join sequence sends it the presences of its level.
     */
    void entering(Occupant occupant, PresenceLevel level) {
        set(occupant, level == null ? levelOf(occupant) : level);
        held.computeIfPresent(occupant, (o, subjects) -> new HashSet<>());
    }

    /**
     * Those of {@code occupants} whose presence {@code viewer}, entering, is to be sent in its join
     * sequence (those the room shows newcomers, at its level), in their order: it holds them from now on.
     */
    List<Occupant> onEntry(Occupant viewer, Iterable<Occupant> occupants) {
        List<Occupant> sent = new ArrayList<>();
        if (levelOf(viewer) == PresenceLevel.NONE) {
            return sent;
        }
        for (Occupant subject : occupants) {
            if (subject != viewer && takesOnEntry(viewer, subject)) {
                sent.add(subject);
            }
        }
        return sent;
    }

    /**
     * Whether {@code viewer}, entering, is to be sent {@code subject}'s presence: its level wants
     * it and the room shows it to newcomers. If so it holds it from now on.
     */
    private boolean takesOnEntry(Occupant viewer, Occupant subject) {
        if (!wants(viewer, subject) || !presence.showsNewcomer(subject)) {
            return false;
        }
        hold(viewer, subject);
        return true;
    }

    /**
     * Those of {@code viewers} who want {@code subject}, whom the room now shows to everyone (its
     * entry): each holds it from now on.
     */
    List<Occupant> wanting(Occupant subject, List<Occupant> viewers) {
        if (narrowed == 0) {
            return viewers;
        }
        List<Occupant> wanting = new ArrayList<>(viewers.size());
        for (Occupant v : viewers) {
            if (wants(v, subject)) {
                hold(v, subject);
                wanting.add(v);
            }
        }
        return wanting;
    }

    /** Those of {@code viewers} who hold {@code subject} as available (its changes and leaving reach them). */
    List<Occupant> holding(Occupant subject, List<Occupant> viewers) {
        if (narrowed == 0) {
            return viewers;
        }
        List<Occupant> holding = new ArrayList<>(viewers.size());
        for (Occupant v : viewers) {
            if (holds(v, subject)) {
                holding.add(v);
            }
        }
        return holding;
    }

    /**
     * A change of {@code subject} (status, role, the room's broadcast): of {@code viewers}, those at
     * their level's choice who are to be sent its presence as everyone is ({@link
     * RoomPresence#currentPresenceOf}); each of the others that held it and no longer follows it is
     * added to {@code losing}, to be sent its unavailable presence. {@code shownFromNow} is whether
     * the room shows it to everyone after the change.
     */
    List<Occupant> afterChange(Occupant subject, List<Occupant> viewers, boolean shownFromNow, List<Occupant> losing) {
        if (narrowed == 0) {
            return viewers;
        }
        List<Occupant> receiving = new ArrayList<>(viewers.size());
        for (Occupant v : viewers) {
            if (levelOf(v) == PresenceLevel.ALL) {
                receiving.add(v);
            } else if (shownFromNow && wants(v, subject)) {
                hold(v, subject);
                receiving.add(v);
            } else if (holds(v, subject)) {
                release(v, subject);
                losing.add(v);
            }
        }
        return receiving;
    }

    /**
     * {@code viewer}, in the room, asks for {@code level}: it is sent the presences the new level
     * needs that it lacks (as a newcomer at that level would get them) and the unavailable presence
     * of each it held and no longer follows.
     */
    public void change(Occupant viewer, PresenceLevel level) {
        if (level == levelOf(viewer)) {
            return;
        }
        Set<Occupant> heldBefore = new HashSet<>();
        for (Occupant subject : presence.occupants()) {
            if (subject != viewer && holds(viewer, subject)) {
                heldBefore.add(subject);
            }
        }
        set(viewer, level);
        for (Occupant subject : presence.occupants()) {   // in join order, as everything the room sends
            if (!heldBefore.contains(subject)) {
                continue;
            }
            if (wants(viewer, subject)) {
                hold(viewer, subject);   // still held, under the new level's bookkeeping
            } else {
                release(viewer, subject);
                room().output().toOccupant(viewer, presence.unavailableOf(subject, viewer));
            }
        }
        for (Occupant subject : presence.occupants()) {
            if (subject != viewer && !heldBefore.contains(subject) && takesOnEntry(viewer, subject)) {
                room().output().toOccupant(viewer, presence.presenceOf(subject, viewer, Set.of()));
            }
        }
    }

    /**
     * An occupant of the room's last owner, back at the level it had there ({@code null}: all); whom
     * it holds is settled by {@link #carriedOn} once everyone is back.
     */
    public void carriedIn(Occupant occupant, PresenceLevel level) {
        if (level != null) {
            set(occupant, level);
        }
    }

    /**
     * Everyone of the last owner is back: an occupant at the moderators' level holds the moderators
     * the room shows, as it was sent each of them (on entry, or when it became a moderator).
     */
    public void carriedOn() {
        for (Map.Entry<Occupant, Set<Occupant>> e : held.entrySet()) {
            for (Occupant subject : presence.occupants()) {
                if (subject != e.getKey() && subject.shownToOthers() && subject.role() == Role.MODERATOR) {
                    e.getValue().add(subject);
                    everHeld.add(subject);
                }
            }
        }
    }

    /** {@code occupant} has left the room: nobody holds it, and its own level goes. */
    void left(Occupant occupant) {
        set(occupant, PresenceLevel.ALL);
        if (everHeld.remove(occupant)) {   // else no set has it: a leave of a room of 100,000 costs no pass over them
            for (Set<Occupant> subjects : held.values()) {
                subjects.remove(occupant);
            }
        }
    }

    private Room room() {
        return presence.room();
    }

    private void set(Occupant viewer, PresenceLevel level) {
        narrowed += (level != PresenceLevel.ALL ? 1 : 0) - (viewer.presenceLevel() != PresenceLevel.ALL ? 1 : 0);
        viewer.setPresenceLevel(level);
        if (level == PresenceLevel.MODERATORS) {
            held.putIfAbsent(viewer, new HashSet<>());
        } else {
            held.remove(viewer);
        }
    }

    /** Whether {@code viewer}'s level takes {@code subject}'s presence, the room showing it. */
    private boolean wants(Occupant viewer, Occupant subject) {
        return switch (levelOf(viewer)) {
            case ALL -> true;
            case MODERATORS -> subject.role() == Role.MODERATOR;
            case NONE -> false;
        };
    }

    /** Whether {@code viewer} holds {@code subject} as available: at level all, whoever the room shows everyone. */
    private boolean holds(Occupant viewer, Occupant subject) {
        return switch (levelOf(viewer)) {
            case ALL -> subject.shownToOthers();
            case MODERATORS -> held.get(viewer).contains(subject);
            case NONE -> false;
        };
    }

    private void hold(Occupant viewer, Occupant subject) {
        if (viewer.presenceLevel() != PresenceLevel.MODERATORS) {
            return;
        }
        Set<Occupant> subjects = held.get(viewer);
        if (subjects != null) {
            subjects.add(subject);
            everHeld.add(subject);
        }
    }

    private void release(Occupant viewer, Occupant subject) {
        Set<Occupant> subjects = held.get(viewer);
        if (subjects != null) {
            subjects.remove(subject);
        }
    }
}
