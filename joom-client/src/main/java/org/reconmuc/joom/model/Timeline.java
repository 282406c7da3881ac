package org.reconmuc.joom.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every message received, in the order the room received them: a delayed message is placed at
 * its original time, not at the end; messages with the same time keep their arrival order. A
 * message already held (same key) is not added twice (reconmuc.md §5.13 rule 3).
 */
public final class Timeline {
    private record Entry(ChatMessage message, long arrival) {
    }

    private static final Comparator<Entry> ORDER = Comparator.<Entry, java.time.Instant>comparing(e -> e.message.sentAt())
            .thenComparingLong(Entry::arrival);

    private final List<Entry> entries = new ArrayList<>();
    private final Set<String> keys = new HashSet<>();
    private long arrivals;

    /** Adds the message at its place; returns its index, or -1 if it was already held. */
    public int add(ChatMessage message) {
        if (!keys.add(message.key())) {
            return -1;
        }
        Entry e = new Entry(message, arrivals++);
        int at = Collections.binarySearch(entries, e, ORDER);
        int index = at < 0 ? -at - 1 : at + 1;
        entries.add(index, e);
        return index;
    }

    public int size() {
        return entries.size();
    }

    public ChatMessage get(int index) {
        return entries.get(index).message;
    }

    /** The messages in order. */
    public List<ChatMessage> messages() {
        List<ChatMessage> all = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            all.add(e.message);
        }
        return all;
    }

    /** The message with this room stanza-id, or null. */
    public ChatMessage byStanzaId(String stanzaId) {
        if (stanzaId == null) {
            return null;
        }
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (stanzaId.equals(entries.get(i).message.stanzaId())) {
                return entries.get(i).message;
            }
        }
        return null;
    }
}
