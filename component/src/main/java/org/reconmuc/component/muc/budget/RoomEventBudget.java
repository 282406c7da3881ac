package org.reconmuc.component.muc.budget;

import org.reconmuc.component.config.ServiceConfig.RoomEventRate;

/**
 * A room's budget of events — groupchat messages, joins, nick and status changes — for all its
 * occupants together, as Prosody's mod_muc_limits (ejabberd's {@code room_shaper} shapes the same
 * traffic by bytes): a token bucket of {@code burst} events refilled at {@code perSecond}. The caller
 * exempts what mod_muc_limits exempts: affiliated users (members, admins, owners), leaving and
 * errors. Not thread-safe: a room's thread only.
 */
public final class RoomEventBudget {
    private final RoomEventRate rate;
    private double tokens;
    private long lastMillis;

    public RoomEventBudget(RoomEventRate rate, long nowMillis) {
        this.rate = rate;
        this.tokens = rate.burst();
        this.lastMillis = nowMillis;
    }

    /** Takes one event from the budget; false if the room is over it (the event must be refused). */
    public boolean admits(long nowMillis) {
        if (!rate.limited()) {
            return true;
        }
        if (nowMillis > lastMillis) {
            tokens = Math.min(rate.burst(), tokens + (nowMillis - lastMillis) * rate.perSecond() / 1000.0);
            lastMillis = nowMillis;
        }
        if (tokens >= 1.0) {
            tokens -= 1.0;
            return true;
        }
        return false;
    }

    /** The refusal's text: mod_muc_limits' words, and the limit (policy-violation of type wait). */
    public String refusal() {
        return "The room is currently overactive, please try again later (limit: " + rate.perSecond()
                + " messages and presences per second for the whole room)";
    }
}
