package org.reconmuc.component.relaxed;

import java.util.List;

/**
 * A form that renders nothing of the occupant's own: a flush to one occupant is a flush to a
 * group of one, and occupants due the same entries share one rendering ({@link #sendToAll}).
 * The deflate stream forms keep state per session and are not.
 *
 * @param <O> the room's occupant type
 */
interface ShareableFlush<O extends Recipient<O>> extends FlushForm<O> {

    @Override
    default void send(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries) {
        sendToAll(room, List.of(occupant), entries);
    }

    /**
     * Sends these entries to every session of each of {@code occupants}, all due the same entries
     * now: rendered once and handed on as one broadcast, which the server's XEP-0033 multicast
     * carries once.
     */
    void sendToAll(FanoutHost<O> room, List<O> occupants, List<MessageLog.Entry<O>> entries);
}
