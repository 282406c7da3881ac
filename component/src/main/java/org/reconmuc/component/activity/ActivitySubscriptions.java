package org.reconmuc.component.activity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.xmpp.packet.Presence;

/**
 * The service's XEP-0437 subscribers: each session (full JID) that sent the service a presence with
 * {@code <rai/>}, and the rooms that owe it a notice. At most {@code maxSubscribers} sessions, as
 * Prosody's {@code muc_rai_max_subscribers} (1024 there too): one more is refused with
 * {@code resource-constraint}. Shared by the reader thread (presences) and the rooms' threads
 * (joins, leaves, messages): every method holds the lock briefly and calls nothing outside it.
 *
 * <p>With several instances the subscribers are those of the whole service ({@link SharedSubscriptions}):
 * what a presence here changed is {@linkplain #shareThrough shared} through the store, and what
 * another instance's presences changed is {@linkplain #adopt adopted} here, so that every
 * instance's rooms notify every subscriber. Which rooms watch for a session stays each instance's own.
 */
public final class ActivitySubscriptions {
    private final int maxSubscribers;
    /** Where a subscription that began or ended goes: every room in memory looks at it. */
    private final Consumer<Change> rooms;
    /** Where a change made here by a presence goes besides the rooms: the store, with several instances. */
    private volatile Consumer<Change> shared = change -> { };
    /** Each subscriber session's subscription. */
    private final Map<String, Subscription> subscriptions = new HashMap<>();

    /**
     * One session's subscription: the rooms watching for it, and those that have looked at it (a leave
     * seen while it was subscribed, or the news of it) — a room's turn at a {@link Subscribed} can come
     * after its own leave already saw the subscription, and after a message notified it.
     */
    private record Subscription(Set<String> watching, Set<String> lookedAt) {
        Subscription() {
            this(new HashSet<>(), new HashSet<>());
        }
    }

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

    /** {@code rooms} is told of each subscription that began or ended (after the change, outside the lock). */
    public ActivitySubscriptions(int maxSubscribers, Consumer<Change> rooms) {
        this.maxSubscribers = maxSubscribers;
        this.rooms = rooms;
    }

    /** From now on what presences change here also goes to {@code store} (several instances: {@link SharedSubscriptions}). */
    void shareThrough(Consumer<Change> store) {
        this.shared = store;
    }

    /**
     * A presence from {@code session} to the service itself: with {@code <rai/>} it subscribes,
     * unavailable it ends the subscription (whatever it carries, as Prosody), anything else is not
     * ours. Returns what it did (a refusal is the caller's to answer).
     */
    public Change presence(String session, Presence presence) {
        return tell(changedBy(session, presence));
    }

    /**
     * An error from {@code session} to the service: its server bounced a notice, so the session is
     * gone without the unavailable presence that ends a subscription (its place is given back).
     */
    public Change bounced(String session) {
        return tell(ended(session));
    }

    private Change tell(Change change) {
        if (change instanceof Subscribed || change instanceof Unsubscribed) {
            rooms.accept(change);
            shared.accept(change);
        }
        return change;
    }

    /**
     * What the other instances' presences changed, as the store shows it: the sessions
     * {@code began} subscribe here too (beyond the limit if need be: the instance the presence
     * reached decided), those whose subscription {@code ended} leave. Only the rooms are told.
     */
    void adopt(Set<String> began, Set<String> ended) {
        List<Change> changes = new ArrayList<>();
        synchronized (this) {
            for (String session : began) {
                if (subscriptions.putIfAbsent(session, new Subscription()) == null) {
                    changes.add(new Subscribed(session));
                }
            }
        }
        for (String session : ended) {
            changes.add(ended(session));
        }
        changes.stream().filter(c -> !(c instanceof Unchanged)).forEach(rooms);
    }

    private synchronized Change ended(String session) {
        Subscription ended = subscriptions.remove(session);
        return ended == null ? new Unchanged() : new Unsubscribed(session, ended.watching());
    }

    private synchronized Change changedBy(String session, Presence presence) {
        Presence.Type type = presence.getType();
        if (type == Presence.Type.unavailable) {
            return ended(session);
        }
        if (type != null || !RaiElement.isIn(presence.getElement()) || subscriptions.containsKey(session)) {
            return new Unchanged();
        }
        if (subscriptions.size() >= maxSubscribers) {
            return new Refused("This service already sends room activity indicators (XEP-0437) to "
                    + maxSubscribers + " sessions, its limit (rai-max-subscribers); try again later");
        }
        subscriptions.put(session, new Subscription());
        return new Subscribed(session);
    }

    public synchronized boolean subscribed(String session) {
        return subscriptions.containsKey(session);
    }

    /**
     * {@code room} looks at the subscription of {@code session} (a leave while subscribed): true if
     * there is one. A {@link Subscribed} reaching the room later is then no news ({@link #firstLook}).
     */
    synchronized boolean lookAt(String session, String room) {
        Subscription s = subscriptions.get(session);
        if (s == null) {
            return false;
        }
        s.lookedAt().add(room);
        return true;
    }

    /** Like {@link #lookAt}, but true only the first time {@code room} looks at this subscription. */
    synchronized boolean firstLook(String session, String room) {
        Subscription s = subscriptions.get(session);
        return s != null && s.lookedAt().add(room);
    }

    /** {@code room} will tell {@code session} of its next activity; false (nothing noted) if it is not subscribed. */
    synchronized boolean watch(String session, String room) {
        Subscription s = subscriptions.get(session);
        return s != null && s.watching().add(room);
    }

    /** {@code room} no longer watches for {@code session} (notified, or the session joined it); true if it did. */
    synchronized boolean unwatch(String session, String room) {
        Subscription s = subscriptions.get(session);
        return s != null && s.watching().remove(room);
    }

    public synchronized int size() {
        return subscriptions.size();
    }
}
