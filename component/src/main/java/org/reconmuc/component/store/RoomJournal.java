package org.reconmuc.component.store;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.Outbox;
import org.reconmuc.component.transport.RenderedStanza;

/**
 * One room's writes to the store, and the gate its outgoing stanzas pass (the room's {@link Outbox}): a stanza the room sends
 * after a write waits (as the text it was rendered to, which nobody changes) until that write is
 * committed, and then leaves in the order the room sent everything. So an echo — a sender's acknowledgement — never
 * leaves before its message is in the store, while the room thread never waits for the disk.
 *
 * <p>{@link #send} is called by the room's thread; {@link #committed} by the store's writer.
 * Without a store ({@link #memoryOnly}) stanzas pass straight through and writes are ignored.
 */
public final class RoomJournal implements Outbox {
    /** A stanza or broadcast waiting for the write {@code ticket}; {@code send} hands it to the outbox. */
    private record Held(Runnable send, long ticket, int chars) {
    }

    private final String room;
    /** The epoch of the room's lease its writes are made under (0: not fenced, the service runs alone). */
    private volatile long fence;
    /** Whether what the outbox is handed leaves now (see {@link #fence(long, Runnable, BooleanSupplier)}). */
    private volatile BooleanSupplier leaving = () -> true;
    /** Runs once if a commit finds the fence gone: the room belongs to another instance now. */
    private volatile Runnable lost = () -> { };
    /** The listing last written (several instances). */
    private String listedName;
    private boolean listed;
    /** Set when the fence failed: nothing more is written or sent. */
    private boolean fencedOut;
    /**
     * Set by {@link #release()}: nothing more of the room is written (guarded by this). A write
     * after the release would commit if it shared the release's batch, and be fenced out (the room
     * "lost") if not: a released room's last word is its release.
     */
    private boolean released;
    private final StoreWriter writer;
    private final HeldBudget budget;
    private final Outbox outbox;
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    /** The ticket of this room's latest write. */
    private long barrier;
    /** Set by {@link #stopSending()}: the room is served elsewhere now. */
    private volatile boolean stopped;
    /**
     * Delivery positions whose stanzas have reached the outbox but may not have left the process yet
     * (several instances, guarded by this): relaxed occupants' latest by nick, and the fan-out watermark.
     */
    private final Map<String, String> handedPositions = new LinkedHashMap<>();
    private long handedFannedOut;
    /** Delivery positions whose stanzas the connection has written, not yet taken by a commit (guarded by this). */
    private final Map<String, String> releasedPositions = new LinkedHashMap<>();
    private long releasedFannedOut;
    private long writtenFannedOut;

    RoomJournal(String room, StoreWriter writer, HeldBudget budget, Outbox outbox) {
        this.room = room;
        this.writer = writer;
        this.budget = budget;
        this.outbox = outbox;
    }

    /** A journal that keeps nothing: stanzas go straight out. */
    public static RoomJournal memoryOnly(Outbox outbox) {
        return new RoomJournal(null, null, null, outbox);
    }

    /**
     * From now on every write carries the epoch of the room's lease and commits only while the
     * lease is still ours; if not, what the room held for its writes is dropped (never sent: it
     * was not stored) and {@code onLost} runs (on the store's writer thread).
     */
    public void fence(long epoch, Runnable onLost) {
        fence(epoch, onLost, () -> true);
    }

    /**
     * As above; delivery positions count what was handed over only while {@code leaving} says
     * what the outbox is handed leaves at once (several instances: false while the lease gate
     * holds the service's stanzas, which it may yet drop if the room was taken meanwhile).
     */
    public void fence(long epoch, Runnable onLost, BooleanSupplier leaving) {
        this.fence = epoch;
        this.lost = onLost;
        this.leaving = leaving;
    }

    String room() {
        return room;
    }

    /** True while the room's writes are fenced by a lease (several instances). */
    public boolean fenced() {
        return fence != 0;
    }

    /** True if writes reach a store (the room can be persistent across restarts). */
    public boolean durable() {
        return writer != null;
    }

    /** False while the store cannot commit (new messages would wait indefinitely). */
    public boolean available() {
        return writer == null || writer.available();
    }

    /** Sends a stanza of the room, after everything the room sent before it and after its pending writes. */
    @Override
    public void send(OutgoingStanza stanza) {
        pass(() -> outbox.send(stanza), stanza.xml().length());
    }

    /** Sends one rendering to several recipients, in the room's order as {@link #send} does. */
    @Override
    public void broadcast(RenderedStanza stanza, List<String> recipients) {
        int chars = stanza.length();
        for (String r : recipients) {
            chars += r.length();
        }
        pass(() -> outbox.broadcast(stanza, recipients), chars);
    }

