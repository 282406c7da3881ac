package org.reconmuc.component.activity;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.xmpp.packet.Presence;

/**
 * The service's XEP-0437 subscribers: each session (full JID) that sent the service a presence with
 * {@code <rai/>}, and the rooms that owe it a notice. At most {@code maxSubscribers} sessions, as
 * Prosody's {@code muc_rai_max_subscribers} (1024 there too): one more is refused with
 * {@code resource-constraint}. Shared by the reader thread (presences) and the rooms' threads
 * (joins, leaves, messages): every method holds the lock briefly and calls nothing outside.
 */
public final class ActivitySubscriptions {
    private final int maxSubscribers;
    /** Subscriber session to the rooms watching for it. */
    private final Map<String, Set<String>> watchedRooms = new HashMap<>();

    /** What a presence to the service did. */
    public sealed interface Change {
    }

    /** Nothing: not about activity indicators, or a session already subscribed (Prosody's rule). */
    public record Unchanged() implements Change {
    }

    /** A new subscriber: every room should look at it ({@link RoomActivity#subscribed}). */
    public record Subscribed(String session) implements Change {
    }

    /** Refused: the service has as many subscribers as it may. */
    public record Refused(String text) implements Change {
    }

    /** The session went unavailable: these rooms were watching for it ({@link RoomActivity#unsubscribed}). */
    public record Unsubscribed(String session, Set<String> rooms) implements Change {
    }

    public ActivitySubscriptions(int maxSubscribers) {
        this.maxSubscribers = maxSubscribers;
    }

    /**
     * A presence from {@code session} to the service itself: with {@code <rai/>} it subscribes,
     * unavailable it ends the subscription (whatever it carries, as Prosody), anything else is not ours.
     */
    public synchronized Change presence(String session, Presence presence) {
        Presence.Type type = presence.getType();
        if (type == Presence.Type.unavailable) {
            Set<String> rooms = watchedRooms.remove(session);
            return rooms == null ? new Unchanged() : new Unsubscribed(session, rooms);
        }
        if (type != null || !RaiElement.isIn(presence.getElement()) || watchedRooms.containsKey(session)) {
            return new Unchanged();
        }
        if (watchedRooms.size() >= maxSubscribers) {
            return new Refused("This service already sends room activity indicators (XEP-0437) to "
                    + maxSubscribers + " sessions, its limit (rai-max-subscribers); try again later");
        }
        watchedRooms.put(session, new HashSet<>());
        return new Subscribed(session);
    }

    /**
     * An error from {@code session} to the service: its server bounced a notice, so the session is
     * gone without the unavailable presence that ends a subscription (its place is given back).
     */
    public synchronized Change bounced(String session) {
        Set<String> rooms = watchedRooms.remove(session);
        return rooms == null ? new Unchanged() : new Unsubscribed(session, rooms);
    }

    public synchronized boolean subscribed(String session) {
        return watchedRooms.containsKey(session);
    }

    /** {@code room} will tell {@code session} of its next activity; false (nothing noted) if it is not subscribed. */
    synchronized boolean watch(String session, String room) {
        Set<String> rooms = watchedRooms.get(session);
        return rooms != null && rooms.add(room);
    }

    /** {@code room} no longer watches for {@code session} (notified, or the session joined it); true if it did. */
    synchronized boolean unwatch(String session, String room) {
        Set<String> rooms = watchedRooms.get(session);
        return rooms != null && rooms.remove(room);
    }

    public synchronized int size() {
        return watchedRooms.size();
    }
}
