package org.reconmuc.component.muc.delay;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.reconmuc.component.muc.Occupant;
import org.reconmuc.component.muc.Role;
import org.reconmuc.component.muc.Room;
import org.reconmuc.component.muc.RoomEvent;
import org.reconmuc.component.muc.RoomEvents;
import org.reconmuc.component.muc.RoomEvents.Gate;
import org.reconmuc.component.muc.RoomState;
import org.reconmuc.component.muc.SecondsOption;
import org.reconmuc.component.protocol.MessageMarks;
import org.reconmuc.component.relaxed.MessageLog;
import org.xmpp.packet.Message;

/**
 * mod_muc_moderation_delay: seconds a non-moderator's message waits for everyone but the moderators
 * (0: off), and the feature that holds it. A held message does not exist for those it is held
 * from until its release: no reply's attribution, retraction, correction or archive page tells
 * them of it (stanza-ids are a prefix and a counter: anyone can name the next one), and their
 * discussion history leaves it out.
 */
public final class ModerationDelayOption extends SecondsOption {
    public static final ModerationDelayOption MODERATION_DELAY = new ModerationDelayOption();
    /** The messages a room holds back, made when it first holds one. */
    private static final RoomState<HeldMessages<Occupant>> HELD = new RoomState<>(room -> new HeldMessages<>());

    private ModerationDelayOption() {
        super(HeldMessages.CONFIG_FIELD,
                "Moderation delay: seconds a participant's message waits for everyone but the moderators (0: off)",
                HeldMessages.INFO_FIELD, HeldMessages.MAX_SECONDS);
    }

    /**
     * A room with a delay holds messages back; one that holds some (its delay may be off since)
     * answers for them until they are released.
     */
    @Override
    public void attach(RoomEvents events) {
        Gate holding = Gate.whenKept(HELD);
        events.on(RoomEvent.LOGGED, Gate.whenSet(this).or(holding), this::holdBack);
        events.on(RoomEvent.CORRECTED, holding, this::corrected);
        events.on(RoomEvent.HIDDEN, holding, ModerationDelayOption::hidden);
        events.on(RoomEvent.HOLDERS, holding, ModerationDelayOption::holders);
        events.on(RoomEvent.FANNED_OUT, holding, w -> {
            long oldestHeld = w.room().kept(HELD).oldestSeq();
            if (oldestHeld != 0) {
                w.atMost(oldestHeld - 1);   // the room's next owner sends what is still held at once, rather than never
            }
        });
        events.on(RoomEvent.ARCHIVE_QUERY, holding, q -> {
            if (q.reader() == null || q.reader().role() != Role.MODERATOR) {
                q.leftOut().addAll(q.room().kept(HELD).stanzaIds());
            }
        });
    }

    /**
     * Before a logged message goes out: a non-moderator's message with a body in a room with a
     * moderation delay, or a message replying or reacting to one still held, is held back from
     * everyone but its sender and the moderators until its release (a reply never before its
     * parent's), which is scheduled here.
     */
    private void holdBack(RoomEvent.Logged logged) {
        Room room = logged.room();
        HeldMessages<Occupant> held = room.state(HELD);
        Occupant sender = logged.sender();
        Message original = logged.message();
        int delay = room.config().get(this);
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
        MessageLog.Entry<Occupant> entry = logged.entry();
        List<Occupant> heldFrom = new ArrayList<>();
        for (Occupant o : room.occupants()) {
            if (o.role() == Role.MODERATOR) {
                sentAtOnce.add(o);
            } else if (!sentAtOnce.contains(o) && !entry.withheldFrom(o)) {
                heldFrom.add(o);
            }
        }
        entry.withholdFrom(heldFrom);
        held.hold(entry, releaseAt, sentAtOnce, heldFrom, parentSeq);
        room.schedule(Math.max(0, releaseAt - now), () -> release(room));
    }

    /**
     * Its author corrected message {@code seq} (XEP-0308): if it is still held back, the moderators get
     * the room's whole delay for the new text, as Prosody's mod_muc_moderation_delay holds a
     * correction: its release (and that of the replies held for it) is put off to the delay from now.
     */
    private void corrected(RoomEvent.Corrected corrected) {
        Room room = corrected.room();
        int delay = room.config().get(this);
        if (delay <= 0 || !room.kept(HELD).isHeld(corrected.seq())) {
            return;
        }
        room.kept(HELD).postpone(corrected.seq(), room.now().toEpochMilli() + delay * 1000L);
        room.schedule(delay * 1000L, () -> release(room));
    }

    /**
     * The held messages now due go to every occupant that has not had them — those they were held
     * from and whoever entered meanwhile (discussion history left them out) — unless retracted.
     */
    private static void release(Room room) {
        for (HeldMessages.Held<Occupant> due : room.kept(HELD).due(room.now().toEpochMilli())) {
            List<Occupant> recipients = new ArrayList<>();
            for (Occupant o : room.occupants()) {
                if (!due.sentAtOnce().contains(o)) {
                    recipients.add(o);
                }
            }
            room.fanout().release(due.entry(), due.heldFrom(), recipients);
        }
        room.fannedOut(room.history().head());
    }

    /**
     * While message {@code seq} is held it is hidden from everyone but those it went to at once and
     * the moderators — and from whoever enters meanwhile, moderator or not, whom its release reaches.
     */
    private static void hidden(RoomEvent.Sight sight) {
        HeldMessages.Held<Occupant> held = sight.room().kept(HELD).heldMessage(sight.seq());
        Occupant reader = sight.reader();
        if (held != null && (reader == null || reader.role() != Role.MODERATOR && !held.sentAtOnce().contains(reader))) {
            sight.hide();
        }
    }

    /**
     * While message {@code seq} is held, everyone but those it went to at once (whoever entered
     * meanwhile too) has not been sent it: a retraction, moderation or correction of it must not reach them.
     */
    private static void holders(RoomEvent.Holders holders) {
        Room room = holders.room();
        HeldMessages.Held<Occupant> held = room.kept(HELD).heldMessage(holders.seq());
        if (held == null) {
            return;
        }
        for (Occupant o : room.occupants()) {
            if (!held.sentAtOnce().contains(o) && !holders.holders().contains(o)) {
                holders.holders().add(o);
            }
        }
    }
}