    private void pass(Runnable send, int chars) {
        if (stopped) {
            return;
        }
        if (writer == null) {
            send.run();
            return;
        }
        synchronized (this) {
            if (fencedOut) {
                return;
            }
            if (held.isEmpty() && barrier <= writer.committed()) {
                send.run();
                return;
            }
        }
        try {
            budget.acquire(chars);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (fencedOut || held.isEmpty() && barrier <= writer.committed()) {
                budget.release(chars);
                if (!fencedOut) {
                    send.run();
                }
                return;
            }
            held.addLast(new Held(send, barrier, chars));
        }
    }

    /** Sends at once, ahead of held stanzas: replies that carry nothing the store must keep first. */
    public void sendNow(OutgoingStanza stanza) {
        if (!stopped) {
            outbox.send(stanza);
        }
    }

    /**
     * The room is no longer served here (handed over, or given up): nothing it sends from now on
     * leaves — a timer of the room left in memory (a relaxed occupant's time bound) would send
     * what its next owner sends too. What it sent before still leaves, in order.
     */
    public void stopSending() {
        stopped = true;
    }

    public void archive(ArchivedMessage message) {
        submit(new Write.Archive(room, fence, message));
    }

    /** The archived message with this stanza-id is replaced by its tombstone (see {@link Write.Tombstone}). */
    public void tombstone(String stanzaId, java.time.Instant at, String moderatedXml, String reason) {
        submit(new Write.Tombstone(room, fence, stanzaId, at, moderatedXml, reason));
    }

    public void save(RoomRecord record) {
        submit(new Write.Save(fence, record));
    }

    /** One user's affiliation and reserved nickname (null: none), written alone (see {@link Write.Affiliation}). */
    public void affiliation(String jid, String affiliation, String reservedNick) {
        submit(new Write.Affiliation(room, fence, jid, affiliation, reservedNick));
    }

    public void delete() {
        submit(new Write.Delete(room, fence));
    }

    /** An occupant's session joined under {@code nick} (written only when fenced: for whoever serves the room next). */
    public void occupantIn(String session, String nick) {
        if (fence != 0) {
            submit(new Write.OccupantIn(room, fence, session, nick));
        }
    }

    /** The room is listed under {@code name} in the service's room list, or not listed (written only when fenced). */
    public void listing(String name, boolean listed) {
        if (fence != 0 && !(name.equals(listedName) && listed == this.listed)) {
            listedName = name;
            this.listed = listed;
            submit(new Write.Listing(room, fence, name, listed));
        }
    }

    /**
     * The room is forgotten here: its lease is given back after its last writes (when fenced);
     * nobody is in it, so its occupants' stored state goes too.
     */
    public void release() {
        if (fence != 0) {
            submit(new Write.Release(room, fence, true));
            synchronized (this) {
                released = true;
            }
        }
    }

    /**
     * The room is let go with its occupants (its connection's bucket is handed to another
     * instance): what its occupants carry on with stays for the next owner, with their delivery
     * positions as of the last stanza the room sent. So the lease is given back only once what
     * the room sent before has reached the outbox, and after the positions that says: released
     * with its last writes, a position that came after them would be fenced out, and the next
     * owner would send a relaxed occupant again what it already had.
     */
    public void handOver() {
        if (fence != 0) {
            pass(() -> {
                // The connection the room's bucket leaves writes what it queued before it closes.
                Write.Positions last = takePositions(true);
                if (last != null) {
                    submit(last);
                }
                submit(new Write.Release(room, fence, false));
            }, 0);
        }
        stopSending();
    }

    /** An occupant's state changed (null: it is gone), for whoever serves the room next (written only when fenced). */
    public void occupantState(String nick, String state) {
        occupantState(nick, state, null);
    }

    /**
     * As {@link #occupantState(String, String)}, for an occupant that has just become relaxed: its
     * {@code startPosition} (nothing sent to it as such yet) is written with it, so that the next
     * owner never takes it to have had what it was owed before its first position is written.
     */
    public void occupantState(String nick, String state, String startPosition) {
        if (fence != 0) {
            submit(new Write.OccupantState(room, fence, nick, state, startPosition));
        }
    }

    /** An occupant changed its nick: what it carries on with, its delivery position too, goes with it (when fenced). */
    public void occupantRenamed(String from, String to) {
        if (fence != 0) {
            submit(new Write.OccupantRenamed(room, fence, from, to));
        }
    }

    /** The room's XEP-0421 key, for a room the store keeps no record of (written only when fenced). */
    public void occupantIdKey(String key) {
        if (fence != 0) {
            submit(new Write.RoomKey(room, fence, key));
        }
    }

