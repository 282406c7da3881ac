package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.Delivery;
import org.reconmuc.component.consistency.Reader;
import org.reconmuc.component.consistency.Urgency;
import org.reconmuc.component.protocol.MessageMarks;
import org.reconmuc.component.transport.RenderedStanza;
import org.xmpp.packet.Message;

/**
 * The fan-out of a room's groupchat messages (reconmuc.md §5.6, §5.7): every standard occupant
 * gets each logged message at once; relaxed occupants get what {@link Urgency} and their filters
 * say now, and the rest when the engine flushes it, in their aggregation's {@link FlushForm}.
 */
final class RoomFanout {
    private final Room room;
    private final RoomConsistency state;
    private final Map<Aggregation, FlushForm> forms;
    private long wakeupAt = Long.MAX_VALUE;

    RoomFanout(Room room, RoomConsistency state) {
        this.room = room;
        this.state = state;
        this.forms = FlushForm.forRoom(state.streams());
    }

    /**
     * A logged message ({@link History#log}): {@code broadcast} is the stanza every occupant gets
     * (its {@code to} is set per session), {@code original} the sender's, for its marks.
     */
    void post(History.Entry logged, Message broadcast, Message original) {
        RenderedStanza rendered = RenderedStanza.of(broadcast);
        for (Occupant o : state.standardOccupants()) {
            room.output().toOccupant(o, rendered);
        }
        String roomJid = room.jid().toString();
        long parentSeq = room.history().seqOf(MessageMarks.replyTo(original.getElement()));
        History.Entry parent = parentSeq > 0 ? room.history().get(parentSeq) : null;
        // An unknown parent: the reply's 'to' still names whom it answers (reconmuc.md §5.5).
        String namedInReply = parent == null ? MessageMarks.replyToNick(original.getElement(), roomJid) : null;
        List<Reader<Occupant>> addressed = new ArrayList<>();
        for (String nick : MessageMarks.addressed(original.getElement(), roomJid)) {
            addressed.add(readerOf(room.occupantByNickIgnoringCase(nick)));
        }
        Occupant sender = logged.author();
        Urgency<Occupant> urgency = Urgency.of(sender.nick(), MessageMarks.topics(original.getElement()), sender.reader(),
                parent != null, parent == null || !isPresent(parent.author()) ? null : readerOf(parent.author()),
                namedInReply == null ? null : readerOf(room.occupantByNick(namedInReply)), addressed);
        List<Delivery<Occupant>> deliveries = new ArrayList<>();
        state.engine().onMessage(logged.seq(), logged.at().toEpochMilli(), parentSeq, urgency.keys(), urgency.direct(),
                deliveries);
        deliverLive(deliveries, logged.seq(), rendered);
    }

    private static Reader<Occupant> readerOf(Occupant o) {
        return o == null ? null : o.reader();
    }

    private boolean isPresent(Occupant o) {
        return o != null && room.occupantByNick(o.nick()) == o;
    }

    /** A body-less groupchat message (chat state, marker) is never retained (reconmuc.md §5.6 rule 10). */
    void postUnretained(Message broadcast) {
        room.output().toOccupants(room.occupants(), broadcast);
    }

    /** Time bounds: flush whoever is due, then sleep until the next deadline. */
    void onTimer() {
        wakeupAt = Long.MAX_VALUE;
        List<Delivery<Occupant>> deliveries = new ArrayList<>();
        state.engine().onTime(room.now().toEpochMilli(), deliveries);
        deliverFlushes(deliveries);
    }

    /**
     * What the engine decided for a live message: an occupant that gets it at once first gets its
     * retained ancestors as one release, then the message itself as broadcast; flushes the
     * message triggered go out in the occupant's form.
     */
    private void deliverLive(List<Delivery<Occupant>> deliveries, long seq, RenderedStanza broadcast) {
        for (Delivery<Occupant> d : deliveries) {
            Occupant o = d.owner();
            long[] seqs = d.seqs();
            if (d.kind() == Delivery.Kind.NOW && seqs[seqs.length - 1] == seq) {
                if (seqs.length > 1) {
                    flush(o, Arrays.copyOf(seqs, seqs.length - 1));
                }
                room.output().toOccupant(o, broadcast);
            } else {
                flush(o, seqs);
            }
        }
        armTimer();
    }

    /** Flushes and releases outside a live message (timers, requirement changes): one per occupant, in room order. */
    void deliverFlushes(List<Delivery<Occupant>> deliveries) {
        Map<Occupant, TreeSet<Long>> due = new LinkedHashMap<>();
        for (Delivery<Occupant> d : deliveries) {
            TreeSet<Long> seqs = due.computeIfAbsent(d.owner(), o -> new TreeSet<>());
            for (long seq : d.seqs()) {
                seqs.add(seq);
            }
        }
        due.forEach((o, seqs) -> flush(o, seqs.stream().mapToLong(Long::longValue).toArray()));
        armTimer();
    }

    private void armTimer() {
        long next = state.engine().nextDeadline();
        if (next < wakeupAt) {
            wakeupAt = next;
            room.context().schedule(Math.max(0, next - room.now().toEpochMilli()), room::onTimer);
        }
    }

    /** These retained messages, still in the log, in the occupant's form. */
    private void flush(Occupant o, long[] seqs) {
        List<History.Entry> entries = new ArrayList<>(seqs.length);
        for (long seq : seqs) {
            History.Entry e = room.history().get(seq);
            if (e != null) {
                entries.add(e);
            }
        }
        if (!entries.isEmpty()) {
            forms.get(state.aggregationOf(o)).send(room, o, entries);
        }
    }
}
