package org.reconmuc.component.muc.delay;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import org.reconmuc.component.relaxed.MessageLog;

/**
 * Messages held back for moderation in one room (Prosody's mod_muc_moderation_delay): a
 * non-moderator's groupchat message goes at once to its sender and the moderators, and to everyone
 * else only {@link #CONFIG_FIELD its delay} later, unless a moderator retracts it (XEP-0425) first —
 * then nobody else ever gets it. What is held is a pointer into the room's history (its sequence
 * number), not a copy: the log entry says what it has become by then (corrected, retracted), and
 * the room's fan-out delivers it ({@code relaxed.Fanout#release}). A reply or reaction to a held
 * message is held until its parent's release, so nobody sees a reply before its parent.
 *
 * <p>Not thread-safe: a room's thread only.
 *
 * @param <O> the room's occupant type
 */
public final class HeldMessages<O> {
    /** The owner's form field (mod_muc_moderation_delay): seconds a message is held back, 0 off. */
    public static final String CONFIG_FIELD = "muc#roomconfig_moderation_delay";
    /** The room's disco#info field (mod_muc_moderation_delay). */
    public static final String INFO_FIELD = "muc#roominfo_moderation_delay";
    /** The longest delay (mod_muc_moderation_delay's: longer would not be a chat any more). */
    public static final int MAX_SECONDS = 60;

    /**
     * A logged message, sent at once to {@code sentAtOnce} (its sender, the moderators), due to
     * everyone else at {@code releaseAtMillis}; until then it is withheld from {@code heldFrom}.
     * {@code entry} is the log's entry as it was held (the log may replace it meanwhile: by its
     * final form or its tombstone); {@code parentSeq} the held message it replies or reacts to, whose
     * release it may not come before (0: none).
     */
    public record Held<O>(MessageLog.Entry<O> entry, long releaseAtMillis, Set<O> sentAtOnce, Set<O> heldFrom,
                          long parentSeq) {
        public long seq() {
            return entry.seq();
        }
    }

    private final PriorityQueue<Held<O>> byRelease = new PriorityQueue<>(
            (a, b) -> a.releaseAtMillis != b.releaseAtMillis ? Long.compare(a.releaseAtMillis, b.releaseAtMillis)
                    : Long.compare(a.seq(), b.seq()));
    private final Map<Long, Held<O>> bySeq = new HashMap<>();

    /** Holds a logged message back (see {@link Held}). */
    public void hold(MessageLog.Entry<O> entry, long releaseAtMillis, Collection<O> sentAtOnce, Collection<O> heldFrom,
                     long parentSeq) {
        Held<O> held = new Held<>(entry, releaseAtMillis, Set.copyOf(sentAtOnce), Set.copyOf(heldFrom), parentSeq);
        byRelease.add(held);
        bySeq.put(entry.seq(), held);
    }

    /**
     * Held message {@code seq} is due no sooner than {@code releaseAtMillis} (its author corrected it:
     * the moderators get their whole delay for the new text), and so are the held replies and
     * reactions to it, which never come before it. Nothing if it is not held.
     */
    public void postpone(long seq, long releaseAtMillis) {
        Held<O> held = bySeq.get(seq);
        if (held == null || held.releaseAtMillis >= releaseAtMillis) {
            return;
        }
        byRelease.remove(held);
        Held<O> later = new Held<>(held.entry, releaseAtMillis, held.sentAtOnce, held.heldFrom, held.parentSeq);
        byRelease.add(later);
        bySeq.put(seq, later);
        for (Held<O> child : List.copyOf(bySeq.values())) {
            if (child.parentSeq == seq) {
                postpone(child.seq(), releaseAtMillis);
            }
        }
    }

    /** Whether message {@code seq} is still held back (discussion history leaves it out meanwhile). */
    public boolean isHeld(long seq) {
        return bySeq.containsKey(seq);
    }

    /** Held message {@code seq}, or null if it is not held. */
    public Held<O> heldMessage(long seq) {
        return bySeq.get(seq);
    }

    /** The oldest message held now, or 0 if none is. */
    public long oldestSeq() {
        return bySeq.keySet().stream().mapToLong(Long::longValue).min().orElse(0);
    }

    /** The room's stanza-ids of the messages held now (an archive query leaves them out). */
    public Set<String> stanzaIds() {
        Set<String> ids = new HashSet<>();
        for (Held<O> held : bySeq.values()) {
            ids.add(held.entry().stanzaId());
        }
        return Set.copyOf(ids);
    }

    /** The held messages due by {@code nowMillis}, in release order (then room order); they are no longer held. */
    public List<Held<O>> due(long nowMillis) {
        List<Held<O>> due = new ArrayList<>();
        while (!byRelease.isEmpty() && byRelease.peek().releaseAtMillis <= nowMillis) {
            Held<O> held = byRelease.poll();
            bySeq.remove(held.seq());
            due.add(held);
        }
        return due;
    }

    /** When the next held message is due, or {@link Long#MAX_VALUE}. */
    public long nextRelease() {
        return byRelease.isEmpty() ? Long.MAX_VALUE : byRelease.peek().releaseAtMillis;
    }
}
