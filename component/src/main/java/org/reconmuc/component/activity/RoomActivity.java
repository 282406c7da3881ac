package org.reconmuc.component.activity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dom4j.Element;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;

/**
 * One room's activity for those not in it, on the room's thread.
 *
 * <p>XEP-0437, as Prosody's {@code mod_muc_rai}: the sessions owed a notice ({@link #watchers})
 * get one at the room's next logged message — any message the room logs, as Prosody notifies on
 * any message that gets a stanza-id — and then none until they have joined and left again. A
 * session is watched when it leaves the room while subscribed, or when it subscribes and its user
 * is affiliated; if the room had activity since the user was last in it (or, never in it, any
 * message), the notice goes at once instead. "Since the user was last in it" is the room's newest
 * message when its last session left — for a relaxed occupant, the last one before what the room
 * still retained for it, which leaving discards (reconmuc.md §5.10): retained messages never
 * delivered are activity the user has not seen. Kept for affiliated users only, in memory.
 *
 * <p>XEP-0502: the room's {@link MessageRate}, published only where {@link ActivityHost#publishesActivity}.
 * Only a persistent room counts (as Prosody's {@code mod_muc_activity}): a temporary room is never
 * published, keeps no count, and one made persistent counts from then on.
 */
public final class RoomActivity {
    private final ActivityHost host;
    private final ActivitySubscriptions subscriptions;
    /** XEP-0502's count: null while the room is temporary. */
    private MessageRate rate;
    /** Sessions owed a notice at the next message, in the order they came. */
    private final Set<String> watchers = new LinkedHashSet<>();
    /** Affiliated user (bare JID) to the newest message it had when its last session left. */
    private final Map<String, Long> seenUpTo = new HashMap<>();

    public RoomActivity(ActivityHost host, ActivitySubscriptions subscriptions) {
        this.host = host;
        this.subscriptions = subscriptions;
    }

    /**
     * The room is persistent, or temporary (as it came into memory, or as its owner made it): a
     * persistent room counts its messages from now on, unless it did already; a temporary one forgets its count.
     */
    public void persistent(boolean persistent) {
        if (!persistent) {
            rate = null;
        } else if (rate == null) {
            rate = new MessageRate(host.now());
        }
    }

    /** The room logged {@code broadcast}, a groupchat message, and sent it on. */
    public void messageLogged(Message broadcast) {
        if (rate != null && MessageRate.counts(broadcast)) {
            rate.count(host.now());
        }
        if (watchers.isEmpty()) {
            return;
        }
        List<String> owed = new ArrayList<>(watchers);
        watchers.clear();
        for (String session : owed) {
            if (subscriptions.unwatch(session, host.roomJid()) && !host.joined(session) && host.mayEnter(session)) {
                notify(session);
            }
        }
    }

    /** {@code session} entered the room: it gets the room itself, no notice. */
    public void joined(String session) {
        if (watchers.remove(session)) {
            subscriptions.unwatch(session, host.roomJid());
        }
    }

    /**
     * {@code session} left the room; {@code lastOfUser} when it was its user's last, and
     * {@code seenUpTo} the newest message the session was sent before what the room retained for
     * it (the room's newest message when nothing was retained).
     */
    public void left(String session, boolean lastOfUser, long seenUpTo) {
        String user = bare(session);
        if (lastOfUser && host.affiliated(session)) {
            this.seenUpTo.put(user, seenUpTo);
        } else if (lastOfUser) {
            this.seenUpTo.remove(user);
        }
        if (subscriptions.lookAt(session, host.roomJid()) && host.mayEnter(session)) {
            awaitOrNotify(session, seenUpTo);
        }
    }

    /**
     * A new subscriber on the service: owed a notice here if its user is affiliated and not in the
     * room — unless this room already looked at the subscription: its leave, handled before this news
     * reached the room, saw it (and a message may since have notified it: once is enough).
     */
    public void subscribed(String session) {
        if (!subscriptions.firstLook(session, host.roomJid())   // ended again, or seen at a leave, before this turn
                || host.joined(session) || !host.affiliated(session) || !host.mayEnter(session)) {
            return;
        }
        awaitOrNotify(session, seenUpTo.getOrDefault(bare(session), 0L));
    }

    /** The subscription of {@code session} ended. */
    public void unsubscribed(String session) {
        watchers.remove(session);
    }

    /** XEP-0502's field, in the room's {@code muc#roominfo} form, where the room publishes it and has the data. */
    public void describe(Element roomInfo) {
        if (rate == null || !host.publishesActivity()) {
            return;
        }
        rate.perHour(host.now()).ifPresent(perHour -> {
            Element field = roomInfo.addElement("field");
            field.addAttribute("var", MessageRate.FIELD);
            field.addAttribute("label", MessageRate.LABEL);
            field.addElement("value").setText(MessageRate.format(perHour));
        });
    }

    private void awaitOrNotify(String session, long seenUpTo) {
        if (host.newestMessage() > seenUpTo) {
            notify(session);
        } else if (subscriptions.watch(session, host.roomJid()) || subscriptions.subscribed(session)) {
            watchers.add(session);
        }
    }

    private void notify(String session) {
        Message notice = new Message();
        notice.setFrom(host.serviceJid());
        notice.setTo(session);
        notice.getElement().add(new RaiElement(List.of(host.roomJid())).toElement());
        host.send(notice);
    }

    private static String bare(String session) {
        return new JID(session).toBareJID();
    }
}
