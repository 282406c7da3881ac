package org.reconmuc.component.muc;

import java.util.List;
import java.util.stream.Stream;

/**
 * The features every room has, and the events they attach to. The room options come first, in
 * the order of the owner's form; a feature that is no option is one file and one line here.
 */
public final class RoomFeatures {
    /**
     * Every feature, in the order its handlers run: the options, then the room's event budget (last of
     * what may refuse, so that only what every other check lets through spends it), room activity
     * (XEP-0437, XEP-0502) and the avatar.
     */
    public static final List<RoomFeature> ALL = Stream.concat(RoomOptions.ALL.stream(),
            Stream.of(ModerationOptions.ROOM_BUDGET, RoomActivityHost.FEATURE, RoomAvatars.FEATURE)).toList();

    /** The handlers of {@link #ALL}, which every room fires its events to. */
    static final RoomEvents EVENTS = RoomEvents.of(ALL);

    private RoomFeatures() {
    }
}
