package org.reconmuc.component.muc;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.dom4j.Element;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.Delivery;
import org.reconmuc.component.consistency.FilterKey;
import org.reconmuc.component.consistency.Requirements;
import org.reconmuc.component.limits.BoundedMap;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.protocol.PresenceLevel;
import org.reconmuc.component.protocol.PresencesElement;
import org.reconmuc.component.protocol.ProtocolException;
import org.reconmuc.component.protocol.RequirementsRequest;
import org.reconmuc.component.relaxed.Fanout;
import org.reconmuc.component.relaxed.RelaxedState;
import org.xmpp.packet.IQ;

/**
 * An occupant's consistency requirements (reconmuc.md §5.1, §5.2, §5.8): reading them, opting in,
 * partial updates within the room's limits, returning to standard; what a change releases or
 * flushes goes out through the room's fan-out after the result.
 */
public final class RoomRequirements {
    static final long DEFAULT_TIME_SECONDS = 60;
    static final int DEFAULT_VOLUME = 20;

    private final Room room;
    private final RelaxedState<Occupant> state;
    private final Fanout<Occupant> fanout;
    /**
     * Equal requirements are one object: in a big room most occupants state the same few
     * (a third of a relaxed occupant's memory otherwise). Bounded in bytes
     * ({@code requirements-cache-bytes}), least recently used out: bounded by count alone, an
     * occupant stating set after set of long nick filters made the room keep ~270 MB.
     */
    private final BoundedMap<InternKey, Requirements> interned;

    /** Order matters: results list filter entries in the order the occupant added them. */
    private record InternKey(List<FilterKey> filters, long timeMillis, int volume, Aggregation aggregation) {
    }

    RoomRequirements(Room room, RelaxedState<Occupant> state, Fanout<Occupant> fanout) {
        this.room = room;
        this.state = state;
        this.fanout = fanout;
        this.interned = BoundedMap.leastRecentlyUsedOut(room.context().config().requirementsCacheBytes(),
                (key, requirements) -> bytes(key));
    }

    public void handle(IQ iq, Occupant sender) {
        if (sender == null) {
            room.output().error(iq, Condition.NOT_ACCEPTABLE, "cancel", "Only occupants of this room may state consistency requirements");
            return;
        }
        RequirementsRequest request;
        try {
            request = RequirementsRequest.parse(iq.getChildElement());
        } catch (ProtocolException e) {
            refuse(iq, e);
            return;
        }
        if (iq.getType() == IQ.Type.get) {
            if (!request.isEmpty()) {
                room.output().error(iq, Condition.BAD_REQUEST, "A get carries an empty <consistency-requirements/>");
                return;
            }
            answer(iq, request, sender, room.presence().levels().levelOf(sender));
            return;
        }
        List<Delivery<Occupant>> deliveries = new ArrayList<>();
        boolean wasRelaxed = sender.reader() != null;
        if (request.standard()) {
            state.returnToStandard(sender, deliveries);
        } else {
            Requirements next;
            try {
                next = merge(sender.reader() == null ? null : sender.reader().requirements(), request);
            } catch (ProtocolException e) {
                refuse(iq, e);
                return;
            }
            state.relax(sender, next, deliveries);
        }
        PresenceLevels levels = room.presence().levels();
        answer(iq, request, sender, request.presences() != null ? request.presences() : levels.levelOf(sender));
        if (request.presences() != null) {
            levels.change(sender, request.presences());   // what the new level needs, after the result
        }
        if (!wasRelaxed && sender.reader() != null) {
            room.carry().startedRelaxed(sender);
        } else {
            room.carry().changed(sender);
        }
        // A successful set starts the occupant's deflate streams anew (§5.9 rule 8): a client that lost
        // its stream asks again for its aggregation.
        state.restartStreams(sender);
        fanout.deliverFlushes(deliveries);
    }

