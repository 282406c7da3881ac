package org.reconmuc.component.muc;

import java.util.function.Function;

/**
 * What a feature keeps for each room — its slow mode's senders, its held messages, its budget —
 * under this key, made the first time the room is asked for it ({@link Room#state}), so that a room
 * that never uses the feature keeps nothing for it. The room's thread only, as the room.
 *
 * @param <T> what is kept
 */
public final class RoomState<T> {
    private final Function<Room, T> make;

    /** A key whose state {@code make} makes for a room. */
    public RoomState(Function<Room, T> make) {
        this.make = make;
    }

    T make(Room room) {
        return make.apply(room);
    }
}
