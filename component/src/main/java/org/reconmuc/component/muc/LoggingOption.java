package org.reconmuc.component.muc;

import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.muc.RoomAccess.Refusal;

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

    /** An unlogged room keeps no archive ({@link RoomEvent#ARCHIVING}). */
    @Override
    public void attach(RoomEvents events) {
        events.on(RoomEvent.ARCHIVING, asked -> {
            if (!asked.room().config().get(this)) {
                asked.answer(false);
            }
        });
    }

    /** Whether the store's archive takes the room's messages: see {@link org.reconmuc.component.muc.RoomPersistence#archives}. */
    public static boolean archivesInStore(Room room) {
        return room.persistence().archives();
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
