package org.reconmuc.component.relaxed;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.ConsistencyEngine;
import org.reconmuc.component.consistency.Delivery;
import org.reconmuc.component.consistency.Requirements;
import org.reconmuc.component.jid.RealJid;

/**
 * Relaxed consistency in a room (xep-spec/reconmuc.md): who is in standard mode, the
 * {@link ConsistencyEngine} that holds every relaxed occupant's retained pointers, and the
 * sessions' deflate streams. It only holds and changes that state: messages go out through the
 * room's {@link Fanout}, which reads it. Standard occupants never touch the engine.
 *
 * @param <O> the room's occupant type
 */
public final class RelaxedState<O extends Recipient<O>> {
    private final FanoutHost<O> host;
    private final ConsistencyEngine<O> engine;
    /** Occupants that stated no requirements: they get every message at once. */
    private final Set<O> standard = new LinkedHashSet<>();
    /** The sessions' deflate streams (aggregation compact-deflate): made for the first such batch, so a room that has none keeps none. */
    private DeflateStreams streams;
    /** The aggregation of occupants returning to standard mode, for their final flush. */
    private final Map<O, Aggregation> leavingRelaxedMode = new HashMap<>();

    /** The state of a room whose log holds {@code host.log().capacity()} messages. */
    public RelaxedState(FanoutHost<O> host) {
        this.host = host;
        this.engine = new ConsistencyEngine<>(host.log().capacity());
    }

    public ConsistencyEngine<O> engine() {
        return engine;
    }

    DeflateStreams streams() {
        if (streams == null) {
            streams = new DeflateStreams();
        }
        return streams;
    }

    /** The room's turn (one message, or one round of flushes) is over: see {@link DeflateStreams#turnEnded}. */
    void turnEnded() {
        ifStreams(DeflateStreams::turnEnded);
    }

    /** What changes the room's deflate streams, where it has any (a room that never sent a batch in one has none to change). */
    private void ifStreams(Consumer<DeflateStreams> change) {
        if (streams != null) {
            change.accept(streams);
        }
    }

    Set<O> standardOccupants() {
        return standard;
    }

    /** The form an occupant's flushes take (its last one, while it returns to standard). */
    Aggregation aggregationOf(O o) {
        return o.reader() != null ? o.reader().requirements().aggregation()
                : leavingRelaxedMode.getOrDefault(o, Aggregation.PLAIN);
    }

    /** A new occupant: in standard mode until it states requirements. */
    public void joined(O occupant) {
        standard.add(occupant);
    }

    /**
     * Someone entered the room (a new occupant, or another session of one) who may read the
     * room's archive from message {@code readableFrom} on: every deflate stream that may still
     * refer to an older message starts anew, so that no stream holds text the newcomer could
     * probe by compression but not read (reconmuc.md §5.9 rule 8.4, §8.1). The others go on, and
     * keep what they compress against.
     */
    public void entered(long readableFrom) {
        ifStreams(s -> s.resetReferringBefore(readableFrom));
    }

    /** The room's configuration changed (what its archive keeps, who may read it): every stream starts anew. */
    public void configurationChanged() {
        ifStreams(DeflateStreams::resetAll);
    }

    /** The occupant left (or was removed): its retained state is dropped. */
    public void left(O occupant) {
        standard.remove(occupant);
        ifStreams(s -> s.forget(occupant.sessions()));
        if (occupant.reader() != null) {
            engine.remove(occupant.reader());
            occupant.setReader(null);
            host.counters().relaxed(-1);
        }
    }

    /**
     * A session already in the room joined again (a client that believes it is not in, e.g. after
     * a reconnect, with a new inflater): like any session that joins, it has no stream until its
     * next batch, which starts one (reconmuc.md §5.9 rule 8.4).
     */
    public void sessionRejoined(RealJid session) {
        ifStreams(s -> s.forget(List.of(session)));
    }

    /** One session of an occupant that stays has left: its stream is dropped. */
    public void sessionLeft(RealJid session) {
        ifStreams(s -> s.forget(List.of(session)));
    }

    /** Opts the occupant in with these requirements, or changes them; what that releases goes to {@code out}. */
    public void relax(O occupant, Requirements next, List<Delivery<O>> out) {
        if (occupant.reader() == null) {
            occupant.setReader(engine.relax(occupant, next));
            standard.remove(occupant);
            host.counters().relaxed(1);
        } else {
            engine.update(occupant.reader(), next, host.now().toEpochMilli(), out);
        }
    }

    /**
     * An occupant carried over from the room's last owner (several instances) with these
     * requirements and its delivery position there (see {@link ConsistencyEngine#carryOver}); what
     * is due already goes to {@code out}. Its deflate streams start anew: the room has none for its
     * sessions, so the next batch says {@code n='1'} (reconmuc.md §5.9 rule 8.4).
     */
    public void carryOver(O occupant, Requirements requirements, long cursor, long[] early, List<Delivery<O>> out) {
        occupant.setReader(engine.carryOver(occupant, requirements, cursor, early, out));
        standard.remove(occupant);
        host.counters().relaxed(1);
    }

    /** Back to standard MUC: what was retained is flushed (in its last form) into {@code out}. */
    public void returnToStandard(O occupant, List<Delivery<O>> out) {
        if (occupant.reader() != null) {
            leavingRelaxedMode.put(occupant, occupant.reader().requirements().aggregation());
            engine.standard(occupant.reader(), out);
            occupant.setReader(null);
            standard.add(occupant);
            host.counters().relaxed(-1);
        }
    }

    /** The occupant's next batches in a deflate stream start new streams (it stated its requirements again). */
    public void restartStreams(O occupant) {
        ifStreams(s -> s.reset(occupant.sessions()));
    }

    /** The final flushes of occupants that returned to standard have gone out. */
    public void leftRelaxedMode() {
        leavingRelaxedMode.clear();
    }

    /** A restored room: its log holds messages up to {@code head}; new readers start after it. */
    public void restoredUpTo(long head) {
        engine.startAfter(head);
    }

    public int historyCapacity() {
        return engine.capacity();
    }
}
