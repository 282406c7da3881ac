package org.reconmuc.component.cluster;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.limits.BoundedMap;
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
 * The service's rooms served under leases, as one of several instances sharing a domain
 * (DESIGN.md, "Several instances"): a room is claimed ({@link RoomOwnership}) when its first
 * stanza comes, or at once when this instance adopts a dead one's connections; its stanzas wait
 * for the claim; once the lease is ours it is read from the shared store off the room threads and
 * carries on with its last owner's occupants ({@link LeaseHost#carryOn}); it is given up when its
 * lease or its connection is lost, and let go after its last stanza when its bucket moves. The
 * rooms are reached only through their {@link LeaseHost} ({@code R}: a room in memory).
 */
public final class LeasedRooms<R> {
    private static final Logger LOG = LoggerFactory.getLogger(LeasedRooms.class);

    private final LeaseHost<R> host;
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
    private final BoundedMap<RoomJid, Integer> absent;
    /**
     * Rooms whose claim was under way when their connection's bucket was handed over (under the
     * routing lock): nothing more comes here for them, so each is let go once claimed, after the
     * stanzas that waited for the claim — else this instance would hold its lease, renewed with
     * every heartbeat, while the bucket's new holder refuses the room's every stanza.
     */
    private final Set<R> letGoOnceClaimed = new HashSet<>();
    /** Heartbeats in a row that found a room served here through a connection no longer ours (see {@link #leasesRenewed}). */
    static final int RENEWALS_BEFORE_LETTING_GO = 3;
    /** Rooms so found, with how many heartbeats in a row did (the renewal's thread only). */
    private final Map<R, Integer> stranded = new HashMap<>();
    private final AtomicLong roomsLetGoStranded = new AtomicLong();

    private LeasedRooms(LeaseHost<R> host, RoomOwnership owner, Store store, Clock clock, ServiceConfig config,
                        Executor reads, ExecutorService ownReads) {
        this.host = host;
        this.owner = owner;
        this.store = store;
        this.clock = clock;
        this.historySize = config.historySize();
        this.reads = reads;
        this.ownReads = ownReads;
        this.absent = BoundedMap.leastRecentlyUsedOut(config.absentRoomsRemembered());
    }

