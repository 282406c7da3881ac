package org.reconmuc.component.relaxed;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.reconmuc.codec.batch.BatchEncoding;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.transport.RenderedStanza;
import org.xmpp.packet.Message;

/**
 * How a flush or release reaches an occupant (reconmuc.md §5.9): one implementation per
 * aggregation, each rendering the logged entries in its form and sending them to every session.
 *
 * @param <O> the room's occupant type
 */
public interface FlushForm<O extends Recipient<O>> {

    /** Sends these entries (room order, still in the log) to every session of {@code occupant}. */
    void send(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries);

    /**
     * Sends these entries as one batch whose last is the message sent at once, as its live item,
     * and the others what was retained, carried along (reconmuc.md §5.9 rule 8.6). Only the forms
     * of aggregations that {@link Aggregation#carriesLive() carry live items} are asked.
     */
    default void sendLive(FanoutHost<O> room, O occupant, List<MessageLog.Entry<O>> entries) {
        throw new IllegalStateException(getClass().getSimpleName() + " carries no live items");
    }

    /** The forms of a room: the deflate streams are the room's own (one per session), made when {@code streams} is first asked. */
    static <O extends Recipient<O>> Map<Aggregation, FlushForm<O>> forRoom(Supplier<DeflateStreams> streams) {
        Map<Aggregation, FlushForm<O>> forms = new EnumMap<>(Aggregation.class);
        forms.put(Aggregation.NONE, new OneByOneFlush<>());
        forms.put(Aggregation.PLAIN, new ForwardedFlush<>(false));
        forms.put(Aggregation.DEFLATE, new ForwardedFlush<>(true));
        forms.put(Aggregation.COMPACT, new CompactFlush<>());
        forms.put(Aggregation.COMPACT_LIVE, new CompactFlush<>());
        forms.put(Aggregation.COMPACT_DEFLATE, new StreamFlush<>(streams, BatchEncoding.DEFLATE_STREAM));
        forms.put(Aggregation.COMPACT_DEFLATE_LIVE, new StreamFlush<>(streams, BatchEncoding.DEFLATE_LIVE));
        return forms;
    }

    /** Counts a batch of {@code entries}, of which the last is live (not retained) if {@code live}. */
    static void countBatch(FanoutHost<?> room, List<?> entries, boolean live) {
        int retained = live ? entries.size() - 1 : entries.size();
        if (retained > 0) {
            room.counters().batchSent(retained);
        }
    }

    /** A batch message from the room, rendered once; compact forms carry no id (§5.9 rule 1). */
    static RenderedStanza batchMessage(String roomJid, String batchXml, String id) {
        Message m = new PrerenderedMessage(batchXml);
        m.setType(Message.Type.groupchat);
        m.setFrom(roomJid);
        if (id != null) {
            m.setID(id);
        }
        return RenderedStanza.of(m);
    }
}
