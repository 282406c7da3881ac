package org.reconmuc.component.muc;

import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;

/**
 * {@code reconmuc#roomconfig_livestanzaids}: which live copies of a groupchat message carry the
 * room's XEP-0359 stanza-id. It is what a client needs to find the message in the archive
 * (XEP-0313), to reply to it (XEP-0461) or to have it moderated (XEP-0425) by the room's id.
 * Relaxed occupants and moderators always get it; the others only {@link Copies#ALWAYS}, or while
 * the room is logged ({@link Copies#LOGGED}, the default: with no archive there is nothing
 * to find it in, and an XEP-0461 client replies by the sender's message id when the room does
 * not advertise stanza-ids).
 */
public final class LiveStanzaIdsOption extends RoomOption.Choice<LiveStanzaIdsOption.Copies> {
    static final LiveStanzaIdsOption LIVE_STANZA_IDS = new LiveStanzaIdsOption();

    /** Whose live copies carry it, besides relaxed occupants' and moderators'. */
    enum Copies { ALWAYS, LOGGED }

    private LiveStanzaIdsOption() {
        super("reconmuc#roomconfig_livestanzaids",
                "Which live messages carry the room's stanza-id (relaxed occupants and moderators always get it)",
                Copies.class, Copies.LOGGED);
    }

    /** Whether every occupant's live copies carry the room's stanza-id. */
    public static boolean forEveryone(RoomConfig config) {
        return config.get(LIVE_STANZA_IDS) == Copies.ALWAYS || config.get(LoggingOption.LOGGING);
    }

    @Override
    String labelOf(Copies value) {
        return value == Copies.ALWAYS ? "Everyone's, always" : "Everyone's while the room is logged";
    }

    @Override
    public void describe(RoomConfig config, Element query, Element roomInfo) {
        if (forEveryone(config)) {
            feature(query, XmlNamespaces.STANZA_ID);
        }
    }
}
