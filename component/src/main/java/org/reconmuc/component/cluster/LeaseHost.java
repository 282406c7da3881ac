package org.reconmuc.component.cluster;

import java.util.List;
import java.util.Optional;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.store.RoomJournal;
import org.reconmuc.component.store.StoredOccupants;
import org.reconmuc.component.store.StoredRoom;
import org.xmpp.packet.Packet;

/**
 * The service's rooms as leasing sees them (package {@code muc} implements it): the one way
 * {@link LeasedRooms} reaches a room. {@code R} is a room in memory with its mailbox; what the
 * methods say "under the routing lock" must be called holding {@link #routingLock()}, which guards
 * the rooms in memory and the hand-over of stanzas to their mailboxes.
 */
public interface LeaseHost<R> {
    /** The connection of a room claimed at an adoption before any of its stanzas came: not known yet. */
    int NOT_YET_ROUTED = -1;

    Object routingLock();

    // ---- rooms in memory --------------------------------------------------------------------------

    /** A new room in memory whose stanzas have come through no connection yet; null if it is in memory already (under the routing lock). */
    R adopt(RoomJid jid);

    RoomJid jid(R room);

    /** The connection the room's stanzas last came through ({@link #NOT_YET_ROUTED} before the first). */
    int via(R room);

    /** The epoch of the lease the room is served under; 0 while not claimed yet, -1 once given up. */
    long epoch(R room);

    void epoch(R room, long epoch);

    /** The rooms in memory now (a copy). */
    List<R> rooms();

    /** The room leaves memory, unless a newer one took its place already (under the routing lock). */
    void forget(R room);

    // ---- its stanzas ------------------------------------------------------------------------------

    /** From now on the room's stanzas wait, in order, until they are served or taken (under the routing lock). */
    void holdStanzas(R room);

    /** Whether the room's stanzas wait (its lease is being claimed; under the routing lock). */
    boolean holdsStanzas(R room);

    /** The stanzas that waited, no longer waiting; each still holds its place in the mailboxes' budget (under the routing lock). */
    List<Packet> takeHeldStanzas(R room);

    /** {@code first}, then the stanzas that waited, go to the room's mailbox together (under the routing lock). */
    void serveHeldStanzas(R room, Runnable first);

    /** The stanzas in the room's mailbox not yet handled, taken out of it (under the routing lock). */
    List<Packet> drainMailbox(R room);

    /** A task on the room's thread. */
    void submit(R room, Runnable task);

    /** Routes a stanza, whose place in the mailboxes' budget it holds, again; false if it went to no room (under the routing lock). */
    boolean dispatch(Packet packet, int via);

    /** A stanza that will reach no room gives its place in the mailboxes' budget back (under the routing lock). */
    void unrouted(Packet packet);

    /** Whether {@code packet} is a join that may create its room (under the routing lock). */
    boolean createsRoom(Packet packet);

    boolean isJoin(Packet packet);

    /** Refuses a stanza for a room that does not exist (item-not-found, or not-allowed with why for a join). */
    void refuseAsMissing(Packet packet);

    /** Refuses a stanza for a room served elsewhere for now (resource-constraint, type wait) with {@code text}. */
    void refuseForNow(Packet packet, String text);

    // ---- the room's side of a lease ---------------------------------------------------------------

    RoomJournal journal(R room);

    /**
     * The room's first task under its lease of {@code epoch} (on its thread): its stored record,
     * if any, restored, and its last owner's occupants carried on (those who cannot be are told
     * to rejoin, but for {@code joiner}). Returns whether the room has no occupants now.
     */
    boolean carryOn(R room, long epoch, Optional<StoredRoom> stored, StoredOccupants formerOccupants, String joiner);

    /** Lets the room go after what it received (handled, written, sent) and gives its lease back after its last writes. */
    void letGo(R room);
}
