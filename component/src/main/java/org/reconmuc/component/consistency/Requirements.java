package org.reconmuc.component.consistency;

import java.util.Set;

/**
 * An occupant's consistency requirements: messages matching a filter are needed at once; the
 * rest may wait up to {@code timeMillis} or until {@code volume} are pending. Immutable, so
 * occupants with equal requirements may share one instance.
 */
public record Requirements(Set<FilterKey> filters, long timeMillis, int volume, Aggregation aggregation) {

    public Requirements {
        // Kept in the order they were added: results list them that way (reconmuc.md §5.2).
        filters = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(filters));
        if (timeMillis <= 0) {
            throw new IllegalArgumentException("time must be positive");
        }
        if (volume <= 0) {
            throw new IllegalArgumentException("volume must be positive");
        }
        if (aggregation == null) {
            throw new IllegalArgumentException("aggregation is required");
        }
    }

    public boolean matchesAny(Set<FilterKey> keys) {
        for (FilterKey k : keys) {
            if (filters.contains(k)) {
                return true;
            }
        }
        return false;
    }
}
