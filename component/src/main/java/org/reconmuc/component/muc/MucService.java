package org.reconmuc.component.muc;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.component.cluster.ClusteredService;
import org.reconmuc.component.cluster.LeaseHost;
import org.reconmuc.component.cluster.LeasedRooms;
import org.reconmuc.component.cluster.RoomOwnership;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.jid.RoomJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.relaxed.RelaxedCounters;
import org.reconmuc.component.store.RoomJournal;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.store.StoreException;
import org.reconmuc.component.store.StoredRoom;
import org.reconmuc.component.transport.ConnectionListener;
import org.reconmuc.component.transport.Outbox;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.RenderedStanza;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.component.Component;
import org.xmpp.component.ComponentException;
import org.xmpp.component.ComponentManager;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * The multi-user chat service (XEP-0045) as a Tinder {@link Component}: the same class can be
 * attached over XEP-0114 by our own connector, or loaded in-process by Openfire.
 *
 * <p>Stanzas for the service's own address (disco, ping, version) are answered at once; stanzas
 * for a room go to that room's mailbox, so each room runs on one thread at a time, in order.
 * {@link #processPacket} waits while {@link ServiceConfig#maxPendingStanzas()} stanzas wait in
 * mailboxes: when a slow server holds the rooms back, the connection stops reading from it.
 */
public final class MucService implements ClusteredService, ConnectionListener, Outbox {
    private static final Logger LOG = LoggerFactory.getLogger(MucService.class);
    public static final String NAME = "ReConMUC";
    public static final String VERSION = "0.1.0";

    private final ServiceConfig config;
    private final Clock clock;
    private final Executor executor;
    private final Scheduler scheduler;
    /** Our own timer thread, when the service made one (stopped on shutdown). */
    private final ScheduledExecutorService timer;
    private volatile Outbox outbox;
    /** Guards {@link #rooms} and the hand-over of stanzas to mailboxes (see {@link #letGo}). */
    final Object routing = new Object();
    private final Map<RoomJid, RoomEntry> rooms = new HashMap<>();
    private final RelaxedCounters counters = new RelaxedCounters();
    /** Back-pressure: the reader waits when this many stanzas wait for their rooms. */
    final MailboxBudget mailboxBudget;
    private volatile boolean everConnected;
    /** Where persistent rooms are kept ({@link Store#NONE}: nowhere). */
    private final Store store;
    /** Who may create rooms, and the rooms each user created that are still here (guarded by the routing lock). */
    private final CreatedRooms created;
    /** What the features do on the whole service. */
    private final Hooks hooks = new Hooks();
    /** The rooms' pipeline: the core's options and the features' handlers, in order ({@link RoomEvents}). */
    private final RoomEvents events;

    /** A room in memory, its mailbox, and (several instances) the lease it is served under. */
    static final class RoomEntry {
        final Room room;
        final RoomMailbox mailbox;
        /** The lease's epoch; 0 while not claimed yet, or when the service runs alone. */
        volatile long epoch;
        /** The connection its stanzas last came through (several connections); {@link LeaseHost#NOT_YET_ROUTED} before the first. */
        volatile int via;
        /** While its lease is being claimed: the stanzas for it, in order (guarded by the routing lock). */
        List<RoomMailbox.Delivery> gated;

        RoomEntry(Room room, RoomMailbox mailbox) {
            this.room = room;
            this.mailbox = mailbox;
        }

        Room room() {
            return room;
        }

        RoomMailbox mailbox() {
            return mailbox;
        }
    }

    /** Null while the service runs alone; else rooms are served only under leases. */
    private volatile LeasedRooms<RoomEntry> leased;

    /**
     * A service whose stanzas leave through the ComponentManager given to {@link #initialize}, its
     * rooms with {@code features} (each attaches itself, in this order, after the core's own options).
     */
    public MucService(ServiceConfig config, Clock clock, Executor executor, List<? extends RoomFeature> features) {
        this(config, clock, executor, null, null, features);
    }

    /**
     * A service whose stanzas leave through {@code outbox} and whose time bounds fire through
     * {@code scheduler} (tests, benchmarks); a null one means our own.
     */
    public MucService(ServiceConfig config, Clock clock, Executor executor, Outbox outbox, Scheduler scheduler,
                      List<? extends RoomFeature> features) {
        this(config, clock, executor, outbox, scheduler, Store.NONE, features);
    }

    /** Like the above, keeping persistent rooms in {@code store} (restored by {@link #restoreRooms()}). */
    public MucService(ServiceConfig config, Clock clock, Executor executor, Outbox outbox, Scheduler scheduler,
                      Store store, List<? extends RoomFeature> features) {
        this.store = store;
        this.config = config;
        this.clock = clock;
        this.executor = executor;
        this.outbox = outbox;
        this.mailboxBudget = new MailboxBudget(config.maxPendingStanzas());
        this.created = new CreatedRooms(config.roomCreation(), config.domain());
        if (scheduler == null) {
            this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "room-timer");
                t.setDaemon(true);
                return t;
            });
            this.scheduler = (delay, task) -> timer.schedule(task, delay, TimeUnit.MILLISECONDS);
        } else {
            this.timer = null;
            this.scheduler = scheduler;
        }
        List<RoomFeature> all = new ArrayList<>(RoomOptions.ALL);
        all.addAll(features);
        this.events = RoomEvents.attach(all, hooks);
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getDescription() {
        return "Multi-user chat (XEP-0045) with per-occupant relaxed consistency";
    }

    @Override
    public void initialize(JID jid, ComponentManager componentManager) throws ComponentException {
        if (outbox == null) {
            // In-process (Openfire's plugin) the server reads the DOM, not the text: it gets a packet.
            outbox = stanza -> {
                try {
                    componentManager.sendPacket(this, stanza.toPacket());
                } catch (ComponentException e) {
                    LOG.debug("could not send a {}: {}", stanza.name(), e.getMessage());
                }
            };
        }
    }

    @Override
    public void start() {
        LOG.info("{} serving {}", NAME, config.domain());
    }

    @Override
    public void shutdown() {
        hooks.onShutdown.forEach(Runnable::run);
        mailboxBudget.close();
        LeasedRooms<RoomEntry> l = leased;
        if (l != null) {
            l.close();
        }
        if (timer != null) {
            timer.shutdownNow();
        }
        LOG.info("{} shut down with {} rooms in memory", NAME, roomCount());
    }

    @Override
    public void connected() {
        if (everConnected) {
            // After an outage some occupants' sessions may be gone: a ping sorts them out.
            List<RoomEntry> all;
            synchronized (routing) {
                all = new ArrayList<>(rooms.values());
            }
            for (RoomEntry e : all) {
                e.mailbox().submit(e.room().presence()::pingOccupants);
            }
        }
        everConnected = true;
        hooks.onConnected.forEach(Runnable::run);
    }

    /**
     * One of several instances: its connections changed (one came or went), so an address a feature
     * follows something from may reach another instance now (the block list finds one of its own again).
     */
    @Override
    public void connectionsChanged() {
        hooks.onConnectionsChanged.forEach(Runnable::run);
    }

    @Override
    public void disconnected() {
        // Rooms and history stay in memory until the connection is back.
    }

    /**
     * Brings back the persistent rooms from the store, each with its newest messages as its
     * history; call before connecting. Returns how many.
     */
    public int restoreRooms() throws StoreException {
        List<StoredRoom> stored = store.loadRooms(config.historySize());
        synchronized (routing) {
            for (StoredRoom s : stored) {
                RoomJid jid = new RoomJid(new JID(s.record().jid()));
                RoomEntry entry = newRoom(jid);
                entry.room().persistence().restore(s);
                rooms.put(jid, entry);
            }
        }
        if (!stored.isEmpty()) {
            LOG.info("restored {} persistent rooms from {}", stored.size(), store.describe());
        }
        return stored.size();
    }

    public Store store() {
        return store;
    }

    /** Stanzas handed to rooms and not yet handled. */
    public int pendingStanzas() {
        return mailboxBudget.pending();
    }

    public RelaxedCounters counters() {
        return counters;
    }

    /** What a feature keeps for the whole service and published, by its type ({@link ServiceHooks#publish}): null if none did. */
    public <T> T feature(Class<T> type) {
        for (Object kept : hooks.published) {
            if (type.isInstance(kept)) {
                return type.cast(kept);
            }
        }
        return null;
    }

    /** Occupants in all rooms now (each room's last published count). */
    public int occupantCount() {
        int n = 0;
        synchronized (routing) {
            for (RoomEntry e : rooms.values()) {
                n += e.room().listing().occupants();
            }
        }
        return n;
    }

    public int roomCount() {
        synchronized (routing) {
            return rooms.size();
        }
    }

    @Override
    public void processPacket(Packet packet) {
        processPacket(packet, 0);
    }

    /** A stanza that came through connection {@code via} (one of several). */
    @Override
    public void processPacket(Packet packet, int via) {
        if (LOG.isTraceEnabled()) {
            LOG.trace("in: {}", packet.toXML());
        }
        try {
            route(packet, via);
        } catch (RuntimeException e) {
            LOG.warn("failed to route a {} from {}", packet.getElement().getName(), packet.getFrom(), e);
            reply(packet, Condition.INTERNAL_SERVER_ERROR, "The service could not process this stanza");
        }
    }

    private void route(Packet packet, int via) {
        JID to = packet.getTo();
        if (to == null || packet.getFrom() == null || !config.domain().equals(to.getDomain())) {
            LOG.debug("dropping a stanza not addressed to {}: {}", config.domain(), to);
            return;
        }
        for (Predicate<Packet> handler : hooks.beforeRouting) {
            if (handler.test(packet)) {
                return;   // a feature's own (the block list's answers and notifications)
            }
        }
        JID address;
        try {
            address = new JID(to.toString()); // full stringprep: 'Lobby' and 'lobby' are one room
        } catch (IllegalArgumentException e) {
            reply(packet, Condition.JID_MALFORMED, "'" + to + "' is not a valid room or occupant address");
            return;
        }
        if (address.getNode() == null) {
            ServiceRequests.handle(this, packet);
            return;
        }
        packet.setTo(address);
        if (!mailboxBudget.acquire()) {
            return;   // shutting down
        }
        if (!dispatch(packet, via)) {
            mailboxBudget.release();
            refuseForMissingRoom(packet);
        }
    }

    /**
     * Puts a stanza, whose place in the {@link MailboxBudget} is taken, into its room's mailbox;
     * the place is given back when the room has handled it. False if it went to no room (the
     * caller refuses it, outside the routing lock: sending may wait for a slow server).
     */
    boolean dispatch(Packet packet, int via) {
        RoomJid roomJid = new RoomJid(packet.getTo().asBareJID());
        synchronized (routing) {
            RoomEntry entry = rooms.get(roomJid);
            LeasedRooms<RoomEntry> lookUp = null;
            if (entry == null) {
                LeasedRooms<RoomEntry> l = leased;
                boolean join = isJoin(packet);
                if (!join && l == null) {
                    return false;
                }
                if (l != null) {
                    // Only a join that may create the room claims it at once; anything else only if
                    // the store knows the room: made-up names never touch a lease.
                    boolean creates = join && mayCreate(packet);
                    if (!creates && l.knownAbsent(roomJid, via)) {
                        return false;
                    }
                    entry = addRoom(roomJid);
                    if (creates) {
                        l.claim(entry, true, packet.getFrom().toString());
                    } else {
                        entry.gated = new ArrayList<>();
                        lookUp = l;
                    }
                } else {
                    entry = addRoom(roomJid);
                }
            }
            entry.via = via;
            Room room = entry.room();
            RoomMailbox.Delivery delivery = new RoomMailbox.Delivery(packet, () -> {
                try {
                    room.handle(packet);
                } finally {
                    mailboxBudget.release();
                }
            });
            if (entry.gated != null) {
                entry.gated.add(delivery);
            } else {
                entry.mailbox().submit(delivery);
            }
            if (lookUp != null) {
                lookUp.lookUp(entry, via);   // after the stanza waits with the room: it may decide at once
            }
            return true;
        }
    }

    private RoomEntry newRoom(RoomJid jid) {
        RoomMailbox mailbox = new RoomMailbox(executor, jid);
        RoomJournal journal = store.journal(jid.toString(), this);
        Room room = new Room(jid, new RoomContext() {
            @Override
            public ServiceConfig config() {
                return config;
            }

            @Override
            public Clock clock() {
                return clock;
            }

            @Override
            public RoomJournal journal() {
                return journal;
            }

            @Override
            public Store store() {
                return store;
            }

            @Override
            public void schedule(long delayMillis, Runnable task) {
                scheduler.schedule(delayMillis, () -> mailbox.submit(task));
            }

            @Override
            public void discard(Room r) {
                letGo(r, true);
            }

            @Override
            public RelaxedCounters counters() {
                return counters;
            }

            @Override
            public String admitCreation(Room r, RealJid creator) {
                return MucService.this.admitCreation(r, creator);
            }

            @Override
            public RoomEvents events() {
                return events;
            }
        });
        return new RoomEntry(room, mailbox);
    }

    /**
     * A join is creating {@code room} (its first stanza; not a room restored from the store): null
     * if {@code creator} may create it, and from now on it counts as theirs; else why not.
     */
    private String admitCreation(Room room, RealJid creator) {
        synchronized (routing) {
            RoomEntry entry = rooms.get(room.jid());
            if (entry == null || entry.room() != room) {
                return null;   // already forgotten (given up): nothing to count
            }
            return created.admit(creator.jid(), room.jid());
        }
    }

    /** Rooms {@code bareJid} created that are still here (see {@link CreatedRooms}). */
    int roomsCreatedBy(String bareJid) {
        synchronized (routing) {
            return created.createdBy(bareJid);
        }
    }

    /**
     * Forgets a room (on its own thread): {@code forGood} when nobody is in it (emptied,
     * destroyed), else it is handed over with its occupants, who carry on with its next owner.
     * Stanzas already queued for it are routed again under the same lock, so a join that raced
     * with the last leave creates a fresh room, in order.
     */
    void letGo(Room room, boolean forGood) {
        List<Packet> refused = new ArrayList<>();
        synchronized (routing) {
            RoomEntry entry = rooms.get(room.jid());
            if (entry == null || entry.room() != room) {
                return;
            }
            rooms.remove(room.jid());
            forgotten(room);
            for (Packet pending : entry.mailbox().drainDeliveries()) {
                if (!dispatch(pending, entry.via)) {   // its place in the budget is still taken
                    mailboxBudget.release();
                    refused.add(pending);
                }
            }
        }
        // Outside the routing lock: queueing a write waits while the store's queue is full, and the
        // lease renewal must not wait for it. A newer claim of the room has a newer epoch: this
        // release, fenced by the old one, cannot give that away.
        if (forGood) {
            room.context().journal().release();
        } else {
            room.context().journal().handOver();
        }
        refused.forEach(this::refuseForMissingRoom);
    }

    // ---- several instances: rooms served under leases (LeasedRooms) --------------------------------

    /**
     * From now on a room is served only under a lease ({@link LeasedRooms}): rooms are claimed
     * when their first stanza arrives (persistent ones loaded from the shared store), and given up
     * when the lease is lost. Call before the first stanza; the rooms are not restored at start.
     */
    @Override
    public LeasedRooms<?> serveUnderLeases(RoomOwnership owner) {
        leased = LeasedRooms.withReadThread(new RoomLeaseHost(this), owner, store, clock, config);
        return leased;
    }

    /** Like the above, the claimed rooms read from the store on {@code reads} (tests: the caller's thread). */
    LeasedRooms<?> serveUnderLeases(RoomOwnership owner, Executor reads) {
        leased = LeasedRooms.readingOn(new RoomLeaseHost(this), owner, store, clock, config, reads);
        return leased;
    }

    /** The rooms served under leases; null while the service runs alone. */
    @Override
    public LeasedRooms<?> leasedRooms() {
        return leased;
    }

    /** A new room in memory, or null if {@code jid} is in memory already (under the routing lock). */
    RoomEntry addRoom(RoomJid jid) {
        if (rooms.containsKey(jid)) {
            return null;
        }
        RoomEntry entry = newRoom(jid);
        rooms.put(jid, entry);
        return entry;
    }

    /** The room leaves memory, unless a newer entry took its place already (under the routing lock). */
    void forget(RoomEntry entry) {
        RoomJid jid = entry.room().jid();
        if (rooms.get(jid) == entry) {
            rooms.remove(jid);
            forgotten(entry.room());
        }
    }

    /**
     * The room left memory (under the routing lock): emptied, handed over, or lost to another
     * instance. Occupants still in it carry on with its next owner, which counts its relaxed ones.
     */
    private void forgotten(Room room) {
        RoomJid jid = room.jid();
        counters.relaxed(-(int) room.occupants().stream().filter(o -> o.reader() != null).count());
        created.gone(jid);
        LeasedRooms<RoomEntry> l = leased;
        if (l != null) {
            l.forgotten(jid);
        }
    }

    List<RoomEntry> snapshot() {
        synchronized (routing) {
            return new ArrayList<>(rooms.values());
        }
    }

    static boolean isJoin(Packet packet) {
        return packet instanceof Presence p && p.getType() == null;
    }

    /** Whether {@code join}'s sender may create a room now (under the routing lock). */
    boolean mayCreate(Packet join) {
        return created.refusal(join.getFrom()) == null;
    }

    void refuseForMissingRoom(Packet packet) {
        if (isJoin(packet)) {
            // A join that could not create the room (several instances: refused before any claim).
            String refusal;
            synchronized (routing) {
                refusal = created.refusal(packet.getFrom());
            }
            if (refusal != null) {
                reply(packet, Condition.NOT_ALLOWED, refusal);
            } else {
                reply(packet, Condition.ITEM_NOT_FOUND, "The room " + packet.getTo().toBareJID() + " does not exist");
            }
            return;
        }
        if (packet instanceof Presence) {
            return; // leaving a room that is gone: nothing to say
        }
        reply(packet, Condition.ITEM_NOT_FOUND, "The room " + packet.getTo().toBareJID() + " does not exist");
    }

    void reply(Packet request, Condition condition, String text) {
        Packet error = StanzaErrors.reply(request, condition, text);
        if (error != null) {
            send(error);
        }
    }

    void send(Packet packet) {
        send(OutgoingStanza.of(packet));
    }

    /** Where the rooms' journals hand what they send: to the server. */
    @Override
    public void send(OutgoingStanza stanza) {
        if (LOG.isTraceEnabled()) {
            LOG.trace("out: {}", stanza.xml());
        }
        Outbox out = outbox;
        if (out != null) {
            out.send(stanza);
        }
    }

    /** A room's broadcast, kept whole: the connection sends it once where the server offers multicast. */
    @Override
    public void broadcast(RenderedStanza stanza, List<String> recipients) {
        if (LOG.isTraceEnabled()) {
            LOG.trace("out to {}: {}", recipients, stanza.to((String) null).xml());
        }
        Outbox out = outbox;
        if (out != null) {
            out.broadcast(stanza, recipients);
        }
    }

    /** When a room's stanzas so far have left for the server: what its delivery positions wait for. */
    @Override
    public void whenWritten(String from, Runnable then) {
        Outbox out = outbox;
        if (out != null) {
            out.whenWritten(from, then);
        }
    }


    public ServiceConfig config() {
        return config;
    }

    Clock clock() {
        return clock;
    }

    /** Public rooms for the room directory (disco#items on the service), by address. */
    List<Room.RoomListing> publicRooms() {
        List<Room.RoomListing> listings = new ArrayList<>();
        synchronized (routing) {
            for (RoomEntry e : rooms.values()) {
                Room.RoomListing l = e.room().listing();
                if (l.publicRoom()) {
                    listings.add(l);
                }
            }
        }
        listings.sort(Comparator.comparing(l -> l.jid().toString()));
        return listings;
    }

    /**
     * The room directory, room JID to name: this instance's public rooms, and with several
     * instances every room any of them lists (from the shared store), whichever instance is asked.
     */
    Map<String, String> roomDirectory() {
        java.util.TreeMap<String, String> directory = new java.util.TreeMap<>();
        if (leased != null) {
            try {
                directory.putAll(store.listedRooms());
            } catch (StoreException e) {
                LOG.warn("the room list of the other instances cannot be read: {}", e.getMessage());
            }
        }
        for (Room.RoomListing l : publicRooms()) {
            directory.put(l.jid().toString(), l.name());
        }
        return directory;
    }

    /** What the features attached to the whole service ({@link ServiceHooks}). */
    private final class Hooks implements ServiceHooks {
        final List<Predicate<Packet>> beforeRouting = new CopyOnWriteArrayList<>();
        final List<Predicate<Packet>> toService = new CopyOnWriteArrayList<>();
        final List<Runnable> onConnected = new CopyOnWriteArrayList<>();
        final List<Runnable> onConnectionsChanged = new CopyOnWriteArrayList<>();
        final List<Runnable> onShutdown = new CopyOnWriteArrayList<>();
        final List<String> discoFeatures = new CopyOnWriteArrayList<>();
        final List<Object> published = new CopyOnWriteArrayList<>();

        @Override
        public ServiceConfig config() {
            return config;
        }

        @Override
        public void beforeRouting(Predicate<Packet> handler) {
            beforeRouting.add(handler);
        }

        @Override
        public void toService(Predicate<Packet> handler) {
            toService.add(handler);
        }

        @Override
        public void onConnected(Runnable action) {
            onConnected.add(action);
        }

        @Override
        public void onConnectionsChanged(Runnable action) {
            onConnectionsChanged.add(action);
        }

        @Override
        public void onShutdown(Runnable action) {
            onShutdown.add(action);
        }

        @Override
        public void send(Packet packet) {
            MucService.this.send(packet);
        }

        @Override
        public void schedule(long delayMillis, Runnable task) {
            scheduler.schedule(delayMillis, task);
        }

        @Override
        public void eachRoom(Predicate<RoomJid> which, Consumer<Room> task) {
            for (RoomEntry e : snapshot()) {
                if (which.test(e.room().jid())) {
                    e.mailbox().submit(() -> e.room().run(task));
                }
            }
        }

        @Override
        public void discoFeature(String var) {
            discoFeatures.add(var);
        }

        @Override
        public void publish(Object kept) {
            published.add(kept);
        }
    }

    /** Answers stanzas addressed to the service itself (XEP-0030, XEP-0199, XEP-0092). */
    static final class ServiceRequests {
        private ServiceRequests() {
        }

        static void handle(MucService service, Packet packet) {
            for (Predicate<Packet> handler : service.hooks.toService) {
                if (handler.test(packet)) {
                    return;   // a feature's (XEP-0437 subscriptions)
                }
            }
            if (!(packet instanceof IQ iq)) {
                if (packet instanceof Message m && m.getType() != Message.Type.error && m.getBody() != null) {
                    service.reply(packet, Condition.SERVICE_UNAVAILABLE,
                            "This is a multi-user chat service; send messages to a room");
                }
                return;
            }
            if (iq.getType() != IQ.Type.get && iq.getType() != IQ.Type.set) {
                return;
            }
            Element query = iq.getChildElement();
            String ns = query == null ? null : query.getNamespaceURI();
            boolean get = iq.getType() == IQ.Type.get;
            if (Namespaces.DISCO_INFO.equals(ns) && get && query.attributeValue("node") == null) {
                IQ result = IQ.createResultIQ(iq);
                Element q = result.setChildElement("query", Namespaces.DISCO_INFO);
                Element identity = q.addElement("identity");
                identity.addAttribute("category", "conference");
                identity.addAttribute("type", "text");
                identity.addAttribute("name", NAME);
                for (String feature : List.of(Namespaces.MUC, Namespaces.DISCO_INFO, Namespaces.DISCO_ITEMS,
                        Namespaces.PING, Namespaces.VERSION, XmlNamespaces.STANZA_ID, XmlNamespaces.RECONMUC,
                        XmlNamespaces.FEATURE_COMPACT, XmlNamespaces.FEATURE_COMPACT_LIVE, XmlNamespaces.FEATURE_COMPACT_DEFLATE,
                        XmlNamespaces.FEATURE_COMPACT_DEFLATE_LIVE)) {
                    q.addElement("feature").addAttribute("var", feature);
                }
                for (String feature : service.hooks.discoFeatures) {
                    q.addElement("feature").addAttribute("var", feature);
                }
                service.send(result);
            } else if (Namespaces.DISCO_ITEMS.equals(ns) && get && query.attributeValue("node") == null) {
                IQ result = IQ.createResultIQ(iq);
                Element q = result.setChildElement("query", Namespaces.DISCO_ITEMS);
                for (Map.Entry<String, String> l : service.roomDirectory().entrySet()) {
                    Element item = q.addElement("item");
                    item.addAttribute("jid", l.getKey());
                    item.addAttribute("name", l.getValue());
                }
                service.send(result);
            } else if (Namespaces.PING.equals(ns) && get) {
                service.send(IQ.createResultIQ(iq));
            } else if (Namespaces.VERSION.equals(ns) && get) {
                IQ result = IQ.createResultIQ(iq);
                Element q = result.setChildElement("query", Namespaces.VERSION);
                q.addElement("name").setText(NAME);
                q.addElement("version").setText(VERSION);
                service.send(result);
            } else if (query != null && query.attributeValue("node") != null
                    && (Namespaces.DISCO_INFO.equals(ns) || Namespaces.DISCO_ITEMS.equals(ns))) {
                service.reply(iq, Condition.ITEM_NOT_FOUND, "The service has no disco node '"
                        + query.attributeValue("node") + "'");
            } else {
                service.reply(iq, Condition.SERVICE_UNAVAILABLE, query == null
                        ? "An IQ needs one child element" : "The service does not support " + ns);
            }
        }
    }
}
