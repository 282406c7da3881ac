package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.reconmuc.component.config.ServiceConfig;

/**
 * A service's pipeline: the handlers its features attach to each {@link RoomEvent}, called in the
 * order the features were given (as Prosody's {@code module:hook} on a MUC event, with the order
 * declared once instead of by priorities), and the room options they bring, in the same order (the
 * owner's form and disco#info list them so). An event that can be refused stops at the first handler
 * that refuses it; a request at the first that takes it.
 *
 * <p>A handler may be attached behind a {@link Gate}: the core then calls it only in the rooms the
 * gate opens for — those that set the feature's option, or for which it keeps state — without
 * running any of the feature's code in the others, so a plain room's message runs through the core
 * alone.
 */
public final class RoomEvents {
    private final Map<RoomEvent<?>, List<Handler<?>>> handlers = new HashMap<>();
    private final List<RoomOption<?>> options = new ArrayList<>();
    private final ServiceHooks service;

    private record Handler<E>(Gate gate, Consumer<? super E> consumer) {
    }

    private RoomEvents(ServiceHooks service) {
        this.service = service;
    }

    /**
     * The pipeline of {@code features} on a service: each attaches itself once, in order; a room
     * option is one of the room's options too.
     */
    public static RoomEvents attach(List<? extends RoomFeature> features, ServiceHooks service) {
        RoomEvents events = new RoomEvents(service);
        for (RoomFeature feature : features) {
            if (feature instanceof RoomOption<?> option) {
                events.options.add(option);
            }
            feature.attach(events);
        }
        return events;
    }

    /** The service the features are attached to. */
    public ServiceHooks service() {
        return service;
    }

    /** The service's settings, as a feature reads them when it attaches (it may attach nothing where they leave it off). */
    public ServiceConfig config() {
        return service.config();
    }

    /** The room options of the features, in their order: every room's configuration is a value for each. */
    public List<RoomOption<?>> options() {
        return Collections.unmodifiableList(options);
    }

    /** Calls {@code handler} each time a room fires {@code event}. */
    public <E> void on(RoomEvent<E> event, Consumer<? super E> handler) {
        on(event, null, handler);
    }

    /** Calls {@code handler} each time a room that {@code gate} opens for fires {@code event}. */
    public <E> void on(RoomEvent<E> event, Gate gate, Consumer<? super E> handler) {
        handlers.computeIfAbsent(event, e -> new ArrayList<>()).add(new Handler<>(gate, handler));
    }

    /** Tells every handler of {@code event} in {@code room} about {@code payload}, and returns it with what they made of it. */
    @SuppressWarnings("unchecked")
    <E> E fire(Room room, RoomEvent<E> event, E payload) {
        List<Handler<?>> attached = handlers.get(event);
        if (attached == null) {
            return payload;
        }
        for (Handler<?> h : attached) {
            if (h.gate != null && !h.gate.opensFor(room)) {
                continue;
            }
            ((Consumer<E>) h.consumer).accept(payload);
            if (payload instanceof RoomEvent.Refusable r && r.refused()
                    || payload instanceof RoomEvent.Request q && q.taken()) {
                break;
            }
        }
        return payload;
    }

    /**
     * Which rooms a handler runs in, decided by the core from what the room holds: those whose
     * option is set (on, more than 0, not empty), those for which the feature keeps state, or either.
     */
    public sealed interface Gate {
        /** Rooms whose {@code option} is set: on, more than 0, or not empty. */
        static Gate whenSet(RoomOption<?> option) {
            return new OptionSet(option);
        }

        /** Rooms for which the feature has made {@code state}. */
        static Gate whenKept(RoomState<?> state) {
            return new StateKept(state);
        }

        /** Rooms either gate opens for. */
        default Gate or(Gate other) {
            return new Either(this, other);
        }

        boolean opensFor(Room room);
    }

    private record OptionSet(RoomOption<?> option) implements Gate {
        @Override
        public boolean opensFor(Room room) {
            Object value = room.config().get(option);
            return value instanceof Boolean b ? b
                    : value instanceof Integer n ? n > 0
                    : value instanceof String s ? !s.isEmpty()
                    : value != null;
        }
    }

    private record StateKept(RoomState<?> state) implements Gate {
        @Override
        public boolean opensFor(Room room) {
            return room.kept(state) != null;
        }
    }

    private record Either(Gate first, Gate second) implements Gate {
        @Override
        public boolean opensFor(Room room) {
            return first.opensFor(room) || second.opensFor(room);
        }
    }
}