    /**
     * An occupant's requirements as its room's last owner wrote them ({@link RoomCarry}), within
     * today's limits.
     */
    Requirements carried(Element stored) throws ProtocolException {
        RequirementsRequest request = RequirementsRequest.parse(stored);
        if (request.standard()) {
            throw new ProtocolException(ProtocolException.Kind.BAD_REQUEST, "no requirements");
        }
        return merge(null, request);
    }

    /** The effective requirements, and in urn:reconmuc:0 the presence level where it is not {@code all} (§5.17). */
    private void answer(IQ iq, RequirementsRequest request, Occupant sender, PresenceLevel level) {
        IQ result = IQ.createResultIQ(iq);
        Element effective = RequirementsRequest.render(request.namespace(),
                sender.reader() == null ? null : sender.reader().requirements());
        if (level != PresenceLevel.ALL && PresencesElement.NAMESPACE.equals(request.namespace())) {
            effective.add(new PresencesElement(level).render(request.namespace()));
        }
        result.setChildElement(effective);
        room.output().send(result);
    }

    /** A request over the service's bounds is a policy-violation, anything else malformed a bad-request (both modify). */
    private void refuse(IQ iq, ProtocolException e) {
        room.output().error(iq, e.kind() == ProtocolException.Kind.POLICY_VIOLATION ? Condition.POLICY_VIOLATION
                : Condition.BAD_REQUEST, "modify", e.getMessage());
    }

    /** The requirements after a partial update, checked against the service's limits. */
    private Requirements merge(Requirements current, RequirementsRequest request) throws ProtocolException {
        int capacity = state.historyCapacity();
        Set<FilterKey> filters = new LinkedHashSet<>(current == null ? Set.of() : current.filters());
        for (RequirementsRequest.Entry e : request.entries()) {
            if (e.active()) {
                filters.add(e.key());
            } else {
                filters.remove(e.key());
            }
        }
        long time = request.timeSeconds() != null ? request.timeSeconds()
                : current != null ? current.timeMillis() / 1000
                : Math.min(DEFAULT_TIME_SECONDS, room.context().config().maxTimeSeconds());
        int volume = request.volume() != null ? request.volume()
                : current != null ? current.volume() : Math.min(DEFAULT_VOLUME, capacity);
        Aggregation aggregation = request.aggregation() != null ? request.aggregation()
                : current != null ? current.aggregation() : Aggregation.PLAIN;
        int maxFilters = room.context().config().maxFilterEntries();
        if (filters.size() > maxFilters) {
            throw new ProtocolException(ProtocolException.Kind.POLICY_VIOLATION,
                    "At most " + maxFilters + " filter entries may be active; this request would make " + filters.size());
        }
        int maxTime = room.context().config().maxTimeSeconds();
        if (time > maxTime) {
            throw new ProtocolException(ProtocolException.Kind.POLICY_VIOLATION,
                    "<time/> may be at most " + maxTime + " seconds");
        }
        if (volume > capacity) {
            throw new ProtocolException(ProtocolException.Kind.POLICY_VIOLATION,
                    "<volume/> may not exceed the room's history size (" + capacity + " messages)");
        }
        return intern(new InternKey(List.copyOf(filters), time * 1000, volume, aggregation), filters);
    }

    /** The one object for these requirements: kept if it fits, the least recently used dropped to make room. */
    private Requirements intern(InternKey key, Set<FilterKey> filters) {
        Requirements shared = interned.get(key);
        if (shared != null) {
            return shared;
        }
        Requirements fresh = new Requirements(filters, key.timeMillis(), key.volume(), key.aggregation());
        interned.put(key, fresh);
        return fresh;
    }

    /**
     * About what a kept set costs: the key's list and the requirements' set each refer to every
     * filter (its key object and its string, two bytes a character at most), plus both objects.
     */
    private static long bytes(InternKey key) {
        long bytes = 256;
        for (FilterKey f : key.filters()) {
            bytes += 128 + 2L * f.value().length();
        }
        return bytes;
    }

    /** Bytes of requirement sets the room keeps now (as {@link #bytes} counts them). */
    long keptBytes() {
        return interned.weight();
    }
}
