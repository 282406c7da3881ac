package org.reconmuc.component.consistency;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The relaxed-consistency engine of one room (seed paper §3, DESIGN.md "Retained messages are
 * pointers"). Pure: no sockets, no threads, no clock of its own — time is passed in.
 *
 * <p>The cost of a message is proportional to the occupants that receive something now, not
 * to the room size, and so is the memory: a reader is a few words wherever it stands.
 * <ul>
 * <li>Volume and history-span flushes wait in buckets keyed by the head that fires them. A
 * trigger only moves later between flushes (an early delivery pushes it by one), so a reader is
 * re-filed when its bucket comes due, not on every delivery.</li>
 * <li>Time bounds: each distinct time bound keeps a ring of lists indexed by cursor, and every
 * reader is linked in the list of its cursor — its oldest undelivered message. An idle reader
 * (cursor = head + 1) is already in the list that becomes "oldest retained" when the next
 * message arrives, so a message moves nobody: it arms one timer per time bound whose list is
 * not empty, and that timer flushes whoever is in the list when it fires. Past
 * {@link #SPREAD_ABOVE} readers on one bound, each new one is given one of {@link #SPREAD_SLOTS}
 * shares of the bound's last half to flush early by (reconmuc.md §5.7 rule 2.2): otherwise every
 * idle reader of a big room comes due at the same tick (a flush moves them all to the same cursor),
 * and the server has their batches to deliver at once.</li>
 * <li>Filters are matched through an index from filter key to readers.</li>
 * </ul>
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
    /** Readers made and not yet removed. */
    private int readers;

    /**
     * Readers waiting for the head that triggers their flush, in a ring by that head: a trigger is
     * always within the next {@code capacity} heads, so readers of different heads never share a
     * slot. Each slot is the first of a list linked through the readers themselves: filing,
     * re-filing and removal allocate nothing and leave no stale entry.
     */
    private final Reader<R>[] triggerBuckets;
    /** Scratch for a delivery's retained ancestors (the engine runs on one thread at a time). */
    private long[] ancestors = new long[8];
    /** The current message alone, shared by every at-once delivery of it that has no retained ancestor. */
    private long[] justCurrent;
    /**
     * Readers by filter key, in the order they were indexed: an array of references walked in
     * order (readers made together sit together in memory), not a hash set's scattered nodes.
     * Removal is linear, and rare (an occupant leaves or changes its filter).
     */
    private final Map<FilterKey, List<Reader<R>>> filterIndex = new HashMap<>();
    private final Map<Long, TimeClass<R>> timeClasses = new HashMap<>();
    /** Per time bound as readers stated it: how many readers have it, and the spread slot the next one gets. */
    private final Map<Long, int[]> bounds = new HashMap<>();
    /** Readers on one bound beyond which their flushes are spread. */
    static final int SPREAD_ABOVE = 64;
    /**
     * How many shares of the last half of a bound spread readers are given, round robin. Half, not
     * less: at 20,000 occupants of whom 18,000 relaxed, the server and their clients had a quarter
     * of the bound to deliver and read a batch each, and the occupants who read at once waited
     * behind them (irc-replay scale, ejabberd: at-once p99 6.3 s; 3.2 s over half in 32 shares).
     * Many small shares rather than a few big ones: each share's batches reach the server as one
     * multicast, which ejabberd copies out from one process, and whatever is sent at once waits
     * behind the share in progress (128: one every 234 ms of a 60-s bound).
     */
    static final int SPREAD_SLOTS = 128;
    private final PriorityQueue<Timer<R>> timers = new PriorityQueue<>();

    /** The readers sharing one time bound, listed by cursor in a ring one longer than the history. */
    static final class TimeClass<R> {
        final long timeMillis;
        final Reader<R>[] byCursor;
        /** The seq a timer is queued for, per ring slot (-1: none). */
        final long[] armedFor;
        int members;

        @SuppressWarnings("unchecked")
        TimeClass(long timeMillis, int ring) {
            this.timeMillis = timeMillis;
            this.byCursor = (Reader<R>[]) new Reader[ring];
            this.armedFor = new long[ring];
            java.util.Arrays.fill(armedFor, -1);
        }
    }

    /** Readers of {@code timeClass} whose oldest retained message is {@code seq} are due at {@code deadline}. */
    private record Timer<R>(long deadline, TimeClass<R> timeClass, long seq) implements Comparable<Timer<R>> {
        @Override
        public int compareTo(Timer<R> o) {
            return Long.compare(deadline, o.deadline);
        }
    }

    /** @param capacity how many messages the room's history keeps; a retained pointer never outlives it */
    public ConsistencyEngine(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1");
        }
        this.capacity = capacity;
        @SuppressWarnings("unchecked")
        Reader<R>[] ring = (Reader<R>[]) new Reader[capacity + 1];
        this.triggerBuckets = ring;
        this.postedAt = new long[capacity];
        this.parentOf = new long[capacity];
        this.keysOf = new Object[capacity];
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Whether any reader is relaxed here. While none is, nobody can hold a new message (a reader
     * made later starts after it, {@link #relax}), so its filter keys and direct readers need not be
     * worked out for {@link #onMessage}.
     */
    public boolean hasReaders() {
        return readers > 0;
    }

    /** Sequence number of the newest message (0 before the first). */
    public long head() {
        return head;
    }

    /**
     * The room's log already holds messages up to {@code seq} (a room restored from its store):
     * the next message is {@code seq + 1}. Only before any message or reader.
     */
    public void startAfter(long seq) {
        if (head != 0 || !timeClasses.isEmpty() || !filterIndex.isEmpty()) {
            throw new IllegalStateException("startAfter is for a new engine");
        }
        head = seq;
    }

    /**
     * A message of a restored room's log (after {@link #startAfter}, before any new message): when
     * the room received it, its parent and its filter keys, so that readers carried over from the
     * room's last owner ({@link #carryOver}) are bound and matched as if nothing had moved. Messages
     * older than the history are ignored.
     */
    public void restoredMessage(long seq, long at, long parentSeq, Set<FilterKey> keys) {
        if (seq > head || seq <= head - capacity || seq < 1) {
            return;
        }
        int slot = slot(seq);
        postedAt[slot] = at;
        parentOf[slot] = parentSeq > 0 && parentSeq < seq && parentSeq > seq - capacity ? parentSeq : NO_PARENT;
        keysOf[slot] = keys.isEmpty() ? Collections.emptySet() : Set.copyOf(keys);
    }

    /**
     * A reader carried over from the room's last owner: it was sent every message before
     * {@code cursor} and the {@code early} ones after it; the rest up to the head is retained, its
     * time bound running from when the room received the oldest (it may be due already: the next
     * {@link #onTime} flushes it). A retained set already due by volume or span goes to {@code out}.
     * A cursor older than the history starts at the history's oldest message (the older ones went
     * out in the flush the span bound made).
     */
    public Reader<R> carryOver(R owner, Requirements requirements, long cursor, long[] early, List<Delivery<R>> out) {
        checkVolume(requirements);
        long from = Math.min(Math.max(cursor, Math.max(1, head - capacity + 1)), head + 1);
        Reader<R> reader = new Reader<>(owner, requirements, from);
        for (long seq : early) {
            if (seq >= reader.cursor && seq <= head) {
                reader.markEarly(seq);
            }
        }
        index(reader);
        link(reader, requirements.timeMillis());
        readers++;
        if (reader.retained(head) > 0 && triggerOf(reader) <= head) {
            flush(reader, out);
        } else {
            file(reader);
        }
        return reader;
    }

    /** A new relaxed reader with nothing retained: everything up to now counts as delivered. */
    public Reader<R> relax(R owner, Requirements requirements) {
        checkVolume(requirements);
        Reader<R> reader = new Reader<>(owner, requirements, head + 1);
        index(reader);
        link(reader, requirements.timeMillis());
        readers++;
        file(reader);
        return reader;
    }

    /**
     * New requirements for a reader, in force at once: retained messages that now match go
     * out, and a lower volume or time may flush.
     */
    public void update(Reader<R> reader, Requirements requirements, long now, List<Delivery<R>> out) {
        checkVolume(requirements);
        boolean rebound = reader.requirements.timeMillis() != requirements.timeMillis();
        unindex(reader);
        if (rebound) {
            unlink(reader);   // under the bound it had
        }
        reader.requirements = requirements;
        index(reader);
        if (rebound) {
            link(reader, requirements.timeMillis());
        }
        if (reader.retained(head) > 0) {
            List<Long> nowMatching = new ArrayList<>();
            for (long seq = reader.cursor; seq <= head; seq++) {
                if (!reader.isEarly(seq) && requirements.matchesAny(keysAt(seq))) {
                    nowMatching.add(seq);
                }
            }
            for (long seq : nowMatching) {
                if (!reader.isEarly(seq) && seq >= reader.cursor) {
                    deliverNow(reader, seq, out);
                }
            }
            if (reader.retained(head) >= requirements.volume()
                    || (reader.retained(head) > 0 && postedAt(reader.cursor) + reader.timeClass.timeMillis <= now)) {
                flush(reader, out);
                return;
            }
        }
        if (triggerOf(reader) < reader.trigger) {
            file(reader); // a lower volume brings the flush closer
        }
    }

    /** Back to standard delivery: everything retained goes out now, and the reader is forgotten. */
    public void standard(Reader<R> reader, List<Delivery<R>> out) {
        if (reader.retained(head) > 0) {
            flush(reader, out);
        }
        remove(reader);
    }

    /** The occupant left: its state is dropped. */
    public void remove(Reader<R> reader) {
        if (!reader.active) {
            return;
        }
        reader.active = false;
        readers--;
        unindex(reader);
        unlink(reader);
        unfile(reader);
    }

    /**
     * A message was appended to the room's history as {@code seq} (always {@code head() + 1}).
     * {@code direct} are the relaxed readers that need it whatever their filters: its sender,
     * its parent's author, the occupants it addresses. While the engine {@link #hasReaders has no
     * readers}, {@code keys} may be left empty: a reader carried over later is matched against
     * the keys its room's restored log gives again ({@link #restoredMessage}).
     */
    public void onMessage(long seq, long at, long parentSeq, Set<FilterKey> keys, Collection<Reader<R>> direct,
            List<Delivery<R>> out) {
        if (seq != head + 1) {
            throw new IllegalArgumentException("messages must arrive in order: expected " + (head + 1) + ", got " + seq);
        }
        head = seq;
        justCurrent = new long[] {seq};
        int slot = slot(seq);
        postedAt[slot] = at;
        parentOf[slot] = parentSeq > 0 && parentSeq < seq && parentSeq > seq - capacity ? parentSeq : NO_PARENT;
        keysOf[slot] = keys.isEmpty() ? Collections.emptySet() : Set.copyOf(keys);

        // Idle readers now retain this message: one timer per time bound that has any.
        for (TimeClass<R> tc : timeClasses.values()) {
            if (tc.byCursor[ring(seq)] != null) {
                arm(tc, seq);
            }
        }
        for (Reader<R> r : direct) {
            serveNow(r, seq, out);
        }
        for (FilterKey key : keys) {
            List<Reader<R>> matching = filterIndex.get(key);
            if (matching != null) {
                for (Reader<R> r : matching) {
                    serveNow(r, seq, out);
                }
            }
        }
        // Re-filing a reader goes to a later slot, never this one (its trigger is past seq).
        int bucket = bucket(seq);
        Reader<R> due = triggerBuckets[bucket];
        triggerBuckets[bucket] = null;
        while (due != null) {
            Reader<R> following = due.triggerNext;
            due.triggerPrev = null;
            due.triggerNext = null;
            due.trigger = -1;
            if (triggerOf(due) <= seq) {
                flush(due, out);
            } else {
                file(due); // early deliveries moved its flush later
            }
            due = following;
        }
    }

    /** Flushes every reader whose oldest retained message has waited its time bound by {@code now}. */
    public void onTime(long now, List<Delivery<R>> out) {
        while (!timers.isEmpty() && timers.peek().deadline() <= now) {
            Timer<R> timer = timers.poll();
            TimeClass<R> tc = timer.timeClass();
            int ring = ring(timer.seq());
            if (tc.armedFor[ring] == timer.seq()) {
                tc.armedFor[ring] = -1;
            }
            List<Reader<R>> due = new ArrayList<>();
            for (Reader<R> r = tc.byCursor[ring]; r != null; r = r.next) {
                if (r.cursor == timer.seq() && r.retained(head) > 0) {
                    due.add(r);
                }
            }
            for (Reader<R> r : due) {
                flush(r, out);
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
        Set<FilterKey> keys = (Set<FilterKey>) keysOf[slot(seq)];
        return keys == null ? Set.of() : keys;   // a restored log's gap
    }

    public long postedAt(long seq) {
        return postedAt[slot(seq)];
    }

    /**
     * Whether message {@code seq} is retained for {@code reader}: logged, not yet delivered to it
     * (neither at once nor in a flush). False for a reader no longer relaxed.
     */
    public boolean holds(Reader<R> reader, long seq) {
        return reader.active && seq >= reader.cursor && seq <= head && !reader.isEarly(seq);
    }

    /** The sequence numbers retained for a reader, in room order. */
    public long[] retainedSeqs(Reader<R> reader) {
        long[] seqs = new long[(int) Math.max(0, reader.retained(head))];
        reader.retainedInto(head, seqs);
        return seqs;
    }

    /**
     * What the engine's structures hold besides the readers, for tests and reports: readers filed
     * in trigger buckets, timers queued and how many of them still find a reader to flush (the
     * rest are skipped when they fire), and entries in the filter index.
     */
    public record Holdings(long bucketEntries, long timers, long liveTimers, long filterIndexEntries) {
    }

    public Holdings holdings() {
        long filed = 0;
        for (Reader<R> first : triggerBuckets) {
            for (Reader<R> r = first; r != null; r = r.triggerNext) {
                filed++;
            }
        }
        long live = 0;
        for (Timer<R> t : timers) {
            for (Reader<R> r = t.timeClass().byCursor[ring(t.seq())]; r != null; r = r.next) {
                if (r.cursor == t.seq()) {
                    live++;
                    break;
                }
            }
        }
        long indexed = 0;
        for (List<Reader<R>> readers : filterIndex.values()) {
            indexed += readers.size();
        }
        return new Holdings(filed, timers.size(), live, indexed);
    }

    // ---- internals ------------------------------------------------------------------------------

    private int slot(long seq) {
        return (int) (seq % capacity);
    }

    /** Slot of a trigger head in {@link #triggerBuckets}. */
    private int bucket(long trigger) {
        return (int) (trigger % (capacity + 1));
    }

    /** Ring slot of a cursor: cursors of linked readers span capacity + 1 values (head - capacity + 1 .. head + 1). */
    private int ring(long seq) {
        return (int) (seq % (capacity + 1));
    }

    private void checkVolume(Requirements requirements) {
        if (requirements.volume() > capacity) {
            throw new IllegalArgumentException("volume " + requirements.volume() + " exceeds the history size " + capacity);
        }
    }

    /**
     * The reader gets the new message {@code seq} now unless it already has (several rules may
     * name it). A reader whose live messages travel in its stream takes everything retained along
     * (reconmuc.md §5.9 rule 8.6): the message comes last, after the rest in room order.
     */
    private void serveNow(Reader<R> r, long seq, List<Delivery<R>> out) {
        if (r.active && seq >= r.cursor && !r.isEarly(seq)) {
            if (r.requirements.aggregation().carriesLive()) {
                takeAll(r, Delivery.Kind.NOW, out);
            } else {
                deliverNow(r, seq, out);
            }
        }
    }

    /** Sends {@code seq} to the reader now, preceded by its ancestors the reader has not seen yet. */
    private void deliverNow(Reader<R> r, long seq, List<Delivery<R>> out) {
        int chain = 0;
        long p = parentOf[slot(seq)];
        // An ancestor that was delivered had its own ancestors delivered first: stop at it.
        while (p != NO_PARENT && p >= r.cursor && p > head - capacity && !r.isEarly(p)) {
            if (chain == ancestors.length) {
                ancestors = java.util.Arrays.copyOf(ancestors, 2 * chain);
            }
            ancestors[chain++] = p;
            p = parentOf[slot(p)];
        }
        long[] seqs;
        if (chain == 0 && seq == head) {
            seqs = justCurrent; // the common case: nothing retained before it, no array of its own
        } else {
            seqs = new long[chain + 1];
            for (int i = 0; i < chain; i++) {
                seqs[i] = ancestors[chain - 1 - i];
            }
            seqs[chain] = seq;
        }
        long cursor = r.cursor;
        for (long s : seqs) {
            r.markEarly(s);
        }
        if (r.cursor != cursor) {
            relink(r);
        }
        out.add(new Delivery<>(r.owner, Delivery.Kind.NOW, seqs));
    }

    private void flush(Reader<R> r, List<Delivery<R>> out) {
        takeAll(r, Delivery.Kind.FLUSH, out);
    }

    /** Everything retained for the reader goes out as one delivery of this kind; it then holds nothing. */
    private void takeAll(Reader<R> r, Delivery.Kind kind, List<Delivery<R>> out) {
        long[] seqs = retainedSeqs(r);
        r.cursor = head + 1;
        r.clearEarly();
        relink(r);
        if (seqs.length > 0) {
            out.add(new Delivery<>(r.owner, kind, seqs));
        }
        file(r);
    }

    /** The head at which the reader must flush: its retained count reaches its volume, or its oldest retained message is the history's oldest. */
    private long triggerOf(Reader<R> r) {
        long byVolume = r.cursor - 1 + r.requirements.volume() + r.earlyCount();
        long bySpan = r.cursor + capacity - 1;
        return Math.min(byVolume, bySpan);
    }

    /** Files the reader in the bucket of the head that triggers its flush (out of any other). */
    private void file(Reader<R> r) {
        unfile(r);
        long trigger = triggerOf(r);
        int bucket = bucket(trigger);
        r.trigger = trigger;
        r.triggerNext = triggerBuckets[bucket];
        if (r.triggerNext != null) {
            r.triggerNext.triggerPrev = r;
        }
        triggerBuckets[bucket] = r;
    }

    private void unfile(Reader<R> r) {
        if (r.trigger < 0) {
            return;
        }
        if (r.triggerPrev != null) {
            r.triggerPrev.triggerNext = r.triggerNext;
        } else {
            triggerBuckets[bucket(r.trigger)] = r.triggerNext;
        }
        if (r.triggerNext != null) {
            r.triggerNext.triggerPrev = r.triggerPrev;
        }
        r.triggerPrev = null;
        r.triggerNext = null;
        r.trigger = -1;
    }

    private TimeClass<R> timeClass(long timeMillis) {
        return timeClasses.computeIfAbsent(timeMillis, t -> new TimeClass<>(t, capacity + 1));
    }

    /**
     * Makes the reader a member of time bound {@code boundMillis}, listed under its cursor: of the
     * bound itself, or, past {@link #SPREAD_ABOVE} readers on it, of the bound less its spread share.
     */
    private void link(Reader<R> r, long boundMillis) {
        int[] bound = bounds.computeIfAbsent(boundMillis, b -> new int[2]);
        long effective = boundMillis;
        if (bound[0]++ >= SPREAD_ABOVE) {
            int slot = bound[1]++ % SPREAD_SLOTS;
            effective = boundMillis - slot * (boundMillis / 2) / SPREAD_SLOTS;
        }
        TimeClass<R> tc = timeClass(effective);
        tc.members++;
        attach(r, tc);
    }

    private void unlink(Reader<R> r) {
        TimeClass<R> tc = r.timeClass;
        if (tc == null) {
            return;
        }
        int[] bound = bounds.get(r.requirements.timeMillis());
        if (bound != null && --bound[0] == 0) {
            bounds.remove(r.requirements.timeMillis());
        }
        detach(r);
        r.timeClass = null;
        if (--tc.members == 0) {
            timeClasses.remove(tc.timeMillis); // timers still queued for it find empty lists
        }
    }

    /** The reader's cursor moved: list it under the new one. */
    private void relink(Reader<R> r) {
        detach(r);
        attach(r, r.timeClass);
    }

    /** Lists the reader under its cursor, arming that list's timer if the cursor is retained. */
    private void attach(Reader<R> r, TimeClass<R> tc) {
        r.timeClass = tc;
        r.linkedSlot = ring(r.cursor);
        r.prev = null;
        r.next = tc.byCursor[r.linkedSlot];
        if (r.next != null) {
            r.next.prev = r;
        }
        tc.byCursor[r.linkedSlot] = r;
        if (r.cursor <= head) {
            arm(tc, r.cursor);
        }
    }

    private void detach(Reader<R> r) {
        if (r.prev != null) {
            r.prev.next = r.next;
        } else {
            r.timeClass.byCursor[r.linkedSlot] = r.next;
        }
        if (r.next != null) {
            r.next.prev = r.prev;
        }
        r.prev = null;
        r.next = null;
    }

    private void arm(TimeClass<R> tc, long seq) {
        int ring = ring(seq);
        if (tc.armedFor[ring] != seq) {
            tc.armedFor[ring] = seq;
            timers.add(new Timer<>(postedAt(seq) + tc.timeMillis, tc, seq));
        }
    }

    private void index(Reader<R> r) {
        for (FilterKey key : r.requirements.filters()) {
            filterIndex.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
    }

    private void unindex(Reader<R> r) {
        for (FilterKey key : r.requirements.filters()) {
            List<Reader<R>> readers = filterIndex.get(key);
            if (readers != null) {
                readers.remove(r);
                if (readers.isEmpty()) {
                    filterIndex.remove(key);
                }
            }
        }
    }
}
