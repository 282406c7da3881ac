package org.reconmuc.component.muc;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.muc.occupants.MucPresences;
import org.reconmuc.component.store.RoomJournal;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.store.StoreException;
import org.reconmuc.component.store.StoredOccupants;
import org.reconmuc.component.store.StoredRoom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.packet.JID;
import org.xmpp.packet.Packet;

/**
 * The rooms of a {@link MucService} served under leases, as one of several instances sharing a
 * domain (DESIGN.md, "Several instances"): a room is claimed ({@link RoomOwnership}) when its
 * first stanza comes, or at once when this instance adopts a dead one's connections; its stanzas
 * wait for the claim; once the lease is ours it is read from the shared store off the room
 * threads and carries on with its last owner's occupants ({@link RoomCarry}); it is given up when
 * its lease or its connection is lost, and let go after its last stanza when its bucket moves.
 * Which instance may serve which room, and when, is decided in {@code cluster} ({@code ClusterNode}).
 */
public final class LeasedRooms {
    private static final Logger LOG = LoggerFactory.getLogger(LeasedRooms.class);

    private final MucService service;
    private final RoomOwnership owner;
    private final Store store;
    private final Clock clock;
    private final int historySize;
    /** Where claimed rooms are read: the reads wait on the database, the room threads serve on. */
    private final Executor reads;
    /** Our own thread for {@link #reads}, if we made it (stopped by {@link #close()}). */
    private final ExecutorService ownReads;
    private final AtomicLong roomsLost = new AtomicLong();
    private final AtomicLong claimsRefused = new AtomicLong();
    /**
     * Rooms the store did not know when a stanza other than a join that may create them came for
     * them, with the connection it came through (under the routing lock). While that connection
     * lives, every stanza for the room comes through it, and only a join through it creates the
     * room (such a join always claims, and forgets the absence); so further stanzas are refused at once, without a
     * lease claim or a read. A lost or handed-over connection forgets its absences. Bounded
     * ({@code absent-rooms-remembered}), least recently refused out.
     */
    private final LinkedHashMap<RoomJid, Integer> absent;

