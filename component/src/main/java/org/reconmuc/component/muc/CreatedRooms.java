package org.reconmuc.component.muc;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.reconmuc.component.config.RoomCreation;
import org.reconmuc.component.jid.RoomJid;
import org.xmpp.packet.JID;

/**
 * Who may create a room, and the rooms each user created that still exist here (issue 27 part 4,
 * {@link RoomCreation}). A user is a bare JID, so a user joining from many resources is one user.
 * A room stops counting when it leaves memory: destroyed, vanished when its last occupant left
 * (a temporary room), or given up to another instance. Rooms restored from the store were
 * created before this service started and count for nobody.
 *
 * <p>Not thread-safe: the service calls it under its routing lock.
 */
final class CreatedRooms {
    private final RoomCreation policy;
    private final String serviceDomain;
    private final Map<String, Set<RoomJid>> byCreator = new HashMap<>();
    private final Map<RoomJid, String> creatorOf = new HashMap<>();

    CreatedRooms(RoomCreation policy, String serviceDomain) {
        this.policy = policy;
        this.serviceDomain = serviceDomain;
    }

    /**
     * {@code creator} asks to create {@code room}: null if they may (the room now counts as
     * theirs), else the text of the {@code not-allowed} error they get.
     */
    String admit(JID creator, RoomJid room) {
        String refusal = refusal(creator);
        if (refusal != null) {
            return refusal;
        }
        String bare = new JID(creator.toBareJID()).toBareJID();
        byCreator.computeIfAbsent(bare, k -> new LinkedHashSet<>()).add(room);
        creatorOf.put(room, bare);
        return null;
    }

    /**
     * Why {@code creator} may not create a room now (the text of the {@code not-allowed} error they
     * get), or null if they may; counts nothing.
     */
    String refusal(JID creator) {
        JID user;
        try {
            user = new JID(creator.toBareJID());   // stringprep: 'Alice@Example.org' is alice@example.org
        } catch (IllegalArgumentException e) {
            return "Room creation is restricted: '" + creator.toBareJID() + "' is not a valid JID";
        }
        if (!policy.mayCreate(user, serviceDomain)) {
            return "Room creation is restricted on " + serviceDomain + ": " + user.toBareJID()
                    + " may not create rooms; enter an existing room, or ask the service's operator";
        }
        Set<RoomJid> own = byCreator.get(user.toBareJID());
        if (own != null && policy.limits(user) && own.size() >= policy.maxRoomsPerUser()) {
            return "You have reached the limit of rooms one user may have created on " + serviceDomain + " ("
                    + policy.maxRoomsPerUser() + ", counting those that still exist): destroy one of your rooms to"
                    + " create another";
        }
        return null;
    }

    /** The room left memory: it no longer counts for its creator. */
    void gone(RoomJid room) {
        String creator = creatorOf.remove(room);
        if (creator != null) {
            Set<RoomJid> own = byCreator.get(creator);
            own.remove(room);
            if (own.isEmpty()) {
                byCreator.remove(creator);
            }
        }
    }

    /** Rooms {@code bareJid} created that still exist (tests, operators). */
    int createdBy(String bareJid) {
        Set<RoomJid> own = byCreator.get(bareJid);
        return own == null ? 0 : own.size();
    }
}
