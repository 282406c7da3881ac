package org.reconmuc.component.relaxed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.Delivery;
import org.reconmuc.component.consistency.FilterKey;
import org.reconmuc.component.consistency.Reader;
import org.reconmuc.component.consistency.Urgency;
import org.reconmuc.component.protocol.MessageMarks;
import org.reconmuc.component.transport.RenderedStanza;
import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;

/**
 * The fan-out of a room's groupchat messages (reconmuc.md §5.6, §5.7): every standard occupant
 * gets each logged message at once; relaxed occupants get what {@link Urgency} and their filters
 * say now, and the rest when the engine flushes it, in their aggregation's {@link FlushForm}.
 *
 * @param <O> the room's occupant type
 */
public final class Fanout<O extends Recipient<O>> {
    private final FanoutHost<O> room;
    private final RelaxedState<O> state;
    private final Map<Aggregation, FlushForm<O>> forms;
    private long wakeupAt = Long.MAX_VALUE;

    public Fanout(FanoutHost<O> room, RelaxedState<O> state) {
        this.room = room;
        this.state = state;
        this.forms = FlushForm.forRoom(state::streams);
    }

    /**
     * A logged message ({@link MessageLog#log}): {@code broadcast} is the stanza every occupant
     * gets (rendered once, addressed per session), {@code original} the sender's, for its marks.
     */
    public void post(MessageLog.Entry<O> logged, Message broadcast, Message original) {
        RenderedStanza rendered = RenderedStanza.of(broadcast);
        List<O> withId = new ArrayList<>();
        List<O> withoutId = new ArrayList<>();
        for (O o : state.standardOccupants()) {
            if (!logged.withheldFrom(o)) {
                (room.sendsStanzaIdTo(o) ? withId : withoutId).add(o);
            }
        }
        room.send(withId, rendered);
        if (!withoutId.isEmpty()) {
            room.send(withoutId, RenderedStanza.of(withoutStanzaId(broadcast)));
        }
        long parentSeq = parentOf(original, room.log(), room.roomJid());
        // Nobody relaxed: no filter to match, nobody to serve at once.
        Urgency<O> urgency = state.engine().hasReaders() ? urgency(logged, original, parentSeq) : null;
        List<Delivery<O>> deliveries = new ArrayList<>();
        state.engine().onMessage(logged.seq(), logged.at().toEpochMilli(), parentSeq,
                urgency == null ? Set.of() : urgency.keys(), urgency == null ? List.of() : urgency.direct(), deliveries);
        deliverLive(deliveries, logged, rendered);
    }

    /** Who among the relaxed readers needs {@code logged} now whatever their filters, and its filter keys. */
    private Urgency<O> urgency(MessageLog.Entry<O> logged, Message original, long parentSeq) {
        String roomJid = room.roomJid();
        MessageLog.Entry<O> parent = parentSeq > 0 ? room.log().get(parentSeq) : null;
        // An unknown parent: the reply's 'to' still names whom it answers (reconmuc.md §5.5).
        String namedInReply = parent == null ? MessageMarks.replyToNick(original.getElement(), roomJid) : null;
        List<Reader<O>> addressed = new ArrayList<>();
        for (String nick : MessageMarks.addressed(original.getElement(), roomJid)) {
            addressed.add(readerOf(room.occupantAddressedAs(nick)));
        }
        O sender = logged.author();
        O parentAuthor = parent == null ? null : parent.author();
        return Urgency.of(sender.nick(), MessageMarks.topics(original.getElement()), sender.reader(),
                parent != null, parentAuthor == null || !room.isPresent(parentAuthor) ? null : readerOf(parentAuthor),
                namedInReply == null ? null : readerOf(room.occupantByNick(namedInReply)), addressed);
    }

    /**
     * The room's log was restored from its archive under a new owner (several instances): the
     * engine learns when each message came, its parent and its keys, for the relaxed occupants
     * carried over ({@link RelaxedState#carryOver}).
     */
    public void restoredLog() {
        MessageLog<O> log = room.log();
        String roomJid = room.roomJid();
        for (long seq = Math.max(1, log.head() - log.capacity() + 1); seq <= log.head(); seq++) {
            MessageLog.Entry<O> e = log.get(seq);
            if (e == null) {
                continue;
            }
            Message m = e.broadcast();
            Set<FilterKey> keys = new HashSet<>(MessageMarks.topics(m.getElement()));
            if (m.getFrom() != null && m.getFrom().getResource() != null) {
                keys.add(FilterKey.nick(m.getFrom().getResource()));
            }
            state.engine().restoredMessage(seq, e.at().toEpochMilli(), parentOf(m, log, roomJid), keys);
        }
    }

