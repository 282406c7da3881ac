package org.reconmuc.component.muc.budget;

import org.reconmuc.component.config.ServiceConfig.RoomEventRate;
import org.reconmuc.component.limits.TokenBucket;

/**
 * A room's budget of events — groupchat messages, joins, nick and status changes — for all its
 * occupants together, as Prosody's mod_muc_limits (ejabberd's {@code room_shaper} shapes the same
 * traffic by bytes): a {@link TokenBucket} of {@code burst} events refilled at {@code perSecond}. The caller
 * exempts what mod_muc_limits exempts: affiliated users (members, admins, owners), leaving and
 * errors. Not thread-safe: a room's thread only.
 */
public final class RoomEventBudget {
    private final RoomEventRate rate;
    /** Null where the room has no budget. */
    private final TokenBucket bucket;

    public RoomEventBudget(RoomEventRate rate, long nowMillis) {
        this.rate = rate;
        this.bucket = rate.limited() ? new TokenBucket(rate.perSecond(), rate.burst(), nowMillis) : null;
    }

    /** Takes one event from the budget; false if the room is over it (the event must be refused). */
    public boolean admits(long nowMillis) {
        return bucket == null || bucket.tryAcquire(nowMillis);
    }

    /** The refusal's text: mod_muc_limits' words, and the limit (policy-violation of type wait). */
    public String refusal() {
        return "The room is currently overactive, please try again later (limit: " + rate.perSecond()
                + " messages and presences per second for the whole room)";
    }
}
