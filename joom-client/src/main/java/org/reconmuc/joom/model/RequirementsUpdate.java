package org.reconmuc.joom.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The request that takes a room from what Joom asked before to what it wants now (reconmuc.md
 * §4.2: a partial update names only what changes): the first one states everything; a topic switch
 * deactivates the old topic and activates the new one; a settings change sends the new bounds.
 *
 * @param filter the filter entries to send, in order (empty and {@code filterElement} false: no filter)
 * @param filterElement whether to send a {@code <filter/>} at all (the first request always does)
 * @param timeSeconds the time bound to send, or null
 * @param volume the volume bound to send, or null
 * @param deflate whether to ask for aggregation {@code deflate} (the first request)
 */
public record RequirementsUpdate(List<TopicChange> filter, boolean filterElement, Integer timeSeconds, Integer volume,
        boolean deflate) {

    /** A {@code <filter-entry element='topic'/>}: activate or deactivate a topic. */
    public record TopicChange(String topic, boolean active) {
    }

    public RequirementsUpdate {
        filter = List.copyOf(filter);
    }

    /** Whether there is nothing to send. */
    public boolean isEmpty() {
        return !filterElement && timeSeconds == null && volume == null && !deflate;
    }

    /** The update from {@code before} (null: nothing sent yet in this room) to {@code after}. */
    public static RequirementsUpdate between(JoomRequirements before, JoomRequirements after) {
        Objects.requireNonNull(after, "after");
        List<TopicChange> filter = new ArrayList<>();
        if (before == null) {
            if (after.activeTopic() != null) {
                filter.add(new TopicChange(after.activeTopic(), true));
            }
            return new RequirementsUpdate(filter, true, after.timeSeconds(), after.volume(), true);
        }
        if (!Objects.equals(before.activeTopic(), after.activeTopic())) {
            if (before.activeTopic() != null) {
                filter.add(new TopicChange(before.activeTopic(), false));
            }
            if (after.activeTopic() != null) {
                filter.add(new TopicChange(after.activeTopic(), true));
            }
        }
        Integer time = before.timeSeconds() == after.timeSeconds() ? null : after.timeSeconds();
        Integer volume = before.volume() == after.volume() ? null : after.volume();
        return new RequirementsUpdate(filter, !filter.isEmpty(), time, volume, false);
    }
}
