package org.reconmuc.component.muc;

import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.limits.BoundedMap;
import org.reconmuc.component.limits.TokenBucket;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Per-sender limits on presence updates and IQs to one room (messages have their own limit, per
 * occupant, in {@link RoomMessages}). Leaving, errors and IQ answers are never limited: they end
 * or repair state. A refused stanza gets {@code policy-violation} (type wait) and changes nothing.
 */
public final class RoomFloodControl {
    /** Senders remembered at once; the least recently seen are forgotten first. */
    private static final int MAX_SENDERS = 4096;

    private final double perSecond;
    private final int burst;
    private final BoundedMap<RealJid, TokenBucket> limiters = BoundedMap.leastRecentlyUsedOut(MAX_SENDERS);

    public RoomFloodControl(ServiceConfig config) {
        this.perSecond = config.presencesAndIqsPerSecond();
        this.burst = config.presenceAndIqBurst();
    }

    /** True if the stanza may be handled; false if its sender is over the limit. */
    public boolean admits(Packet packet, RealJid sender, long nowMillis) {
        if (!limited(packet)) {
            return true;
        }
        return limiters.computeIfAbsent(sender, s -> new TokenBucket(perSecond, burst, nowMillis)).tryAcquire(nowMillis);
    }

    /** The text of the refusal. */
    public String refusal(Packet packet) {
        String what = packet instanceof Presence ? "presence updates" : "requests";
        return "You are sending " + what + " too fast (limit: " + perSecond + " per second); this one was refused";
    }

    private static boolean limited(Packet packet) {
        if (packet instanceof Presence p) {
            return p.getType() == null;
        }
        if (packet instanceof IQ iq) {
            return iq.getType() == IQ.Type.get || iq.getType() == IQ.Type.set;
        }
        return false;
    }
}