    /**
     * Under a new owner (several instances), the messages after {@code seq} that every standard
     * occupant was perhaps not sent by the last owner go to them again, as discussion history
     * replays them: the same stanza-id (a client that keeps stanza-ids drops a copy it has) and a
     * delay saying when the room received them.
     */
    public void resendAfter(long seq) {
        MessageLog<O> log = room.log();
        List<O> standard = new ArrayList<>(state.standardOccupants());
        if (standard.isEmpty()) {
            return;
        }
        for (long s = Math.max(seq + 1, log.head() - log.capacity() + 1); s <= log.head(); s++) {
            MessageLog.Entry<O> e = log.get(s);
            if (e != null && !e.retracted()) {
                room.send(standard, RenderedStanza.of(e.delayed(room.roomJid())));
            }
        }
    }

    /**
     * The relaxed occupants that still hold message {@code seq} (retained, not yet sent to them):
     * those a retraction, moderation or correction of it must not reach (reconmuc.md §5.14).
     */
    public List<O> holders(long seq) {
        List<O> holders = new ArrayList<>();
        for (O o : room.occupants()) {
            Reader<O> reader = o.reader();
            if (reader != null && state.engine().holds(reader, seq)) {
                holders.add(o);
            }
        }
        return holders;
    }

    /**
     * A message held back for moderation ({@code asHeld}, or what the log made of it since: its
     * final form, or its tombstone) is released: it may reach {@code heldFrom} again, and goes to
     * {@code recipients} — as it is now, or not at all if it was retracted. A standard occupant gets
     * it as broadcast; a relaxed one that still retains it gets it with its next flush, by its bounds
     * (it has counted towards them since the room received it); one whose flushes went past it
     * meanwhile gets it now on its own, in its form.
     */
    public void release(MessageLog.Entry<O> asHeld, Collection<O> heldFrom, Collection<O> recipients) {
        MessageLog.Entry<O> entry = room.log().get(asHeld.seq());
        if (entry == null) {
            entry = asHeld;
        }
        entry.releaseTo(heldFrom);
        if (entry.retracted()) {
            return;
        }
        List<O> withId = new ArrayList<>();
        List<O> withoutId = new ArrayList<>();
        for (O o : recipients) {
            Reader<O> reader = o.reader();
            if (!room.isPresent(o) || entry.withheldFrom(o)) {
                continue;
            }
            if (reader == null) {
                (room.sendsStanzaIdTo(o) ? withId : withoutId).add(o);
            } else if (!state.engine().holds(reader, entry.seq())) {
                forms.get(state.aggregationOf(o)).send(room, o, List.of(entry));
            }
        }
        if (!withId.isEmpty()) {
            room.send(withId, RenderedStanza.of(entry.held()));
        }
        if (!withoutId.isEmpty()) {
            room.send(withoutId, RenderedStanza.of(withoutStanzaId(entry.held())));
        }
        state.turnEnded();
    }

    /**
     * The parent an XEP-0461 reply names: by the room's stanza-id, or, from a client that had none
     * (the room leaves it off its live copies), by the parent's own id and author; 0 if unknown.
     * An XEP-0444 reaction's parent is the message it reacts to, by its stanza-id.
     */
    private static long parentOf(Message original, MessageLog<?> log, String roomJid) {
        String id = MessageMarks.replyTo(original.getElement());
        if (id == null) {
            return log.seqOf(MessageMarks.reactsTo(original.getElement()));
        }
        long seq = log.seqOf(id);
        String nick = seq == 0 && id != null ? MessageMarks.replyToNick(original.getElement(), roomJid) : null;
        if (nick == null) {
            return seq;
        }
        try {
            return log.seqOfSent(new JID(roomJid + "/" + nick), id);
        } catch (IllegalArgumentException notAJid) {
            return 0;
        }
    }

    private static Message withoutStanzaId(Message broadcast) {
        Message copy = broadcast.createCopy();
        for (Element child : copy.getElement().elements("stanza-id")) {
            if (XmlNamespaces.STANZA_ID.equals(child.getNamespaceURI())) {
                copy.getElement().remove(child);
            }
        }
        return copy;
    }

    private Reader<O> readerOf(O o) {
        return o == null ? null : o.reader();
    }

    /**
     * A body-less groupchat message (chat state, marker, a retraction without fallback, the room's
     * moderation notice) is never retained (reconmuc.md §5.6 rule 10): everyone gets it at once,
     * but {@code withheldFrom} (the holders of a message it takes back) never does.
     */
    public void postUnretained(Message broadcast, Collection<O> withheldFrom) {
        List<O> recipients = new ArrayList<>();
        for (O o : room.occupants()) {
            if (!withheldFrom.contains(o)) {
                recipients.add(o);
            }
        }
        room.send(recipients, RenderedStanza.of(broadcast));
    }

    /** Time bounds: flush whoever is due, then sleep until the next deadline. */
    public void onTimer() {
        wakeupAt = Long.MAX_VALUE;
        List<Delivery<O>> deliveries = new ArrayList<>();
        state.engine().onTime(room.now().toEpochMilli(), deliveries);
        deliverFlushes(deliveries);
    }

