package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.muc.delay.HeldMessages;
import org.reconmuc.component.muc.slowmode.SlowMode;
import org.reconmuc.component.muc.delay.ModerationDelayOption;
import org.reconmuc.component.protocol.MessageMarks;
import org.reconmuc.component.relaxed.MessageLog;
import org.xmpp.packet.Message;

/**
 * The room's side of package {@code muc.moderation}: the one-line hooks the room's classes call
 * (its two owner's options are {@code options.SlowModeOption} and {@code options.ModerationDelayOption}). The decisions are the
 * package's; this class reads the room for them and sends what they answer.
 */
public final class ModerationOptions {

    /**
     * The room's event budget (Prosody's mod_muc_limits), spent only by what the room would
     * otherwise let through: a join that passed the access and nickname checks, an occupant's change
     * of presence (status, nick, entering again), and a groupchat message from an occupant with voice
     * within its own rate and slow mode (a body-less one with no type counts once it is taken as
     * groupchat). Unaffiliated users only; leaving and errors are never counted. A stranger, a
     * visitor or a flooder refused on its own account spends nothing, so nobody can exhaust a room's
     * budget without being let in. Over it: policy-violation (wait).
     */
    public static final RoomFeature ROOM_BUDGET = events -> {
        events.on(RoomEvent.ENTERING, e -> spendBudget(e.room(), e.affiliation(), e));
        events.on(RoomEvent.PRESENCE_CHANGE, e -> spendBudget(e.room(), e.room().affiliationOf(e.occupant().bareJid()), e));
        events.on(RoomEvent.SPEAKING, e -> spendBudget(e.room(), e.room().affiliationOf(e.sender().bareJid()), e));
        events.on(RoomEvent.SUBJECT_CHANGE, e -> spendBudget(e.room(), e.room().affiliationOf(e.sender().bareJid()), e));
    };

    private static void spendBudget(Room room, Affiliation affiliation, RoomEvent.Refusable event) {
        if (affiliation != Affiliation.NONE || !room.context().config().roomEventRate().limited()
                || room.moderation().budget().admits(room.now().toEpochMilli())) {
            return;
        }
        event.refuse(Condition.POLICY_VIOLATION, room.moderation().budget().refusal());
    }

    /**
     * XEP-0500: a non-moderator's message with a body sooner than the room's slow mode ({@code seconds}
     * between two messages, its option's value) allows is refused; true if so.
     */
    public static boolean slowModeRefuses(Room room, Message message, Occupant sender, int seconds) {
        if (sender.role() == Role.MODERATOR || message.getBody() == null) {
            return false;
        }
        String refusal = room.moderation().slowMode().refuses(seconds, sender.bareJid().toString(), room.now().toEpochMilli());
        if (refusal == null) {
            return false;
        }
        room.output().error(message, Condition.POLICY_VIOLATION, refusal);
        return true;
    }

    /**
     * Before a logged message goes out: a non-moderator's message with a body in a room with a
     * moderation delay, or a message replying or reacting to one still held, is held back from
     * everyone but its sender and the moderators until its release (a reply never before its
     * parent's), which is scheduled here. {@code delay}: the room's moderation delay in seconds (its
     * option's value); the caller asks only a room with one, or with messages it holds.
     */
    public static void holdBack(Room room, MessageLog.Entry<Occupant> logged, Occupant sender, Message original,
                                int delay) {
        HeldMessages<Occupant> held = room.moderation().held();
        long now = room.now().toEpochMilli();
        long releaseAt = delay > 0 && sender.role() != Role.MODERATOR && original.getBody() != null ? now + delay * 1000L : -1;
        Set<Occupant> sentAtOnce = new LinkedHashSet<>();
        sentAtOnce.add(sender);
        long parentSeq = 0;
        for (String parentId : new String[] {MessageMarks.replyTo(original.getElement()), MessageMarks.reactsTo(original.getElement())}) {
            HeldMessages.Held<Occupant> parent = parentId == null ? null : held.heldMessage(room.history().seqOf(parentId));
            if (parent == null) {
                continue;
            }
            parentSeq = parent.seq();   // put off with it, should its author correct it
            if (parent.releaseAtMillis() > releaseAt) {
                // Held for its parent only: it goes at once to whoever had the parent at once.
                releaseAt = parent.releaseAtMillis();
                sentAtOnce.addAll(parent.sentAtOnce());
            }
        }
        if (releaseAt < 0) {
            return;
        }
        List<Occupant> heldFrom = new ArrayList<>();
        for (Occupant o : room.occupants()) {
            if (o.role() == Role.MODERATOR) {
                sentAtOnce.add(o);
            } else if (!sentAtOnce.contains(o) && !logged.withheldFrom(o)) {
                heldFrom.add(o);
            }
        }
        logged.withholdFrom(heldFrom);
        held.hold(logged, releaseAt, sentAtOnce, heldFrom, parentSeq);
        room.context().schedule(Math.max(0, releaseAt - now), () -> release(room));
    }

