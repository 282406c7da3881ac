package org.reconmuc.component.muc.slowmode;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * XEP-0500 MUC slow mode in one room: a user (by bare JID, all its sessions and nicks together,
 * XEP-0500 §8) may send a groupchat message with a body only once per the room's duration;
 * sooner, it gets {@code policy-violation} of type {@code wait} with a text naming the duration and
 * the time left (XEP-0500 §6, as Prosody's mod_muc_slow_mode). The caller exempts moderators and
 * messages without a body. A refused message does not count. Not thread-safe: a room's thread only.
 */
public final class SlowMode {
    /** The owner's form field (XEP-0500 §5.1): seconds between two messages, 0 off. */
    public static final String CONFIG_FIELD = "muc#roomconfig_slow_mode_duration";
    /** The room's disco#info field (XEP-0500 §5.2). */
    public static final String INFO_FIELD = "muc#roominfo_slow_mode_duration";
    /** The longest duration an owner may set: a day (XEP-0500 §8 asks for a bound). */
    public static final int MAX_SECONDS = 86_400;
    /** Remembered senders past which those whose last message is older than the duration are forgotten. */
    private static final int SWEEP_ABOVE = 1024;

    private final Map<String, Long> lastAcceptedMillis = new HashMap<>();
    private int sweepAt = SWEEP_ABOVE;

    /**
     * Whether {@code user}'s message at {@code nowMillis} comes too soon in a room whose slow mode is
     * {@code seconds} (0: off): null if it may go (and it now counts as the user's last), else the
     * error text.
     */
    public String refuses(int seconds, String user, long nowMillis) {
        if (seconds <= 0) {
            return null;
        }
        long intervalMillis = seconds * 1000L;
        Long last = lastAcceptedMillis.get(user);
        if (last != null && nowMillis - last < intervalMillis) {
            long leftSeconds = (last + intervalMillis - nowMillis + 999) / 1000;
            return "You have exceeded the limit imposed by the slow mode in this room: you have to wait " + seconds
                    + " seconds between messages. Please try again in " + leftSeconds + " second" + (leftSeconds == 1 ? "" : "s") + ".";
        }
        lastAcceptedMillis.put(user, nowMillis);
        if (lastAcceptedMillis.size() > sweepAt) {
            forgetOlderThan(nowMillis - intervalMillis);
            sweepAt = Math.max(SWEEP_ABOVE, 2 * lastAcceptedMillis.size());
        }
        return null;
    }

    /** How many senders the room remembers (tests: the memory stays bounded by recent senders). */
    public int remembered() {
        return lastAcceptedMillis.size();
    }

    private void forgetOlderThan(long millis) {
        for (Iterator<Long> it = lastAcceptedMillis.values().iterator(); it.hasNext(); ) {
            if (it.next() <= millis) {
                it.remove();
            }
        }
    }
}
