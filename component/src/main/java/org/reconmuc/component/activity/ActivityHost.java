package org.reconmuc.component.activity;

import java.time.Instant;
import org.xmpp.packet.Message;

/** What {@link RoomActivity} needs of its room; called on the room's thread. */
public interface ActivityHost {
    /** The room's bare JID. */
    String roomJid();

    /** The service's address, which notices come from. */
    String serviceJid();

    Instant now();

    /** The number of the room's newest logged message (0: none yet). */
    long newestMessage();

    /** Whether {@code session} (a full JID) is in the room. */
    boolean joined(String session);

    /** Whether the user of {@code session} is a member, admin or owner: interest without having been in. */
    boolean affiliated(String session);

    /** Whether the room's access rule would let the user of {@code session} in without a password (XEP-0437 §5). */
    boolean mayEnter(String session);

    /** Whether the room may publish its message rate: public, persistent, open to anyone without a password (XEP-0502 §3, §8). */
    boolean publishesActivity();

    /** Sends a notice. */
    void send(Message notice);
}
