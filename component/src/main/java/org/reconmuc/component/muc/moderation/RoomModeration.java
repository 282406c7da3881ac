package org.reconmuc.component.muc.moderation;

import org.reconmuc.component.config.ServiceConfig.RoomEventRate;
import org.reconmuc.component.muc.budget.RoomEventBudget;
import org.reconmuc.component.muc.delay.HeldMessages;
import org.reconmuc.component.muc.slowmode.SlowMode;

/**
 * The moderation state of one room: its slow mode's senders, its event budget, its held messages.
 *
 * @param <O> the room's occupant type
 */
public final class RoomModeration<O> {
    private final SlowMode slowMode = new SlowMode();
    private final RoomEventBudget budget;
    private final HeldMessages<O> held = new HeldMessages<>();

    public RoomModeration(RoomEventRate rate, long nowMillis) {
        this.budget = new RoomEventBudget(rate, nowMillis);
    }

    public SlowMode slowMode() {
        return slowMode;
    }

    public RoomEventBudget budget() {
        return budget;
    }

    public HeldMessages<O> held() {
        return held;
    }
}