    /**
     * What the engine decided for a live message: an occupant that gets it at once first gets its
     * retained ancestors as one release, then the message itself as broadcast — or, when its live
     * messages travel as live items, one batch (compact, or in its stream) of everything retained
     * and the message as its live last item (reconmuc.md §5.9 rule 8.6); flushes the message triggered go out in the
     * occupant's form.
     */
    private void deliverLive(List<Delivery<O>> deliveries, MessageLog.Entry<O> logged, RenderedStanza broadcast) {
        // Those who get the message as broadcast get it together, after the loop: one broadcast,
        // and still after anything released to them before it. Flushes it triggered go together too.
        List<O> atOnce = new ArrayList<>();
        Map<O, long[]> flushes = new LinkedHashMap<>();
        for (Delivery<O> d : deliveries) {
            O o = d.owner();
            long[] seqs = d.seqs();
            if (d.kind() == Delivery.Kind.NOW && seqs[seqs.length - 1] == logged.seq()) {
                Aggregation aggregation = state.aggregationOf(o);
                if (aggregation.carriesLive() && !logged.withheldFrom(o)) {
                    forms.get(aggregation).sendLive(room, o, entries(o, seqs));
                    continue;
                }
                if (seqs.length > 1) {
                    flush(o, Arrays.copyOf(seqs, seqs.length - 1));
                }
                if (!logged.withheldFrom(o)) {
                    atOnce.add(o);
                }
            } else {
                flushes.merge(o, seqs, Fanout::union);
            }
        }
        flushTogether(flushes);
        if (!atOnce.isEmpty()) {
            room.send(atOnce, broadcast);
        }
        state.turnEnded();
        armTimer();
    }

    /**
     * Flushes and releases outside a live message (timers, requirement changes): one per occupant,
     * in room order; then the final flushes of occupants that returned to standard are done.
     */
    public void deliverFlushes(List<Delivery<O>> deliveries) {
        Map<O, long[]> due = new LinkedHashMap<>();
        for (Delivery<O> d : deliveries) {
            due.merge(d.owner(), d.seqs(), Fanout::union);
        }
        flushTogether(due);
        state.turnEnded();
        state.leftRelaxedMode();
        armTimer();
    }

    private void armTimer() {
        long next = state.engine().nextDeadline();
        if (next < wakeupAt) {
            wakeupAt = next;
            room.wakeUpAfter(Math.max(0, next - room.now().toEpochMilli()));
        }
    }

    /** The sequence numbers of both, once each, in order. */
    private static long[] union(long[] a, long[] b) {
        TreeSet<Long> seqs = new TreeSet<>();
        for (long seq : a) {
            seqs.add(seq);
        }
        for (long seq : b) {
            seqs.add(seq);
        }
        return seqs.stream().mapToLong(Long::longValue).toArray();
    }

    /** Occupants due the same entries in the same form (one instance per aggregation). */
    private record SharedFlush<O extends Recipient<O>>(ShareableFlush<O> form, List<Long> seqs) {
    }

    /**
     * Each occupant's flush in its form, one per occupant in room order; occupants whose form is
     * {@link ShareableFlush shareable} and who are due the same entries share one rendering,
     * sent as one broadcast (occupants with the same requirements flush together: the server's
     * multicast then carries the batch once instead of once per occupant).
     */
    private void flushTogether(Map<O, long[]> due) {
        Map<SharedFlush<O>, List<O>> groups = new LinkedHashMap<>();
        Map<SharedFlush<O>, List<MessageLog.Entry<O>>> entriesOf = new HashMap<>();
        due.forEach((o, seqs) -> {
            List<MessageLog.Entry<O>> entries = entries(o, seqs);
            if (entries.isEmpty()) {
                return;
            }
            FlushForm<O> form = forms.get(state.aggregationOf(o));
            if (!(form instanceof ShareableFlush<O> shareable)) {
                form.send(room, o, entries);
                return;
            }
            List<Long> key = new ArrayList<>(entries.size());
            for (MessageLog.Entry<O> e : entries) {
                key.add(e.seq());
            }
            SharedFlush<O> shared = new SharedFlush<>(shareable, key);
            entriesOf.putIfAbsent(shared, entries);
            groups.computeIfAbsent(shared, k -> new ArrayList<>()).add(o);
        });
        groups.forEach((shared, occupants) -> shared.form().sendToAll(room, occupants, entriesOf.get(shared)));
    }

    /**
     * These retained messages, still in the log, in the occupant's form (a corrected one as it
     * ended up); retracted ones and those withheld from the occupant are left out.
     */
    private void flush(O o, long[] seqs) {
        List<MessageLog.Entry<O>> entries = entries(o, seqs);
        if (!entries.isEmpty()) {
            forms.get(state.aggregationOf(o)).send(room, o, entries);
        }
    }

    private List<MessageLog.Entry<O>> entries(O o, long[] seqs) {
        List<MessageLog.Entry<O>> entries = new ArrayList<>(seqs.length);
        for (long seq : seqs) {
            MessageLog.Entry<O> e = room.log().get(seq);
            if (e != null && !e.retracted() && !e.withheldFrom(o)) {
                entries.add(e);
            }
        }
        return entries;
    }
}
