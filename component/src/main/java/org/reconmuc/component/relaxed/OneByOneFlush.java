package org.reconmuc.component.relaxed;

import java.util.List;
import org.reconmuc.component.transport.RenderedStanza;

/** Aggregation {@code none} (reconmuc.md §5.9 rule 4): each message on its own, as broadcast, with its delay. */
final class OneByOneFlush<O extends Recipient<O>> implements ShareableFlush<O> {

    @Override
    public void sendToAll(FanoutHost<O> room, List<O> occupants, List<MessageLog.Entry<O>> entries) {
        for (MessageLog.Entry<O> e : entries) {
            room.send(occupants, RenderedStanza.of(e.heldDelayed(room.roomJid())));
            for (int i = 0; i < occupants.size(); i++) {
                room.counters().delayedSent();
            }
        }
    }
}
