package org.reconmuc.component.muc;


/**
 * {@code muc#roomconfig_persistentroom}: the room outlives its last occupant, and the store keeps
 * it ({@link RoomPersistence}). New rooms start as the service's {@code room-default-persistent} says.
 */
public final class PersistentOption extends RoomOption.Flag {
    public static final PersistentOption PERSISTENT = new PersistentOption();

    private PersistentOption() {
        super("muc#roomconfig_persistentroom", "Keep the room when the last occupant leaves", false,
                "muc_persistent", "muc_temporary");
    }

    /** The room is persistent while the option is on; a room the store gives back is persistent. */
    @Override
    public void attach(RoomEvents events) {
        events.on(RoomEvent.PERSISTENT, asked -> {
            if (asked.room().config().get(this)) {
                asked.answer(true);
            }
        });
        events.on(RoomEvent.RESTORING, restoring -> restoring.config(restoring.config().with(this, true)));
    }

    @Override
    Boolean defaultValue(RoomConfig.Limits limits) {
        return limits.persistentByDefault();
    }
}
