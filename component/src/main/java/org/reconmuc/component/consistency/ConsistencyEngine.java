package org.reconmuc.component.consistency;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The relaxed-consistency engine of one room (seed paper §3, DESIGN.md "Retained messages are
 * pointers"). Pure: no sockets, no threads, no clock of its own — time is passed in.
 *
 * <p>The cost of a message is proportional to the occupants that receive something now, not
 * to the room size: volume and history-span flushes wait in buckets keyed by the sequence
 * number that fires them; filters are matched through an index from filter key to readers;
 * idle readers are grouped by their time bound, so the first retained message arms one timer
 * per distinct time bound rather than one per reader. Entries made stale by later changes are
 * skipped when they come due instead of being searched for and removed.
 *
 * @param <R> the room's handle for an occupant
 */
public final class ConsistencyEngine<R> {
    private static final long NO_PARENT = -1;

    private final int capacity;
    /** Per history slot ({@code seq % capacity}): when it was posted, its parent, its filter keys. */
    private final long[] postedAt;
    private final long[] parentOf;
    private final Object[] keysOf;
    private long head;

    private final Map<Long, List<Reader<R>>> triggerBuckets = new HashMap<>();
    private final Map<FilterKey, Set<Reader<R>>> filterIndex = new HashMap<>();
    /** Readers with nothing retained, by time bound. */
    private final Map<Long, List<Reader<R>>> idleByTime = new HashMap<>();
    private final PriorityQueue<TimerEntry<R>> timers = new PriorityQueue<>();

    /**
     * Readers due at {@code deadline} if their oldest retained message is still {@code seq}
     * and their time bound is still {@code timeMillis}.
     */
    private record TimerEntry<R>(long deadline, long seq, long timeMillis, List<Reader<R>> readers)
            implements Comparable<TimerEntry<R>> {
        @Override
        public int compareTo(TimerEntry<R> o) {
            return Long.compare(deadline, o.deadline);
        }
    }

    /** @param capacity how many messages the room's history keeps; a retained pointer never outlives it */
    public ConsistencyEngine(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1");
        }
        this.capacity = capacity;
        this.postedAt = new long[capacity];
        this.parentOf = new long[capacity];
        this.keysOf = new Object[capacity];
    }

    public int capacity() {
        return capacity;
    }

    /** Sequence number of the newest message (0 before the first). */
    public long head() {
        return head;
    }

    /** A new relaxed reader with nothing retained: everything up to now counts as delivered. */
    public Reader<R> relax(R owner, Requirements requirements) {
        checkVolume(requirements);
        Reader<R> reader = new Reader<>(owner, requirements, head + 1);
        index(reader);
        becomeIdle(reader);
        rebucket(reader);
        return reader;
    }

    /**
     * New requirements for a reader, in force at once: retained messages that now match go
     * out, and a lower volume or time may flush.
     */
    public void update(Reader<R> reader, Requirements requirements, long now, List<Delivery<R>> out) {
        checkVolume(requirements);
        Requirements before = reader.requirements;
        unindex(reader);
        reader.requirements = requirements;
        index(reader);
        if (reader.retained(head) == 0) {
            if (before.timeMillis() != requirements.timeMillis()) {
                becomeIdle(reader);
            }
            rebucket(reader);
            return;
        }
        List<Long> nowMatching = new ArrayList<>();
        for (long seq = reader.cursor; seq <= head; seq++) {
            if (!reader.isEarly(seq) && requirements.matchesAny(keysAt(seq))) {
                nowMatching.add(seq);
            }
        }
        long oldCursor = reader.cursor;
        for (long seq : nowMatching) {
            if (!reader.isEarly(seq) && seq >= reader.cursor) {
                deliverNow(reader, seq, out);
            }
        }
        if (reader.retained(head) == 0) {
            becomeIdle(reader);
        } else if (reader.retained(head) >= requirements.volume() || postedAt(reader.cursor) + requirements.timeMillis() <= now) {
            flush(reader, out);
        } else if (reader.cursor != oldCursor || before.timeMillis() != requirements.timeMillis()) {
            arm(reader);
        }
        if (reader.active) {
            rebucket(reader);
        }
    }

    /** Back to standard delivery: everything retained goes out now, and the reader is forgotten. */
    public void standard(Reader<R> reader, List<Delivery<R>> out) {
        if (reader.retained(head) > 0) {
            flush(reader, out);
        }
        remove(reader);
    }

    /** The occupant left: its state is dropped (stale bucket and timer entries are skipped later). */
    public void remove(Reader<R> reader) {
        reader.active = false;
        unindex(reader);
    }

    /**
     * A message was appended to the room's history as {@code seq} (always {@code head() + 1}).
     * {@code direct} are the relaxed readers that need it whatever their filters: its sender,
     * its parent's author, the occupants it addresses.
     */
    public void onMessage(long seq, long at, long parentSeq, Set<FilterKey> keys, Collection<Reader<R>> direct,
            List<Delivery<R>> out) {
        if (seq != head + 1) {
            throw new IllegalArgumentException("messages must arrive in order: expected " + (head + 1) + ", got " + seq);
        }
        head = seq;
        int slot = slot(seq);
        postedAt[slot] = at;
        parentOf[slot] = parentSeq > 0 && parentSeq < seq && parentSeq > seq - capacity ? parentSeq : NO_PARENT;
        keysOf[slot] = keys.isEmpty() ? Collections.emptySet() : Set.copyOf(keys);

        Set<Reader<R>> now = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Reader<R> r : direct) {
            if (r.active) {
                now.add(r);
            }
        }
        for (FilterKey key : keys) {
            Set<Reader<R>> matching = filterIndex.get(key);
            if (matching != null) {
                now.addAll(matching);
            }
        }
        // Every idle reader not served now retains this message first: one timer per time bound.
        for (Map.Entry<Long, List<Reader<R>>> idle : idleByTime.entrySet()) {
            if (!idle.getValue().isEmpty()) {
                timers.add(new TimerEntry<>(at + idle.getKey(), seq, idle.getKey(), idle.getValue()));
                idle.setValue(new ArrayList<>());
            }
        }
        for (Reader<R> r : now) {
            boolean wasIdle = r.retained(seq - 1) == 0;
            long oldCursor = r.cursor;
            deliverNow(r, seq, out);
            if (r.retained(head) == 0) {
                becomeIdle(r);
            } else if (r.cursor != oldCursor && !wasIdle) {
                arm(r); // its oldest retained message changed
            }
            rebucket(r);
        }
        List<Reader<R>> due = triggerBuckets.remove(seq);
        if (due != null) {
            for (Reader<R> r : due) {
                if (r.active && r.trigger == seq && r.retained(head) > 0) {
                    flush(r, out);
                }
            }
        }
    }

    /** Flushes every reader whose oldest retained message has waited its time bound by {@code now}. */
    public void onTime(long now, List<Delivery<R>> out) {
        while (!timers.isEmpty() && timers.peek().deadline() <= now) {
            TimerEntry<R> entry = timers.poll();
            for (Reader<R> r : entry.readers()) {
                if (r.active && r.cursor == entry.seq() && r.requirements.timeMillis() == entry.timeMillis()
                        && r.retained(head) > 0) {
                    flush(r, out);
                }
            }
        }
    }

    /** When {@link #onTime} next has something to do, or {@link Long#MAX_VALUE}. */
    public long nextDeadline() {
        return timers.isEmpty() ? Long.MAX_VALUE : timers.peek().deadline();
    }

    /** The filter keys of a message still in the window. */
    @SuppressWarnings("unchecked")
    public Set<FilterKey> keysAt(long seq) {
        return (Set<FilterKey>) keysOf[slot(seq)];
    }

    public long postedAt(long seq) {
        return postedAt[slot(seq)];
    }

    /** The sequence numbers retained for a reader, in room order. */
    public long[] retainedSeqs(Reader<R> reader) {
        long n = reader.retained(head);
        long[] seqs = new long[(int) Math.max(0, n)];
        int i = 0;
        for (long seq = reader.cursor; seq <= head && i < seqs.length; seq++) {
            if (!reader.isEarly(seq)) {
                seqs[i++] = seq;
            }
        }
        return seqs;
    }

    // ---- internals ------------------------------------------------------------------------------

    private int slot(long seq) {
        return (int) (seq % capacity);
    }

    private void checkVolume(Requirements requirements) {
        if (requirements.volume() > capacity) {
            throw new IllegalArgumentException("volume " + requirements.volume() + " exceeds the history size " + capacity);
        }
    }

    /** Sends {@code seq} to the reader now, preceded by its ancestors the reader has not seen yet. */
    private void deliverNow(Reader<R> r, long seq, List<Delivery<R>> out) {
        List<Long> chain = new ArrayList<>();
        long p = parentOf[slot(seq)];
        // An ancestor that was delivered had its own ancestors delivered first: stop at it.
        while (p != NO_PARENT && p >= r.cursor && p > head - capacity && !r.isEarly(p)) {
            chain.add(p);
            p = parentOf[slot(p)];
        }
        long[] seqs = new long[chain.size() + 1];
        for (int i = 0; i < chain.size(); i++) {
            seqs[i] = chain.get(chain.size() - 1 - i);
        }
        seqs[seqs.length - 1] = seq;
        for (long s : seqs) {
            r.markEarly(s);
        }
        out.add(new Delivery<>(r.owner, Delivery.Kind.NOW, seqs));
    }

    private void flush(Reader<R> r, List<Delivery<R>> out) {
        long[] seqs = retainedSeqs(r);
        r.cursor = head + 1;
        r.early = null;
        if (seqs.length > 0) {
            out.add(new Delivery<>(r.owner, Delivery.Kind.FLUSH, seqs));
        }
        becomeIdle(r);
        rebucket(r);
    }

    private void becomeIdle(Reader<R> r) {
        idleByTime.computeIfAbsent(r.requirements.timeMillis(), t -> new ArrayList<>()).add(r);
    }

    /** A timer for this reader alone, at its oldest retained message's deadline. */
    private void arm(Reader<R> r) {
        long deadline = postedAt(r.cursor) + r.requirements.timeMillis();
        timers.add(new TimerEntry<>(deadline, r.cursor, r.requirements.timeMillis(), List.of(r)));
    }

    /**
     * Files the reader under the head at which it must flush: when its retained count reaches its
     * volume, or when its oldest retained message is the oldest the history still holds.
     */
    private void rebucket(Reader<R> r) {
        long byVolume = r.cursor - 1 + r.requirements.volume() + r.earlyCount();
        long bySpan = r.cursor + capacity - 1;
        long trigger = Math.min(byVolume, bySpan);
        if (trigger != r.trigger) {
            r.trigger = trigger;
            triggerBuckets.computeIfAbsent(trigger, t -> new ArrayList<>()).add(r);
        }
    }

    private void index(Reader<R> r) {
        for (FilterKey key : r.requirements.filters()) {
            filterIndex.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(r);
        }
    }

    private void unindex(Reader<R> r) {
        for (FilterKey key : r.requirements.filters()) {
            Set<Reader<R>> readers = filterIndex.get(key);
            if (readers != null) {
                readers.remove(r);
                if (readers.isEmpty()) {
                    filterIndex.remove(key);
                }
            }
        }
    }
}
