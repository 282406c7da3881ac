package org.reconmuc.component.muc.options;

import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.muc.Room;
import org.reconmuc.component.muc.StanzaErrors;
import org.reconmuc.component.muc.messages.RoomArchive;
import org.reconmuc.component.muc.occupants.MucPresences;
import org.reconmuc.component.muc.occupants.Occupant;
import org.reconmuc.component.muc.options.RoomAccess.Refusal;
import org.reconmuc.component.relaxed.MessageLog;

/**
 * {@code muc#roomconfig_enablelogging}, on in a new room as with Prosody's
 * {@code muc_log_by_default}: the room's messages go to its archive (the store, for a persistent
 * room) and XEP-0313 queries read them ({@link RoomArchive}); occupants are told on entry (170)
 * and when it changes (170, 171). An unlogged room archives nothing and answers no queries; its
 * in-memory history (the discussion history sent on join, the relaxed engine's pointers) stays,
 * since that is the room working, not a log.
 */
public final class LoggingOption extends RoomOption.Flag {
    static final LoggingOption LOGGING = new LoggingOption();

    private LoggingOption() {
        super("muc#roomconfig_enablelogging", "Log the discussion: keep an archive of its messages, readable with XEP-0313",
                true, RoomArchive.NAMESPACE, null);
    }

    /**
     * The oldest message that whoever may enter the room can read in its archive now: none
     * (the next message's number) in a room that is not logged; the first in a persistent room,
     * whose store keeps them all; the oldest the in-memory log still holds in any other.
     */
    public static long readableFrom(Room room) {
        MessageLog<Occupant> history = room.history();
        if (!room.config().get(LOGGING)) {
            return history.head() + 1;
        }
        return room.persistence().archivedInStore() ? 1 : Math.max(1, history.head() - history.capacity() + 1);
    }

    /** Whether the store's archive takes the room's messages: a stored room that is logged. */
    public static boolean archivesInStore(Room room) {
        return room.persistence().archivedInStore() && room.config().get(LOGGING);
    }

    @Override
    public void describe(RoomConfig config, Element query, Element roomInfo) {
        super.describe(config, query, roomInfo);
        field(roomInfo, var, "boolean", null, config.get(this) ? "1" : "0");
    }

    @Override
    Refusal refuses(RoomConfig config, RoomAccess.Asking asking) {
        if (asking.act() == RoomAccess.Act.READ_ARCHIVE && !config.get(this)) {
            return new Refusal(StanzaErrors.Condition.FEATURE_NOT_IMPLEMENTED,
                    "This room is not logged (muc#roomconfig_enablelogging is off): it keeps no archive");
        }
        return null;
    }

    @Override
    public void addEntryCodes(Boolean value, Set<Integer> codes) {
        if (value) {
            codes.add(MucPresences.LOGGED);
        }
    }

    @Override
    public void addChangeCodes(Boolean before, Boolean after, Set<Integer> codes) {
        codes.add(after ? MucPresences.LOGGED : MucPresences.NOT_LOGGED);
    }
}