    /**
     * The configuration form of a room the store keeps no record of, with what its features added
     * (written only when fenced): its next owner serves it as it was.
     */
    public void carriedForm(String form) {
        if (fence != 0) {
            submit(new Write.CarriedForm(room, fence, form));
        }
    }

    /**
     * Every standard occupant has been sent the messages up to {@code seq} (when fenced). Passes
     * in order with the room's stanzas: once what was sent before it has been written to the
     * server's socket ({@link Outbox#whenWritten}: a {@code kill -9} loses what is still queued),
     * the next commit writes it, never per message (see {@link #takePositions}).
     */
    public void fannedOut(long seq) {
        if (fence != 0 && writer != null) {
            pass(() -> {
                if (leaving.getAsBoolean()) {
                    handedFannedOut = Math.max(handedFannedOut, seq);
                    releaseOnceWritten(Map.of(), seq);
                }
            }, 0);
        }
    }

    /** Relaxed occupants' delivery positions after what the room sent them so far, by nick (when fenced), as {@link #fannedOut}. */
    public void positions(Map<String, String> byNick) {
        if (fence != 0 && writer != null && !byNick.isEmpty()) {
            Map<String, String> positions = Map.copyOf(byNick);
            pass(() -> {
                if (leaving.getAsBoolean()) {   // else the next position says it (a held one may yet be dropped)
                    handedPositions.putAll(positions);
                    releaseOnceWritten(positions, 0);
                }
            }, 0);
        }
    }

    /**
     * Asks the outbox for a mark after what the room sent so far; the connection's writer runs it, so
     * it only posts {@link #written} to the store's release thread (the writer must not take this lock).
     */
    private void releaseOnceWritten(Map<String, String> positions, long fannedOutUpTo) {
        outbox.whenWritten(room, () -> writer.onReleaseThread(() -> written(positions, fannedOutUpTo)));
    }

    /** What {@code positions} and {@code fannedOutUpTo} (0: none) cover has been written: the next commit may say so. */
    private synchronized void written(Map<String, String> positions, long fannedOutUpTo) {
        if (stopped) {
            return;   // handed over: its last positions went with its lease
        }
        positions.forEach((nick, position) -> {
            releasedPositions.put(nick, position);
            handedPositions.remove(nick, position);
        });
        releasedFannedOut = Math.max(releasedFannedOut, fannedOutUpTo);
        writer.positionsReleased(this);
    }

    /** The positions released since the last commit that took them, as one write (null: none); called by the writer. */
    synchronized Write.Positions takePositions() {
        return takePositions(false);
    }

    /** As above; {@code alsoHanded}: with those whose stanzas the connection has yet to write. */
    private synchronized Write.Positions takePositions(boolean alsoHanded) {
        if (alsoHanded) {
            releasedPositions.putAll(handedPositions);
            handedPositions.clear();
            releasedFannedOut = Math.max(releasedFannedOut, handedFannedOut);
        }
        if (fencedOut || releasedPositions.isEmpty() && releasedFannedOut <= writtenFannedOut) {
            return null;
        }
        Write.Positions w = new Write.Positions(room, fence, Map.copyOf(releasedPositions),
                releasedFannedOut > writtenFannedOut ? releasedFannedOut : 0);
        releasedPositions.clear();
        writtenFannedOut = Math.max(writtenFannedOut, releasedFannedOut);
        return w;
    }

    /** A commit that carried {@code w} failed: its positions are written by the next one, unless newer ones came. */
    synchronized void positionsNotWritten(Write.Positions w) {
        w.positions().forEach(releasedPositions::putIfAbsent);
        if (w.fannedOutUpTo() > 0) {
            writtenFannedOut = Math.min(writtenFannedOut, w.fannedOutUpTo() - 1);
        }
    }

    /** An occupant's session left. */
    public void occupantOut(String session) {
        if (fence != 0) {
            submit(new Write.OccupantOut(room, fence, session));
        }
    }

    private void submit(Write write) {
        if (writer == null) {
            return;
        }
        synchronized (this) {
            if (fencedOut || released) {
                return;
            }
        }
        long ticket = writer.submit(write, this);
        synchronized (this) {
            barrier = Math.max(barrier, ticket);
        }
    }

    /** A commit found the room's lease gone: what waited for its writes is dropped, and the room is lost. */
    void fencedOut() {
        synchronized (this) {
            if (fencedOut) {
                return;
            }
            fencedOut = true;
            while (!held.isEmpty()) {
                budget.release(held.pollFirst().chars());
            }
        }
        lost.run();
    }

    /** The writer committed every write up to {@code upTo}: what waited for them leaves, in order. */
    synchronized void committed(long upTo) {
        while (!held.isEmpty() && held.peekFirst().ticket() <= upTo) {
            Held h = held.pollFirst();
            h.send().run();
            budget.release(h.chars());
        }
    }
}
