package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.reconmuc.component.cluster.LeaseHost;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.muc.MucService.RoomEntry;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.store.RoomJournal;
import org.reconmuc.component.store.StoredOccupants;
import org.reconmuc.component.store.StoredRoom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.packet.JID;
import org.xmpp.packet.Packet;

/** The service's rooms as leasing sees them (package {@code cluster}): the one way that package reaches a room. */
final class RoomLeaseHost implements LeaseHost<RoomEntry> {
    private static final Logger LOG = LoggerFactory.getLogger(RoomLeaseHost.class);

    private final MucService service;

    RoomLeaseHost(MucService service) {
        this.service = service;
    }

    @Override
    public Object routingLock() {
        return service.routing;
    }

    @Override
    public RoomEntry adopt(RoomJid jid) {
        RoomEntry entry = service.addRoom(jid);
        if (entry != null) {
            entry.via = NOT_YET_ROUTED;
        }
        return entry;
    }

    @Override
    public RoomJid jid(RoomEntry room) {
        return room.room().jid();
    }

    @Override
    public int via(RoomEntry room) {
        return room.via;
    }

    @Override
    public long epoch(RoomEntry room) {
        return room.epoch;
    }

    @Override
    public void epoch(RoomEntry room, long epoch) {
        room.epoch = epoch;
    }

    @Override
    public List<RoomEntry> rooms() {
        return service.snapshot();
    }

    @Override
    public void forget(RoomEntry room) {
        service.forget(room);
    }

    @Override
    public void holdStanzas(RoomEntry room) {
        room.gated = new ArrayList<>();
    }

    @Override
    public boolean holdsStanzas(RoomEntry room) {
        return room.gated != null;
    }

    @Override
    public List<Packet> takeHeldStanzas(RoomEntry room) {
        List<Packet> held = new ArrayList<>(room.gated.size());
        room.gated.forEach(d -> held.add(d.packet()));
        room.gated = null;
        return held;
    }

    @Override
    public void serveHeldStanzas(RoomEntry room, Runnable first) {
        List<Runnable> tasks = new ArrayList<>();
        tasks.add(first);
        tasks.addAll(room.gated);
        room.gated = null;
        room.mailbox().submitAll(tasks);
    }

    @Override
    public List<Packet> drainMailbox(RoomEntry room) {
        return room.mailbox().drainDeliveries();
    }

    @Override
    public void submit(RoomEntry room, Runnable task) {
        room.mailbox().submit(task);
    }

    @Override
    public boolean dispatch(Packet packet, int via) {
        return service.dispatch(packet, via);
    }

    @Override
    public void unrouted(Packet packet) {
        service.mailboxBudget.release();
    }

    @Override
    public boolean createsRoom(Packet packet) {
        return MucService.isJoin(packet) && service.mayCreate(packet);
    }

    @Override
    public boolean isJoin(Packet packet) {
        return MucService.isJoin(packet);
    }

    @Override
    public void refuseAsMissing(Packet packet) {
        service.refuseForMissingRoom(packet);
    }

    @Override
    public void refuseForNow(Packet packet, String text) {
        service.reply(packet, Condition.RESOURCE_CONSTRAINT, text);
    }

    @Override
    public RoomJournal journal(RoomEntry room) {
        return room.room().context().journal();
    }

    @Override
    public boolean carryOn(RoomEntry entry, long epoch, Optional<StoredRoom> stored, StoredOccupants formerOccupants,
                           String joiner) {
        Room room = entry.room();
        RoomJid jid = room.jid();
        RoomJournal journal = journal(entry);
        if (stored.isPresent()) {
            room.persistence().restore(stored.get());
        } else if (formerOccupants.carriedForm() != null) {
            room.persistence().carriedOn(formerOccupants.carriedForm());
        }
        // The occupants of its last owner carry on, told nothing; those whose state cannot be
        // restored are told to rejoin (110 + 333) and catch up from the archive.
        List<String> toRejoin = formerOccupants.isEmpty() ? List.of() : room.carryOn(formerOccupants);
        for (String session : toRejoin) {
            if (!session.equals(joiner)) {
                service.send(MucPresences.movedAway(jid, formerOccupants.sessions().get(session), new JID(session)));
            }
            journal.occupantOut(session);
            journal.occupantState(formerOccupants.sessions().get(session), null);
        }
        if (!toRejoin.isEmpty()) {
            LOG.info("room {}: taken over under epoch {}; told {} sessions of its last owner to rejoin", jid, epoch,
                    toRejoin.size());
        }
        // Whoever serves the room next finds its occupant ids, and what was sent up to now.
        if (!room.persistence().archivedInStore() && room.occupantIds() != null) {
            journal.occupantIdKey(room.occupantIds().key());
        }
        room.carry().fannedOut(room.history().head());
        return room.occupants().isEmpty();
    }

    @Override
    public void letGo(RoomEntry room) {
        service.letGo(room.room(), false);
    }
}
