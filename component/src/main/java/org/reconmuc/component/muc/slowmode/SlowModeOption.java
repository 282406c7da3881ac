package org.reconmuc.component.muc.slowmode;

import org.reconmuc.component.muc.Occupant;
import org.reconmuc.component.muc.Role;
import org.reconmuc.component.muc.Room;
import org.reconmuc.component.muc.RoomEvent;
import org.reconmuc.component.muc.RoomEvents;
import org.reconmuc.component.muc.RoomEvents.Gate;
import org.reconmuc.component.muc.RoomState;
import org.reconmuc.component.muc.SecondsOption;
import org.reconmuc.component.muc.StanzaErrors.Condition;

/**
 * XEP-0500: seconds a non-moderator waits between two messages with a body (0: off), and the
 * feature that keeps to it: in a room that sets it, a message sooner than that is refused with
 * {@code policy-violation} ({@link SlowMode}). Moderators and messages without a body are exempt;
 * a refused message does not count.
 */
public final class SlowModeOption extends SecondsOption {
    public static final SlowModeOption SLOW_MODE = new SlowModeOption();
    /** When each user last sent, in a room that has had slow mode. */
    private static final RoomState<SlowMode> SENDERS = new RoomState<>(room -> new SlowMode());

    private SlowModeOption() {
        super(SlowMode.CONFIG_FIELD, "Slow mode: seconds a participant waits between two messages (0: off)",
                SlowMode.INFO_FIELD, SlowMode.MAX_SECONDS);
    }

    @Override
    public void attach(RoomEvents events) {
        events.on(RoomEvent.SPEAKING, Gate.whenSet(this), speaking -> {
            Occupant sender = speaking.sender();
            if (sender.role() == Role.MODERATOR || speaking.message().getBody() == null) {
                return;
            }
            Room room = speaking.room();
            String refusal = room.state(SENDERS).refuses(room.config().get(this), sender.bareJid().toString(),
                    room.now().toEpochMilli());
            if (refusal != null) {
                speaking.refuse(Condition.POLICY_VIOLATION, refusal);
            }
        });
    }
}