    /**
     * Its author corrected message {@code seq} (XEP-0308): if it is still held back, the moderators get
     * the room's whole delay for the new text, as Prosody's mod_muc_moderation_delay holds a
     * correction: its release (and that of the replies held for it) is put off to the delay from now.
     */
    public static void corrected(Room room, long seq) {
        int delay = room.config().get(ModerationDelayOption.MODERATION_DELAY);
        if (delay <= 0 || !room.moderating() || !room.moderation().held().isHeld(seq)) {
            return;
        }
        long releaseAt = room.now().toEpochMilli() + delay * 1000L;
        room.moderation().held().postpone(seq, releaseAt);
        room.context().schedule(delay * 1000L, () -> release(room));
    }

    /**
     * The held messages now due go to every occupant that has not had them — those they were held
     * from and whoever entered meanwhile (discussion history left them out) — unless retracted.
     */
    private static void release(Room room) {
        if (room.destroyed()) {
            return;
        }
        for (HeldMessages.Held<Occupant> due : room.moderation().held().due(room.now().toEpochMilli())) {
            List<Occupant> recipients = new ArrayList<>();
            for (Occupant o : room.occupants()) {
                if (!due.sentAtOnce().contains(o)) {
                    recipients.add(o);
                }
            }
            room.fanout().release(due.entry(), due.heldFrom(), recipients);
        }
        room.carry().fannedOut(room.history().head());
        room.carry().writeChanges();
    }

    /**
     * Who has not been sent message {@code seq} and may still be (reconmuc.md §5.14): the relaxed
     * occupants that retain it, and, while it is held back, everyone but those it went to at once
     * (whoever entered meanwhile too) — a retraction, moderation or correction of it must not reach them.
     */
    public static List<Occupant> holders(Room room, long seq) {
        List<Occupant> holders = room.fanout().holders(seq);
        HeldMessages.Held<Occupant> held = room.moderating() ? room.moderation().held().heldMessage(seq) : null;
        if (held != null) {
            for (Occupant o : room.occupants()) {
                if (!held.sentAtOnce().contains(o) && !holders.contains(o)) {
                    holders.add(o);
                }
            }
        }
        return holders;
    }

    /**
     * Whether message {@code seq} is held back from {@code reader} now: to it the message does not
     * exist yet, so nothing the room answers it — a reply's author, a retraction's or correction's
     * refusal, an archive page — may depend on it (stanza-ids are a prefix and a counter: anyone can
     * name the next one). A moderator, and whoever had it at once, see it.
     */
    public static boolean heldFrom(Room room, long seq, Occupant reader) {
        HeldMessages.Held<Occupant> held = seq > 0 && room.moderating() ? room.moderation().held().heldMessage(seq) : null;
        return held != null && (reader == null || reader.role() != Role.MODERATOR && !held.sentAtOnce().contains(reader));
    }

    /** The stanza-ids an archive query of {@code reader}'s must leave out: those held back from it (none for a moderator). */
    public static Set<String> heldFromArchive(Room room, Occupant reader) {
        return reader != null && reader.role() == Role.MODERATOR || !room.moderating() ? Set.of()
                : room.moderation().held().stanzaIds();
    }

    /**
     * How far every standard occupant has surely been sent the log once message {@code seq} went out
     * (several instances: the room's next owner sends them what follows again): not past a message
     * still held, which the next owner then sends them at once rather than never.
     */
    public static long fannedOutUpTo(Room room, long seq) {
        long oldestHeld = room.moderating() ? room.moderation().held().oldestSeq() : 0;
        return oldestHeld == 0 ? seq : Math.min(seq, oldestHeld - 1);
    }

    /** Whether discussion history may replay {@code entry} now: not while it is held back. */
    public static boolean inHistory(Room room, MessageLog.Entry<Occupant> entry) {
        return !room.moderating() || !room.moderation().held().isHeld(entry.seq());
    }
}
