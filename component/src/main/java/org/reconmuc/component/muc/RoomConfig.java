package org.reconmuc.component.muc;

import java.util.EnumSet;
import java.util.Set;

/**
 * A room's configuration (XEP-0045 §10.2, {@code muc#roomconfig}). Immutable: the owner form
 * produces a new one, so a half-applied invalid form can never be seen.
 *
 * <p>{@code logged} ({@code muc#roomconfig_enablelogging}, on in a new room as with Prosody's
 * {@code muc_log_by_default}): the room's messages go to its archive (the store, for a persistent
 * room) and XEP-0313 queries read them; occupants are told on entry (status 170). An unlogged room
 * archives nothing and answers no queries; its in-memory history (the discussion history sent on
 * join, the relaxed engine's pointers) stays, since that is the room working, not a log.
 */
record RoomConfig(
        String name,
        String description,
        boolean persistent,
        boolean publicRoom,
        boolean membersOnly,
        boolean moderated,
        String password,
        boolean nonAnonymous,
        boolean changeSubject,
        boolean allowInvites,
        PrivateMessages allowPrivateMessages,
        int maxUsers,
        int historyLength,
        Set<Role> presenceBroadcast,
        boolean logged,
        LiveStanzaIds liveStanzaIds) {

    /** Every role's presence is broadcast: the default, as in Prosody and ejabberd. */
    static final Set<Role> ALL_ROLES_BROADCAST = Set.copyOf(EnumSet.of(Role.VISITOR, Role.PARTICIPANT, Role.MODERATOR));

    RoomConfig {
        presenceBroadcast = Set.copyOf(presenceBroadcast);
        if (presenceBroadcast.contains(Role.NONE)) {
            throw new IllegalArgumentException("role 'none' has no presence to broadcast");
        }
    }

    /** Who may send private messages to occupants ({@code muc#roomconfig_allowpm}). */
    enum PrivateMessages {
        ANYONE("anyone"), PARTICIPANTS("participants"), MODERATORS("moderators"), NONE("none");

        final String value;

        PrivateMessages(String value) {
            this.value = value;
        }

        static PrivateMessages parse(String v) {
            for (PrivateMessages p : values()) {
                if (p.value.equals(v)) {
                    return p;
                }
            }
            throw new IllegalArgumentException("muc#roomconfig_allowpm must be anyone, participants, moderators or none");
        }
    }

    /**
     * Which live copies of a groupchat message carry the room's XEP-0359 stanza-id
     * ({@code reconmuc#roomconfig_livestanzaids}). It is what a client needs to find the message in
     * the archive (XEP-0313), to reply to it (XEP-0461) or to have it moderated (XEP-0425) by the
     * room's id. Relaxed occupants and moderators always get it; the others only {@link #ALWAYS},
     * or while the room is logged ({@link #WHILE_LOGGED}, the default: with no archive there is
     * nothing to find it in, and an XEP-0461 client replies by the sender's message id when the room
     * does not advertise stanza-ids).
     */
    enum LiveStanzaIds {
        ALWAYS("always"), WHILE_LOGGED("logged");

        final String value;

        LiveStanzaIds(String value) {
            this.value = value;
        }

        static LiveStanzaIds parse(String v) {
            for (LiveStanzaIds l : values()) {
                if (l.value.equals(v)) {
                    return l;
                }
            }
            throw new IllegalArgumentException("reconmuc#roomconfig_livestanzaids must be 'always' or 'logged'");
        }
    }

    /** Whether every occupant's live copies carry the room's stanza-id (see {@link LiveStanzaIds}). */
    boolean stanzaIdsForEveryone() {
        return liveStanzaIds == LiveStanzaIds.ALWAYS || logged;
    }

    static RoomConfig instant(int historyLength, int maxUsers) {
        return new RoomConfig("", "", false, true, false, false, null, false, false, false,
                PrivateMessages.ANYONE, maxUsers, historyLength, ALL_ROLES_BROADCAST, true, LiveStanzaIds.WHILE_LOGGED);
    }

    RoomConfig withPersistent(boolean keep) {
        return new RoomConfig(name, description, keep, publicRoom, membersOnly, moderated, password, nonAnonymous,
                changeSubject, allowInvites, allowPrivateMessages, maxUsers, historyLength, presenceBroadcast, logged,
                liveStanzaIds);
    }

    /** A stored room coming back: persistent, within today's limits of the service. */
    RoomConfig restoredWithin(int maxUsersLimit, int maxHistory) {
        return new RoomConfig(name, description, true, publicRoom, membersOnly, moderated, password, nonAnonymous,
                changeSubject, allowInvites, allowPrivateMessages, Math.min(maxUsers, maxUsersLimit),
                Math.min(historyLength, maxHistory), presenceBroadcast, logged, liveStanzaIds);
    }

    /**
     * {@code muc#roomconfig_presencebroadcast}: whether the others in the room are sent the presence
     * of an occupant in {@code role} (its own sessions always are). A big room broadcasting only its
     * moderators' presences saves the N² presences of everyone entering.
     */
    boolean broadcastsPresenceOf(Role role) {
        return presenceBroadcast.contains(role);
    }

    boolean passwordProtected() {
        return password != null && !password.isEmpty();
    }
}
