package org.reconmuc.smack.element;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jivesoftware.smack.util.XmlStringBuilder;

/**
 * The content of {@code <consistency-requirements/>} (reconmuc.md §4, §5.1): in a request, only
 * what it names changes (a partial update); in a result, the occupant's effective requirements.
 * A null part was not given. Immutable; build with {@link #builder()}.
 */
public final class ConsistencyRequirements {
    private static final ConsistencyRequirements EMPTY = new ConsistencyRequirements(null, null, null, null, null, false);
    private static final ConsistencyRequirements STANDARD = new ConsistencyRequirements(null, null, null, null, null, true);

    private final List<FilterEntry> filter;
    private final Long timeSeconds;
    private final Integer volume;
    private final Aggregation aggregation;
    /** The presence level (urn:reconmuc:0 only, §5.17), or null. */
    private final PresenceLevel presenceLevel;
    private final boolean standard;

    private ConsistencyRequirements(List<FilterEntry> filter, Long timeSeconds, Integer volume, Aggregation aggregation,
            PresenceLevel presenceLevel, boolean standard) {
        this.filter = filter == null ? null : Collections.unmodifiableList(new ArrayList<>(filter));
        this.timeSeconds = timeSeconds;
        this.volume = volume;
        this.aggregation = aggregation;
        this.presenceLevel = presenceLevel;
        this.standard = standard;
    }

    /** Nothing named: a get, or a set that opts in with every default (§4.1). */
    public static ConsistencyRequirements empty() {
        return EMPTY;
    }

    /** {@code <standard/>}: return to standard MUC (§4.4), or a result saying the occupant is in standard mode. */
    public static ConsistencyRequirements standard() {
        return STANDARD;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these requirements. */
    public Builder asBuilder() {
        Builder b = new Builder();
        b.filter = filter == null ? null : new ArrayList<>(filter);
        b.timeSeconds = timeSeconds;
        b.volume = volume;
        b.aggregation = aggregation;
        b.presenceLevel = presenceLevel;
        return b;
    }

    /** The filter entries in order; null if there is no {@code <filter/>}, empty for {@code <filter/>}. */
    public List<FilterEntry> getFilter() {
        return filter;
    }

    /** The topics of the active topic entries, as written. */
    public List<String> getActiveTopics() {
        List<String> topics = new ArrayList<>();
        if (filter != null) {
            for (FilterEntry e : filter) {
                if (e.getKind() == FilterEntry.Kind.TOPIC && e.isActive()) {
                    topics.add(e.getValue());
                }
            }
        }
        return topics;
    }

    /** The time bound in seconds, or null. */
    public Long getTimeSeconds() {
        return timeSeconds;
    }

    /** The volume bound, or null. */
    public Integer getVolume() {
        return volume;
    }

    /** The aggregation, or null. */
    public Aggregation getAggregation() {
        return aggregation;
    }

    /**
     * The presence level asked for, or in a result the occupant's where it is not all (reconmuc.md
     * §5.17); null if not named.
     */
    public PresenceLevel getPresenceLevel() {
        return presenceLevel;
    }

    /** Whether this is {@code <standard/>}. */
    public boolean isStandard() {
        return standard;
    }

    /** Whether nothing is named (the element is empty). */
    public boolean isEmpty() {
        return !standard && filter == null && timeSeconds == null && volume == null && aggregation == null
                && presenceLevel == null;
    }

    /** Appends the children, in the order of the schema. */
    void appendChildren(XmlStringBuilder xml) {
        if (standard) {
            xml.emptyElement("standard");
            return;
        }
        if (filter != null) {
            if (filter.isEmpty()) {
                xml.emptyElement("filter");
            } else {
                xml.openElement("filter");
                xml.append(filter);
                xml.closeElement("filter");
            }
        }
        if (timeSeconds != null) {
            xml.element("time", Long.toString(timeSeconds));
        }
        if (volume != null) {
            xml.element("volume", Integer.toString(volume));
        }
        if (aggregation != null) {
            xml.element("aggregation", aggregation.value());
        }
        if (presenceLevel != null) {
            xml.halfOpenElement(PresencesElement.ELEMENT).attribute("level", presenceLevel.value()).closeEmptyElement();
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConsistencyRequirements r && standard == r.standard && Objects.equals(filter, r.filter)
                && Objects.equals(timeSeconds, r.timeSeconds) && Objects.equals(volume, r.volume)
                && aggregation == r.aggregation && presenceLevel == r.presenceLevel;
    }

    @Override
    public int hashCode() {
        return Objects.hash(filter, timeSeconds, volume, aggregation, presenceLevel, standard);
    }

    @Override
    public String toString() {
        if (standard) {
            return "standard";
        }
        return "filter=" + filter + " time=" + timeSeconds + " volume=" + volume + " aggregation=" + aggregation
                + (presenceLevel == null ? "" : " presences=" + presenceLevel.value());
    }

    /** Builds requirements; {@code <standard/>} is {@link ConsistencyRequirements#standard()}. */
    public static final class Builder {
        private List<FilterEntry> filter;
        private Long timeSeconds;
        private Integer volume;
        private Aggregation aggregation;
        private PresenceLevel presenceLevel;

        private Builder() {
        }

        /** Adds a filter entry (and a {@code <filter/>} if there was none). */
        public Builder addFilterEntry(FilterEntry entry) {
            if (filter == null) {
                filter = new ArrayList<>();
            }
            filter.add(Objects.requireNonNull(entry));
            return this;
        }

        /** An empty {@code <filter/>} if none was added yet. */
        public Builder withFilter() {
            if (filter == null) {
                filter = new ArrayList<>();
            }
            return this;
        }

        public Builder setTimeSeconds(long seconds) {
            this.timeSeconds = seconds;
            return this;
        }

        public Builder setVolume(int volume) {
            this.volume = volume;
            return this;
        }

        public Builder setAggregation(Aggregation aggregation) {
            this.aggregation = aggregation;
            return this;
        }

        /** Whose presences the room is to send (reconmuc.md §5.17; urn:reconmuc:0 only). */
        public Builder setPresenceLevel(PresenceLevel level) {
            this.presenceLevel = level;
            return this;
        }

        public ConsistencyRequirements build() {
            return new ConsistencyRequirements(filter, timeSeconds, volume, aggregation, presenceLevel, false);
        }
    }
}