    /** The rooms of {@code host} under {@code owner}'s leases, read from {@code store} on a thread of their own. */
    public static <R> LeasedRooms<R> withReadThread(LeaseHost<R> host, RoomOwnership owner, Store store, Clock clock,
                                                    ServiceConfig config) {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "room-loads");
            t.setDaemon(true);
            return t;
        });
        return new LeasedRooms<>(host, owner, store, clock, config, thread, thread);
    }

    /** As above, read on {@code reads} (tests: the caller's thread, for determinism). */
    public static <R> LeasedRooms<R> readingOn(LeaseHost<R> host, RoomOwnership owner, Store store, Clock clock,
                                               ServiceConfig config, Executor reads) {
        return new LeasedRooms<>(host, owner, store, clock, config, reads, null);
    }

    /** The room left memory here (under the routing lock), whatever became of its lease. */
    public void forgotten(RoomJid jid) {
        owner.forgotten(jid);
    }

    public void close() {
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
        synchronized (host.routingLock()) {
            absent.clear();   // new connections: rooms created elsewhere may come here now
            for (String room : adopted) {
                RoomJid jid;
                try {
                    jid = new RoomJid(new JID(room));
                } catch (IllegalArgumentException e) {
                    LOG.warn("a lease names '{}', which is not a room address: not taken over", room);
                    continue;
                }
                R entry = host.adopt(jid);
                if (entry != null) {
                    claim(entry, false, null);
                }
            }
        }
    }

    /** Asks for a new room's lease; its stanzas wait meanwhile (under the routing lock). */
    public void claim(R entry, boolean join, String joiner) {
        host.holdStanzas(entry);
        if (join) {
            absent.remove(host.jid(entry));
        }
        ask(entry, join, joiner);
    }

    private void ask(R entry, boolean join, String joiner) {
        long askedAt = clock.millis();
        owner.claim(host.jid(entry), epoch -> decided(entry, epoch, join, joiner, askedAt));
    }

    /**
     * Whether a stanza (other than a join that may create the room), for a room not in memory
     * that came through connection {@code via}, is for a room the store was found not to know
     * (under the routing lock): it is refused, and neither the leases nor the store hear of it.
     */
    public boolean knownAbsent(RoomJid room, int via) {
        Integer through = absent.get(room);
        return through != null && through == via;
    }

    /**
     * A stanza other than a join that may create the room came for a room not in memory (under
     * the routing lock): the room is claimed only if the store knows it (a persistent room, or one
     * whose occupants another instance served); else its stanzas are refused (item-not-found, or
     * for a join not-allowed with why) and its absence remembered. Its stanzas wait meanwhile
     * ({@link LeaseHost#holdStanzas}, by the caller); a join among them that may create the room
     * claims and creates it as ever.
     */
    public void lookUp(R entry, int via) {
        RoomJid jid = host.jid(entry);
        Runnable look = () -> {
            boolean known;
            try {
                known = store.loadRoom(jid.toString(), 0).isPresent() || !store.occupants(jid.toString()).isEmpty();
            } catch (StoreException | RuntimeException e) {
                known = true;   // cannot tell: the claim reads it again, and says what went wrong
            }
            List<Packet> refused = new ArrayList<>();
            synchronized (host.routingLock()) {
                if (known) {
                    ask(entry, false, null);
                    return;
                }
                List<Packet> waiting = host.takeHeldStanzas(entry);
                host.forget(entry);
                letGoOnceClaimed.remove(entry);
                if (waiting.stream().noneMatch(host::createsRoom)) {
                    absent.put(jid, via);
                }
                // A join that may create the room creates it (and claims it); what came after it follows.
                boolean created = false;
                for (Packet p : waiting) {
                    if ((created || host.createsRoom(p)) && host.dispatch(p, via)) {
                        created = true;
                    } else {
                        host.unrouted(p);
                        refused.add(p);
                    }
                }
            }
            refused.forEach(host::refuseAsMissing);
        };
        try {
            reads.execute(look);
        } catch (RejectedExecutionException stopping) {
            look.run();
        }
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
     * its last owner ({@link LeaseHost#carryOn}), and the stanzas that waited for the claim follow, in
     * order; if another instance kept it, they are refused with a wait. A room nobody has, for a
     * stanza that is not a join, is refused as missing.
     */
    private void decided(R entry, long epoch, boolean join, String joiner, long askedAt) {
        if (epoch > 0) {
            Runnable loadThenServe = () -> {
                Loaded loaded = load(host.jid(entry), askedAt);
                synchronized (host.routingLock()) {
                    // Together: the claim's task may abandon the room, and must find them all waiting.
                    host.serveHeldStanzas(entry, () -> claimed(entry, epoch, join, joiner, loaded));
                    if (letGoOnceClaimed.remove(entry)) {
                        host.submit(entry, () -> host.letGo(entry));
                    }
                }
            };
            try {
                reads.execute(loadThenServe);
            } catch (RejectedExecutionException stopping) {
                loadThenServe.run();
            }
            return;
        }
        List<Packet> refused;
        synchronized (host.routingLock()) {
            letGoOnceClaimed.remove(entry);
            refused = host.takeHeldStanzas(entry);
            claimsRefused.incrementAndGet();
            host.forget(entry);
            refused.forEach(host::unrouted);
        }
        for (Packet p : refused) {
            host.refuseForNow(p, "The room is served by another instance of the service right now;"
                    + " try again in a few seconds");
        }
    }

    /** The room's first task once its lease is ours (see {@link #decided}). */
    private void claimed(R entry, long epoch, boolean join, String joiner, Loaded loaded) {
        long startedAt = clock.millis();
        RoomJid jid = host.jid(entry);
        host.epoch(entry, epoch);
        RoomJournal journal = host.journal(entry);
        journal.fence(epoch, () -> host.submit(entry, () -> lost(entry, epoch)), owner::sending);
        if (loaded.failure() != null) {
            LOG.warn("room {}: cannot be loaded from the store: {}", jid, loaded.failure().getMessage());
            owner.release(jid, epoch);
            abandon(entry, false, "The room cannot be loaded right now; try again");
            return;
        }
        Optional<StoredRoom> stored = loaded.room();
        StoredOccupants formerOccupants = loaded.occupants();
        boolean empty = host.carryOn(entry, epoch, stored, formerOccupants, joiner);
        if (!formerOccupants.isEmpty()) {
            long now = clock.millis();
            LOG.info("room {}: served here under epoch {}, {} ms after its claim was asked (granted and read in {} ms,"
                    + " waited {} ms for its room thread, restored in {} ms)", jid, epoch, now - loaded.askedAt(),
                    loaded.loadedAt() - loaded.askedAt(), startedAt - loaded.loadedAt(), now - startedAt);
        }
        if (stored.isEmpty() && !join && empty) {
            owner.release(jid, epoch);
            abandon(entry, true, null);
        }
    }

    /**
     * Forgets a room this instance may not serve: what waits for it is refused (as {@code missing},
     * when joins are routed again and make a new room; else for now, with {@code text}).
     */
    private void abandon(R entry, boolean missing, String text) {
        List<Packet> refused = new ArrayList<>();
        List<Packet> again = new ArrayList<>();
        synchronized (host.routingLock()) {
            host.forget(entry);
            for (Packet pending : host.drainMailbox(entry)) {
                if (missing && host.isJoin(pending)) {
                    again.add(pending);
                } else {
                    host.unrouted(pending);
                    refused.add(pending);
                }
            }
            for (Packet join : again) {
                if (!host.dispatch(join, host.via(entry))) {   // one that may not create the room, which is known absent
                    host.unrouted(join);
                    refused.add(join);
                }
            }
        }
        for (Packet p : refused) {
            if (missing) {
                host.refuseAsMissing(p);
            } else {
                host.refuseForNow(p, text);
            }
        }
    }

    /** The room's lease is gone (another instance took it over): it is forgotten here, untold. */
    private void lost(R entry, long epoch) {
        if (giveUp(entry, epoch, "The room moved to another instance of the service; try again")) {
            LOG.warn("room {}: lost its lease (epoch {}) to another instance; no longer served here", host.jid(entry),
                    epoch);
        }
    }

    /**
     * Stops serving a room still served under {@code epoch} (on its own thread): what waits for
     * it is refused with a wait and {@code text}. False if it was no longer served under that epoch.
     */
    private boolean giveUp(R entry, long epoch, String text) {
        if (epoch <= 0 || host.epoch(entry) != epoch) {
            return false;
        }
        host.epoch(entry, -1);
        roomsLost.incrementAndGet();
        host.journal(entry).stopSending();   // its timers must not send what its next owner sends
        abandon(entry, false, text);
        return true;
    }

    /**
     * After a heartbeat: {@code held} are the rooms this instance holds now, with their epochs;
     * a room served here under another epoch, or not held at all, is given up — unless
     * {@code claimedSince} says it was claimed after the heartbeat read them. A room still served
     * here whose stanzas came through a connection that is not among {@code connections} (this
     * instance's connections not yet forgotten: holding buckets, or closing) at {@link #RENEWALS_BEFORE_LETTING_GO} heartbeats
     * in a row is let go: nothing routes it here any more, yet its lease would be renewed for ever
     * (see {@link #letGoOnceClaimed}; a hand-over or a lost connection lets such rooms go at once, so
     * this finds only what a path no one foresaw left behind). Returns the rooms given up.
     */
    public Set<String> leasesRenewed(Map<String, Long> held, Predicate<String> claimedSince,
                                     Collection<Integer> connections) {
        Set<String> lostJids = new HashSet<>();
        Map<R, Long> lost = new LinkedHashMap<>();
        Map<R, Integer> strandedNow = new HashMap<>();
        synchronized (host.routingLock()) {   // where a room's stanzas come through, and whether they wait, change under it
            for (R e : host.rooms()) {
                long epoch = host.epoch(e);
                String jid = host.jid(e).toString();
                Long now = held.get(jid);
                int via = host.via(e);
                if (epoch > 0 && (now == null || now != epoch) && !claimedSince.test(jid)) {
                    lostJids.add(jid);
                    lost.put(e, epoch);
                } else if (epoch > 0 && via != LeaseHost.NOT_YET_ROUTED && !connections.contains(via) && !host.holdsStanzas(e)) {
                    strandedNow.put(e, stranded.getOrDefault(e, 0) + 1);
                }
            }
        }
        lost.forEach((e, epoch) -> host.submit(e, () -> lost(e, epoch)));
        stranded.clear();
        strandedNow.forEach((e, renewals) -> {
            if (renewals < RENEWALS_BEFORE_LETTING_GO) {
                stranded.put(e, renewals);
                return;
            }
            LOG.warn("room {}: its stanzas came through connection {}, which this instance has not held for {} heartbeats;"
                    + " letting it go (its lease would be renewed here for ever)", host.jid(e), host.via(e), renewals);
            roomsLetGoStranded.incrementAndGet();
            host.submit(e, () -> host.letGo(e));
        });
        return lostJids;
    }

    /**
     * Connection {@code via} is gone: the server sends its rooms' stanzas elsewhere from now on,
     * so those rooms are given back for whoever gets them (an instance that loses its connection
     * gives up its rooms).
     */
    public void connectionLost(int via) {
        forgetAbsences(via);
        for (R e : host.rooms()) {
            if (host.via(e) == via || host.via(e) == LeaseHost.NOT_YET_ROUTED) {   // the latter may have been this connection's
                host.submit(e, () -> {
                    long epoch = host.epoch(e);
                    if (giveUp(e, epoch, "The room is moving to another instance of the service; try again")) {
                        owner.release(host.jid(e), epoch);
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
        List<R> served = new ArrayList<>();
        synchronized (host.routingLock()) {
            forgetAbsences(via);
            for (R e : host.rooms()) {
                // A room taken over and not yet routed may be this bucket's: let go too (its next
                // stanza claims it wherever it goes). One whose claim is under way: once claimed.
                if (host.via(e) == via || host.via(e) == LeaseHost.NOT_YET_ROUTED) {
                    if (host.holdsStanzas(e)) {
                        letGoOnceClaimed.add(e);
                    } else {
                        served.add(e);
                    }
                }
            }
        }
        for (R e : served) {
            host.submit(e, () -> host.letGo(e));
        }
        if (!served.isEmpty()) {
            LOG.info("connection {} handed over: letting its {} rooms go after what they received", via, served.size());
        }
    }

    /** Connection {@code via}'s bucket may be another's from now on: what came through it proves nothing more. */
    private void forgetAbsences(int via) {
        synchronized (host.routingLock()) {
            absent.removeValuesIf(through -> through == via);
        }
    }

    /** Rooms given up: taken over by another instance, or their connection lost. */
    public long roomsLost() {
        return roomsLost.get();
    }

    /** Rooms let go because their connection had not been this instance's for several heartbeats (each a bug's trace). */
    public long roomsLetGoStranded() {
        return roomsLetGoStranded.get();
    }

    /** Rooms not served here because another instance kept them past the claim's wait. */
    public long claimsRefused() {
        return claimsRefused.get();
    }
}
