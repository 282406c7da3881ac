package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The handlers attached to each {@link RoomEvent}, called in the order they were attached (as
 * Prosody's {@code module:hook} on a MUC event). An event that can be refused stops at the
 * first handler that refuses it.
 */
public final class RoomEvents {
    private final Map<RoomEvent<?>, List<Consumer<?>>> handlers = new HashMap<>();

    /** The events with the handlers {@code features} attach, in their order. */
    public static RoomEvents of(List<? extends RoomFeature> features) {
        RoomEvents events = new RoomEvents();
        for (RoomFeature feature : features) {
            feature.attach(events);
        }
        return events;
    }

    /** Calls {@code handler} each time a room fires {@code event}. */
    public <E> void on(RoomEvent<E> event, Consumer<? super E> handler) {
        handlers.computeIfAbsent(event, e -> new ArrayList<>()).add(handler);
    }

    /** Tells every handler of {@code event} about {@code payload}, and returns it with what they made of it. */
    @SuppressWarnings("unchecked")
    public <E> E fire(RoomEvent<E> event, E payload) {
        for (Consumer<?> handler : handlers.getOrDefault(event, List.of())) {
            ((Consumer<E>) handler).accept(payload);
            if (payload instanceof RoomEvent.Refusable r && r.refused()) {
                break;
            }
        }
        return payload;
    }
}
