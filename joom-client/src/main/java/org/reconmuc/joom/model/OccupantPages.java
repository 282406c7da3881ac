package org.reconmuc.joom.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What is listed of a big room's occupants, loaded a page of disco#items at a time as the user
 * scrolls (XEP-0045 §6.5 with XEP-0059): the nicks in the room's order without duplicates, the
 * room's size as last stated, whether the last page came, and where the next page starts. Immutable.
 *
 * @param count the room's size (its disco#info), or null when unknown
 * @param nicks the nicks listed, in the room's order
 * @param complete whether a page came shorter than asked: the end of the list
 * @param back how many nicks before the last one the next page starts (occupants that left: {@link #afterMissing()})
 */
public record OccupantPages(Integer count, List<String> nicks, boolean complete, int back) {
    /** The most one page holds: the room answers at most 100 (the component's RoomDisco). */
    public static final int PAGE = 100;

    public OccupantPages {
        nicks = List.copyOf(nicks);
    }

    /** Nothing listed yet, in a room of {@code count}. */
    public static OccupantPages of(Integer count) {
        return new OccupantPages(count, List.of(), false, 0);
    }

    /** The nick the next page comes after: null for the first page. Meaningless once complete. */
    public String after() {
        int i = nicks.size() - 1 - back;
        return i >= 0 ? nicks.get(i) : null;
    }

    /**
     * With a page: its nicks not yet listed appended; fewer than {@code max} is the end.
     *
     * @param roomSize the room's size now, or null to keep the last known
     */
    public OccupantPages withPage(List<String> page, Integer roomSize, int max) {
        Set<String> all = new LinkedHashSet<>(nicks);
        all.addAll(page);
        return new OccupantPages(roomSize != null ? roomSize : count, new ArrayList<>(all), page.size() < max, 0);
    }

    /**
     * The room no longer knows the occupant the page was to start after (he left between two
     * pages): the next page starts after the one listed before him.
     */
    public OccupantPages afterMissing() {
        return new OccupantPages(count, nicks, complete, back + 1);
    }
}
