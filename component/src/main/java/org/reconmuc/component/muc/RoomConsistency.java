package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.CompactItem;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.ConsistencyEngine;
import org.reconmuc.component.consistency.Delivery;
import org.reconmuc.component.consistency.FilterKey;
import org.reconmuc.component.consistency.Reader;
import org.reconmuc.component.consistency.Requirements;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.protocol.MessageMarks;
import org.reconmuc.component.protocol.ProtocolException;
import org.reconmuc.component.protocol.RequirementsRequest;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;

/**
 * Relaxed consistency in a room (xep-spec/reconmuc.md): the occupants' requirements, delivery of
 * each groupchat message through the {@link ConsistencyEngine}, and flushes as batches. Standard
 * occupants are served by the plain broadcast loop and never touch the engine.
 */
final class RoomConsistency {
    static final long DEFAULT_TIME_SECONDS = 60;
    static final int DEFAULT_VOLUME = 20;
    private static final int DEFLATE_LEVEL = 6;

    private final Room room;
    private final ConsistencyEngine<Occupant> engine;
    /** Occupants that stated no requirements: they get every message at once. */
    private final Set<Occupant> standard = new LinkedHashSet<>();
    private long wakeupAt = Long.MAX_VALUE;
    /** The sessions' deflate streams (aggregation compact-deflate). */
    private final DeflateStreams streams = new DeflateStreams();
    /** The aggregation of occupants returning to standard mode, for their final flush. */
    private final Map<Occupant, Aggregation> leavingRelaxedMode = new HashMap<>();
    /**
     * Equal requirements are one object: in a big room most occupants state the same few
     * (a third of a relaxed occupant's memory otherwise). Bounded, least recently used out.
     */
    private final Map<InternKey, Requirements> interned = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<InternKey, Requirements> eldest) {
            return size() > 4096;
        }
    };

    /** Order matters: results list filter entries in the order the occupant added them. */
    private record InternKey(List<FilterKey> filters, long timeMillis, int volume, Aggregation aggregation) {
    }

    RoomConsistency(Room room, int historyCapacity) {
        this.room = room;
        this.engine = new ConsistencyEngine<>(historyCapacity);
    }

    void joined(Occupant occupant) {
        standard.add(occupant);
    }

    /**
     * Someone entered the room (a new occupant, or another session of one): every deflate stream
     * starts anew, so no stream holds text from before the newcomer came that it could probe by
     * compression (reconmuc.md §8.1).
     */
    void entered() {
        streams.resetAll();
    }

    /** The occupant left (or was removed): its retained state is dropped. */
    void left(Occupant occupant) {
        standard.remove(occupant);
        streams.forgetAllBut(session -> room.occupantBySession(session) != null);
        if (occupant.reader() != null) {
            engine.remove(occupant.reader());
            occupant.setReader(null);
            room.context().counters().relaxed(-1);
        }
    }

    // ---- messages ---------------------------------------------------------------------------

    /** A groupchat message with a body: logged, then delivered now or retained per occupant. */
    void post(Message out, Occupant sender, Message original, String stanzaId) {
        long seq = room.history().append(out, room.now(), sender, stanzaId);
        room.persistence().appended(room.history().get(seq));
        for (Occupant o : standard) {
            room.sendToAllSessions(o, out);
        }
        List<Reader<Occupant>> direct = new ArrayList<>();
        if (sender.reader() != null) {
            direct.add(sender.reader());
        }
        String roomJid = room.jid().toString();
        long parentSeq = room.history().seqOf(MessageMarks.replyTo(original.getElement()));
        History.Entry parent = parentSeq > 0 ? room.history().get(parentSeq) : null;
        if (parent != null && isPresent(parent.author()) && parent.author().reader() != null) {
            direct.add(parent.author().reader());
        }
        if (parent == null) {
            // An unknown parent: the reply's 'to' still names whom it answers (reconmuc.md §5.5).
            String to = MessageMarks.replyToNick(original.getElement(), roomJid);
            Occupant addressed = to == null ? null : room.occupantByNick(to);
            if (addressed != null && addressed.reader() != null) {
                direct.add(addressed.reader());
            }
        }
        for (String nick : MessageMarks.addressed(original.getElement(), roomJid)) {
            Occupant addressed = room.occupantByNickIgnoringCase(nick);
            if (addressed != null && addressed.reader() != null) {
                direct.add(addressed.reader());
            }
        }
        Set<FilterKey> keys = new HashSet<>(MessageMarks.topics(original.getElement()));
        keys.add(FilterKey.nick(sender.nick()));
        List<Delivery<Occupant>> deliveries = new ArrayList<>();
        engine.onMessage(seq, room.now().toEpochMilli(), parentSeq, keys, direct, deliveries);
        deliver(deliveries, seq, out);
    }

    /** A body-less groupchat message (chat state, marker) is never retained (reconmuc.md §5.6 rule 10). */
    void postUnretained(Message out) {
        for (Occupant o : room.occupants()) {
            room.sendToAllSessions(o, out);
        }
    }

    private boolean isPresent(Occupant o) {
        return o != null && room.occupantByNick(o.nick()) == o;
    }

    /** Time bounds: flush whoever is due, then sleep until the next deadline. */
    void onTimer() {
        wakeupAt = Long.MAX_VALUE;
        List<Delivery<Occupant>> deliveries = new ArrayList<>();
        engine.onTime(room.now().toEpochMilli(), deliveries);
        deliver(deliveries, 0, null);
    }

    /**
     * Sends what the engine decided. During a live message, an occupant that gets it at once
     * first gets its retained ancestors as one release, then the message itself; otherwise
     * (timers, requirement changes) everything due for an occupant goes out as one release.
     */
    private void deliver(List<Delivery<Occupant>> deliveries, long currentSeq, Message current) {
        if (current == null) {
            Map<Occupant, TreeSet<Long>> due = new LinkedHashMap<>();
            for (Delivery<Occupant> d : deliveries) {
                TreeSet<Long> seqs = due.computeIfAbsent(d.owner(), o -> new TreeSet<>());
                for (long seq : d.seqs()) {
                    seqs.add(seq);
                }
            }
            due.forEach((o, seqs) -> flush(o, seqs.stream().mapToLong(Long::longValue).toArray()));
        } else {
            for (Delivery<Occupant> d : deliveries) {
                Occupant o = d.owner();
                long[] seqs = d.seqs();
                if (d.kind() == Delivery.Kind.NOW && seqs[seqs.length - 1] == currentSeq) {
                    if (seqs.length > 1) {
                        flush(o, Arrays.copyOf(seqs, seqs.length - 1));
                    }
                    room.sendToAllSessions(o, current);
                } else {
                    flush(o, seqs);
                }
            }
        }
        long next = engine.nextDeadline();
        if (next < wakeupAt) {
            wakeupAt = next;
            room.context().schedule(Math.max(0, next - room.now().toEpochMilli()), room::onTimer);
        }
    }

    private void sendDelayed(Occupant o, long seq) {
        History.Entry e = room.history().get(seq);
        if (e != null) {
            room.sendToAllSessions(o, room.delayed(e));
        }
    }

    /** Sends these retained messages in the occupant's aggregation: one batch, or one by one. */
    private void flush(Occupant o, long[] seqs) {
        Aggregation mode = o.reader() != null ? o.reader().requirements().aggregation()
                : leavingRelaxedMode.getOrDefault(o, Aggregation.PLAIN);
        if (mode == Aggregation.NONE) {
            for (long seq : seqs) {
                sendDelayed(o, seq);
                room.context().counters().delayedSent();
            }
            return;
        }
        String roomJid = room.jid().toString();
        List<History.Entry> entries = new ArrayList<>(seqs.length);
        for (long seq : seqs) {
            History.Entry e = room.history().get(seq);
            if (e != null) {
                entries.add(e);
            }
        }
        if (entries.isEmpty()) {
            return;
        }
        switch (mode) {
            case PLAIN, DEFLATE -> {
                List<String> items = entries.stream().map(e -> e.forwardedXml(roomJid)).toList();
                String batch = mode == Aggregation.DEFLATE ? Batch.deflate(items, DEFLATE_LEVEL) : Batch.plain(items);
                room.sendToAllSessions(o, batchMessage(batch, room.ids().messageId()));
            }
            case COMPACT -> room.sendToAllSessions(o, batchMessage(Batch.compact(compactItems(entries, roomJid)), null));
            case COMPACT_DEFLATE -> {
                List<CompactItem> items = compactItems(entries, roomJid);
                for (RealJid session : o.sessions()) {
                    Message m = batchMessage(streams.batch(session, items), null);
                    m.setTo(session.jid());
                    room.send(m);
                }
            }
            default -> throw new IllegalStateException(mode + " is not a batch");
        }
        room.context().counters().batchSent(entries.size());
    }

    private static List<CompactItem> compactItems(List<History.Entry> entries, String roomJid) {
        List<CompactItem> items = new ArrayList<>(entries.size());
        for (History.Entry e : entries) {
            items.add(e.compactItem(roomJid));
        }
        return items;
    }

    /**
     * A batch from the room. Compact batches carry no id: nothing answers or refers to a batch, and
     * an id on every batch costs bytes that no stream compresses in world B (reconmuc.md §5.9 rule 1).
     */
    private Message batchMessage(String batch, String id) {
        Message m = new PrerenderedMessage(batch);
        m.setType(Message.Type.groupchat);
        m.setFrom(room.jid().jid());
        if (id != null) {
            m.setID(id);
        }
        return m;
    }

    // ---- requirements ---------------------------------------------------------------------------

    void handleIq(IQ iq, Occupant sender) {
        if (sender == null) {
            room.reply(iq, Condition.NOT_ACCEPTABLE, "cancel", "Only occupants of this room may state consistency requirements");
            return;
        }
        RequirementsRequest request;
        try {
            request = RequirementsRequest.parse(iq.getChildElement());
        } catch (ProtocolException e) {
            room.reply(iq, Condition.BAD_REQUEST, e.getMessage());
            return;
        }
        if (iq.getType() == IQ.Type.get) {
            if (!request.isEmpty()) {
                room.reply(iq, Condition.BAD_REQUEST, "A get carries an empty <consistency-requirements/>");
                return;
            }
            answer(iq, request, sender);
            return;
        }
        List<Delivery<Occupant>> deliveries = new ArrayList<>();
        if (request.standard()) {
            if (sender.reader() != null) {
                leavingRelaxedMode.put(sender, sender.reader().requirements().aggregation());
                engine.standard(sender.reader(), deliveries);
                sender.setReader(null);
                standard.add(sender);
                room.context().counters().relaxed(-1);
            }
        } else {
            Requirements next;
            try {
                next = merge(sender.reader() == null ? null : sender.reader().requirements(), request);
            } catch (ProtocolException e) {
                room.reply(iq, e.kind() == ProtocolException.Kind.POLICY_VIOLATION ? Condition.POLICY_VIOLATION
                        : Condition.BAD_REQUEST, "modify", e.getMessage());
                return;
            }
            if (sender.reader() == null) {
                sender.setReader(engine.relax(sender, next));
                standard.remove(sender);
                room.context().counters().relaxed(1);
            } else {
                engine.update(sender.reader(), next, room.now().toEpochMilli(), deliveries);
            }
        }
        answer(iq, request, sender);
        // A successful set starts the occupant's deflate streams anew (§5.9 rule 8): a client that lost
        // its stream asks again for its aggregation.
        streams.reset(sender.sessions());
        deliver(deliveries, 0, null);
        leavingRelaxedMode.clear();
    }

    private void answer(IQ iq, RequirementsRequest request, Occupant sender) {
        IQ result = IQ.createResultIQ(iq);
        result.setChildElement(RequirementsRequest.render(request.namespace(),
                sender.reader() == null ? null : sender.reader().requirements()));
        room.send(result);
    }

    /** The requirements after a partial update, checked against the service's limits. */
    private Requirements merge(Requirements current, RequirementsRequest request) throws ProtocolException {
        int capacity = engine.capacity();
        Set<FilterKey> filters = new LinkedHashSet<>(current == null ? Set.of() : current.filters());
        for (RequirementsRequest.Entry e : request.entries()) {
            if (e.active()) {
                filters.add(e.key());
            } else {
                filters.remove(e.key());
            }
        }
        long time = request.timeSeconds() != null ? request.timeSeconds()
                : current != null ? current.timeMillis() / 1000
                : Math.min(DEFAULT_TIME_SECONDS, room.context().config().maxTimeSeconds());
        int volume = request.volume() != null ? request.volume()
                : current != null ? current.volume() : Math.min(DEFAULT_VOLUME, capacity);
        Aggregation aggregation = request.aggregation() != null ? request.aggregation()
                : current != null ? current.aggregation() : Aggregation.PLAIN;
        int maxFilters = room.context().config().maxFilterEntries();
        if (filters.size() > maxFilters) {
            throw new ProtocolException(ProtocolException.Kind.POLICY_VIOLATION,
                    "At most " + maxFilters + " filter entries may be active; this request would make " + filters.size());
        }
        int maxTime = room.context().config().maxTimeSeconds();
        if (time > maxTime) {
            throw new ProtocolException(ProtocolException.Kind.POLICY_VIOLATION,
                    "<time/> may be at most " + maxTime + " seconds");
        }
        if (volume > capacity) {
            throw new ProtocolException(ProtocolException.Kind.POLICY_VIOLATION,
                    "<volume/> may not exceed the room's history size (" + capacity + " messages)");
        }
        return interned.computeIfAbsent(new InternKey(List.copyOf(filters), time * 1000, volume, aggregation),
                k -> new Requirements(filters, k.timeMillis(), k.volume(), k.aggregation()));
    }

    /** A restored room: its log holds messages up to {@code head}; new readers start after it. */
    void restoredUpTo(long head) {
        engine.startAfter(head);
    }

    int historyCapacity() {
        return engine.capacity();
    }
}
