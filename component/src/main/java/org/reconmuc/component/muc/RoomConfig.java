package org.reconmuc.component.muc;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.reconmuc.component.config.ServiceConfig;

/**
 * A room's configuration (XEP-0045 §10.2, {@code muc#roomconfig}): a value for each of its
 * {@link #options()} — the core's {@link RoomOptions} and those its service's features bring —
 * read with {@link #get}. Immutable: the owner form produces a new one, so a half-applied invalid
 * form can never be seen.
 */
public final class RoomConfig {
    private final List<RoomOption<?>> options;
    private final Map<RoomOption<?>, Object> values;

    private RoomConfig(List<RoomOption<?>> options, Map<RoomOption<?>, Object> values) {
        this.options = options;
        this.values = values;
    }

    /** The service's bounds and defaults for room options. */
    public record Limits(int maxHistory, int maxUsers, boolean persistentByDefault) {
        public static Limits of(ServiceConfig service) {
            return new Limits(service.historySize(), service.maxOccupantsPerRoom(), service.roomDefaultPersistent());
        }

        /** No bounds: a stored form is read whole, then brought within today's limits. */
        public Limits unbounded() {
            return new Limits(Integer.MAX_VALUE, Integer.MAX_VALUE, persistentByDefault);
        }
    }

    /** A new room's configuration: each of {@code options}, in the order of the owner's form, at its default. */
    public static RoomConfig defaults(List<RoomOption<?>> options, Limits limits) {
        Map<RoomOption<?>, Object> values = new HashMap<>();
        for (RoomOption<?> option : options) {
            values.put(option, option.defaultValue(limits));
        }
        return new RoomConfig(List.copyOf(options), values);
    }

    /** The options, in the order of the owner's form (and of disco#info). */
    public List<RoomOption<?>> options() {
        return options;
    }

    @SuppressWarnings("unchecked")
    public <T> T get(RoomOption<T> option) {
        return (T) values.get(option);
    }

    /** This configuration with one option's value changed. */
    public <T> RoomConfig with(RoomOption<T> option, T value) {
        Map<RoomOption<?>, Object> changed = new HashMap<>(values);
        changed.put(option, value);
        return new RoomConfig(options, changed);
    }

    /** This configuration within the service's limits of today (a stored room's may be older). */
    public RoomConfig withinLimits(Limits limits) {
        RoomConfig within = this;
        for (RoomOption<?> option : options) {
            within = withinLimits(within, option, limits);
        }
        return within;
    }

    private static <T> RoomConfig withinLimits(RoomConfig c, RoomOption<T> option, Limits limits) {
        return c.with(option, option.withinLimits(c.get(option), limits));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RoomConfig other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }
}
