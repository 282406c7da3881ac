package org.reconmuc.component.muc;


/**
 * A feature of every room that acts through the events rooms fire ({@link RoomEvent}), as a
 * Prosody {@code plugins/muc} module hooks its events: it attaches its handlers once, and each
 * handler reads the room it is told about. Every room option is one ({@code RoomOption}); a
 * feature that is no option is listed in {@link RoomFeatures#ALL}.
 */
public interface RoomFeature {
    /** Attaches the feature's handlers to {@code events}. */
    void attach(RoomEvents events);
}