    private LeasedRooms(MucService service, RoomOwnership owner, Executor reads, ExecutorService ownReads) {
        this.service = service;
        this.owner = owner;
        this.store = service.store();
        this.clock = service.clock();
        this.historySize = service.config().historySize();
        this.reads = reads;
        this.ownReads = ownReads;
        int remembered = service.config().absentRoomsRemembered();
        this.absent = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<RoomJid, Integer> eldest) {
                return size() > remembered;
            }
        };
    }

    /** Rooms of {@code service} under {@code owner}'s leases, read from the store on a thread of their own. */
    static LeasedRooms withReadThread(MucService service, RoomOwnership owner) {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "room-loads");
            t.setDaemon(true);
            return t;
        });
        return new LeasedRooms(service, owner, thread, thread);
    }

    /** As above, read on {@code reads} (tests: the caller's thread, for determinism). */
    static LeasedRooms readingOn(MucService service, RoomOwnership owner, Executor reads) {
        return new LeasedRooms(service, owner, reads, null);
    }

    /** The room left memory here (under the routing lock), whatever became of its lease. */
    void forgotten(RoomJid jid) {
        owner.forgotten(jid);
    }

    void close() {
        if (ownReads != null) {
            ownReads.shutdownNow();
        }
    }

    /**
     * The rooms of a dead instance whose connections this instance adopted: their stanzas come
     * here next, so each is claimed and loaded now, not when its next stanza comes (a room is
     * served again a claim and a load after the death, whatever its traffic). Stanzas that come
     * meanwhile wait for the claim, as for any room being claimed.
     */
    public void takeOver(List<String> adopted) {
        synchronized (service.routing) {
            absent.clear();   // new connections: rooms created elsewhere may come here now
            for (String room : adopted) {
                RoomJid jid;
                try {
                    jid = new RoomJid(new JID(room));
                } catch (IllegalArgumentException e) {
                    LOG.warn("a lease names '{}', which is not a room address: not taken over", room);
                    continue;
                }
                MucService.RoomEntry entry = service.addRoom(jid);
                if (entry != null) {
                    entry.via = MucService.RoomEntry.NOT_YET_ROUTED;
                    claim(entry, false, null);
                }
            }
        }
    }

    /** Asks for a new room's lease; its stanzas wait meanwhile (under the routing lock). */
    void claim(MucService.RoomEntry entry, boolean join, String joiner) {
        entry.gated = new ArrayList<>();
        if (join) {
            absent.remove(entry.room().jid());
        }
        ask(entry, join, joiner);
    }

    private void ask(MucService.RoomEntry entry, boolean join, String joiner) {
        long askedAt = clock.millis();
        owner.claim(entry.room().jid(), epoch -> decided(entry, epoch, join, joiner, askedAt));
    }

    /**
     * Whether a stanza (other than a join that may create the room), for a room not in memory
     * that came through connection {@code via}, is for a room the store was found not to know
     * (under the routing lock): it is refused, and neither the leases nor the store hear of it.
     */
    boolean knownAbsent(RoomJid room, int via) {
        Integer through = absent.get(room);
        return through != null && through == via;
    }

    /**
     * A stanza other than a join that may create the room came for a room not in memory (under
     * the routing lock): the room is claimed only if the store knows it (a persistent room, or one
     * whose occupants another instance served); else its stanzas are refused (item-not-found, or
     * for a join not-allowed with why) and its absence remembered. Its stanzas wait meanwhile
     * ({@code entry.gated}, set by the caller); a join among them that may create the room claims
     * and creates it as ever.
     */
    void lookUp(MucService.RoomEntry entry, int via) {
        RoomJid jid = entry.room().jid();
        Runnable look = () -> {
            boolean known;
            try {
                known = store.loadRoom(jid.toString(), 0).isPresent() || !store.occupants(jid.toString()).isEmpty();
            } catch (StoreException | RuntimeException e) {
                known = true;   // cannot tell: the claim reads it again, and says what went wrong
            }
            List<Packet> refused = new ArrayList<>();
            synchronized (service.routing) {
                if (known) {
                    ask(entry, false, null);
                    return;
                }
                List<RoomMailbox.Delivery> waiting = entry.gated;
                entry.gated = null;
                service.forget(entry);
                if (waiting.stream().noneMatch(d -> creates(d.packet()))) {
                    absent.put(jid, via);
                }
                // A join that may create the room creates it (and claims it); what came after it follows.
                boolean created = false;
                for (RoomMailbox.Delivery d : waiting) {
                    if ((created || creates(d.packet())) && service.dispatch(d.packet(), via)) {
                        created = true;
                    } else {
                        service.mailboxBudget.release();
                        refused.add(d.packet());
                    }
                }
            }
            refused.forEach(service::refuseForMissingRoom);
        };
        try {
            reads.execute(look);
        } catch (RejectedExecutionException stopping) {
            look.run();
        }
    }

    private boolean creates(Packet packet) {
        return MucService.isJoin(packet) && service.mayCreate(packet);
    }

    /** What the store has of a claimed room, read before its first task (or why it could not be). */
    private record Loaded(Optional<StoredRoom> room, StoredOccupants occupants, StoreException failure,
                          long askedAt, long loadedAt) {
    }

    private Loaded load(RoomJid jid, long askedAt) {
        try {
            Optional<StoredRoom> stored = store.loadRoom(jid.toString(), historySize);
            return new Loaded(stored, store.occupants(jid.toString()), null, askedAt, clock.millis());
        } catch (StoreException e) {
            return new Loaded(Optional.empty(), StoredOccupants.NONE, e, askedAt, clock.millis());
        } catch (RuntimeException e) {
            // Whatever went wrong, the claim ends: else the stanzas waiting for it wait for ever.
            LOG.error("room {}: reading it from the store failed", jid, e);
            return new Loaded(Optional.empty(), StoredOccupants.NONE,
                    new StoreException("reading the room failed: " + e, e), askedAt, clock.millis());
        }
    }

    /**
     * A room's lease was decided (on the claims' thread): if ours, it is read from the store
     * (off the room threads), then its first task restores it and carries on with the occupants of
     * its last owner ({@link RoomCarry}), and the stanzas that waited for the claim follow, in
     * order; if another instance kept it, they are refused with a wait. A room nobody has, for a
     * stanza that is not a join, is refused as missing.
     */
    private void decided(MucService.RoomEntry entry, long epoch, boolean join, String joiner, long askedAt) {
        if (epoch > 0) {
            Runnable loadThenServe = () -> {
                Loaded loaded = load(entry.room().jid(), askedAt);
                synchronized (service.routing) {
                    List<Runnable> first = new ArrayList<>();
                    first.add(() -> claimed(entry, epoch, join, joiner, loaded));
                    first.addAll(entry.gated);
                    entry.gated = null;
                    // Together: the claim's task may abandon the room, and must find them all waiting.
                    entry.mailbox().submitAll(first);
                }
            };
            try {
                reads.execute(loadThenServe);
            } catch (RejectedExecutionException stopping) {
                loadThenServe.run();
            }
            return;
        }
        List<Packet> refused = new ArrayList<>();
        synchronized (service.routing) {
            List<RoomMailbox.Delivery> waiting = entry.gated;
            entry.gated = null;
            claimsRefused.incrementAndGet();
            service.forget(entry);
            for (RoomMailbox.Delivery d : waiting) {
                service.mailboxBudget.release();
                refused.add(d.packet());
            }
        }
        for (Packet p : refused) {
            service.reply(p, Condition.RESOURCE_CONSTRAINT, "The room is served by another instance of the service right now;"
                    + " try again in a few seconds");
        }
    }

    /** The room's first task once its lease is ours (see {@link #decided}). */
    private void claimed(MucService.RoomEntry entry, long epoch, boolean join, String joiner, Loaded loaded) {
        long startedAt = clock.millis();
        RoomJid jid = entry.room().jid();
        entry.epoch = epoch;
        RoomJournal journal = entry.room().context().journal();
        journal.fence(epoch, () -> entry.mailbox().submit(() -> lost(entry, epoch)), owner::sending);
        if (loaded.failure() != null) {
            LOG.warn("room {}: cannot be loaded from the store: {}", jid, loaded.failure().getMessage());
            owner.release(jid, epoch);
            abandon(entry, Condition.RESOURCE_CONSTRAINT, "The room cannot be loaded right now; try again");
            return;
        }
        Optional<StoredRoom> stored = loaded.room();
        StoredOccupants formerOccupants = loaded.occupants();
        Room room = entry.room();
        if (stored.isPresent()) {
            room.persistence().restore(stored.get());
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
        if (!formerOccupants.isEmpty()) {
            long now = clock.millis();
            LOG.info("room {}: served here under epoch {}, {} ms after its claim was asked (granted and read in {} ms,"
                    + " waited {} ms for its room thread, restored in {} ms)", jid, epoch, now - loaded.askedAt(),
                    loaded.loadedAt() - loaded.askedAt(), startedAt - loaded.loadedAt(), now - startedAt);
        }
        if (stored.isEmpty() && !join && room.occupants().isEmpty()) {
            owner.release(jid, epoch);
            abandon(entry, Condition.ITEM_NOT_FOUND, null);
        }
    }

    /**
     * Forgets a room this instance may not serve: what waits for it is refused ({@code condition}
     * with {@code text}; for {@link Condition#ITEM_NOT_FOUND} joins are routed again, and make a
     * new room).
     */
    private void abandon(MucService.RoomEntry entry, Condition condition, String text) {
        List<Packet> refused = new ArrayList<>();
        List<Packet> again = new ArrayList<>();
        synchronized (service.routing) {
            service.forget(entry);
            for (Packet pending : entry.mailbox().drainDeliveries()) {
                if (condition == Condition.ITEM_NOT_FOUND && MucService.isJoin(pending)) {
                    again.add(pending);
                } else {
                    service.mailboxBudget.release();
                    refused.add(pending);
                }
            }
            for (Packet join : again) {
                if (!service.dispatch(join, entry.via)) {   // one that may not create the room, which is known absent
                    service.mailboxBudget.release();
                    refused.add(join);
                }
            }
        }
        for (Packet p : refused) {
            if (condition == Condition.ITEM_NOT_FOUND) {
                service.refuseForMissingRoom(p);
            } else {
                service.reply(p, condition, text);
            }
        }
    }

    /** The room's lease is gone (another instance took it over): it is forgotten here, untold. */
    private void lost(MucService.RoomEntry entry, long epoch) {
        if (giveUp(entry, epoch, "The room moved to another instance of the service; try again")) {
            LOG.warn("room {}: lost its lease (epoch {}) to another instance; no longer served here", entry.room().jid(),
                    epoch);
        }
    }

    /**
     * Stops serving a room still served under {@code epoch} (on its own thread): what waits for
     * it is refused with a wait and {@code text}. False if it was no longer served under that epoch.
     */
    private boolean giveUp(MucService.RoomEntry entry, long epoch, String text) {
        if (epoch <= 0 || entry.epoch != epoch) {
            return false;
        }
        entry.epoch = -1;
        roomsLost.incrementAndGet();
        entry.room().context().journal().stopSending();   // its timers must not send what its next owner sends
        abandon(entry, Condition.RESOURCE_CONSTRAINT, text);
        return true;
    }

    /**
     * After a heartbeat: {@code held} are the rooms this instance holds now, with their epochs;
     * a room served here under another epoch, or not held at all, is given up — unless
     * {@code claimedSince} says it was claimed after the heartbeat read them. Returns the rooms
     * given up (nothing more may leave for them).
     */
    public java.util.Set<String> leasesRenewed(java.util.Map<String, Long> held,
                                               java.util.function.Predicate<String> claimedSince) {
        java.util.Set<String> lost = new java.util.HashSet<>();
        for (MucService.RoomEntry e : service.snapshot()) {
            long epoch = e.epoch;
            String jid = e.room().jid().toString();
            Long now = held.get(jid);
            if (epoch > 0 && (now == null || now != epoch) && !claimedSince.test(jid)) {
                lost.add(jid);
                e.mailbox().submit(() -> lost(e, epoch));
            }
        }
        return lost;
    }

    /**
     * Connection {@code via} is gone: the server sends its rooms' stanzas elsewhere from now on,
     * so those rooms are given back for whoever gets them (an instance that loses its connection
     * gives up its rooms).
     */
    public void connectionLost(int via) {
        forgetAbsences(via);
        for (MucService.RoomEntry e : service.snapshot()) {
            if (e.via == via || e.via == MucService.RoomEntry.NOT_YET_ROUTED) {   // the latter may have been this connection's
                e.mailbox().submit(() -> {
                    long epoch = e.epoch;
                    if (giveUp(e, epoch, "The room is moving to another instance of the service; try again")) {
                        owner.release(e.room().jid(), epoch);
                    }
                });
            }
        }
    }

    /**
     * Connection {@code via}'s bucket was handed over to another instance (a clean stop, or a new
     * instance taking its share back), and the connection closed after the last stanza the server
     * sent through it: nothing more comes here for its rooms. Each is let go after what it
     * received — handled, written, sent — and its lease given back after its last writes; the
     * new owner's claim waits for that, with the rooms' new stanzas behind it.
     */
    public void handOver(int via) {
        List<MucService.RoomEntry> served = new ArrayList<>();
        synchronized (service.routing) {
            forgetAbsences(via);
            for (MucService.RoomEntry e : service.roomsUnderLock()) {
                // A claim under way: its lease goes back at the stop. A room taken over and not yet
                // routed may be this bucket's: let go too (its next stanza claims it wherever it goes).
                if ((e.via == via || e.via == MucService.RoomEntry.NOT_YET_ROUTED) && e.gated == null) {
                    served.add(e);
                }
            }
        }
        for (MucService.RoomEntry e : served) {
            e.mailbox().submit(() -> service.letGo(e.room(), false));
        }
        if (!served.isEmpty()) {
            LOG.info("connection {} handed over: letting its {} rooms go after what they received", via, served.size());
        }
    }

    /** Connection {@code via}'s bucket may be another's from now on: what came through it proves nothing more. */
    private void forgetAbsences(int via) {
        synchronized (service.routing) {
            absent.values().removeIf(through -> through == via);
        }
    }

    /** Rooms given up: taken over by another instance, or their connection lost. */
    public long roomsLost() {
        return roomsLost.get();
    }

    /** Rooms not served here because another instance kept them past the claim's wait. */
    public long claimsRefused() {
        return claimsRefused.get();
    }
}
