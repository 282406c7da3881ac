package org.reconmuc.component.muc;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.xmpp.packet.Message;

/**
 * The room's discussion history: the last {@code capacity} groupchat messages as broadcast,
 * each with its sequence number and time. Oldest first.
 */
final class History {

    record Entry(long seq, Instant at, Message broadcast, int chars) {
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private int capacity;
    private long nextSeq = 1;

    History(int capacity) {
        this.capacity = capacity;
    }

    int capacity() {
        return capacity;
    }

    void setCapacity(int capacity) {
        this.capacity = capacity;
        trim();
    }

    /** Stores a copy of the broadcast message; returns its sequence number. */
    long append(Message broadcast, Instant at) {
        Message stored = broadcast.createCopy();
        stored.setTo((String) null);
        Entry entry = new Entry(nextSeq++, at, stored, stored.toXML().length());
        entries.addLast(entry);
        trim();
        return entry.seq();
    }

    private void trim() {
        while (entries.size() > capacity) {
            entries.removeFirst();
        }
    }

    int size() {
        return entries.size();
    }

    /** The entries a join asked for, oldest first: newest ones kept when a limit cuts. */
    List<Entry> select(HistoryRequest request, Instant now) {
        List<Entry> picked = new ArrayList<>();
        int chars = 0;
        Instant notBefore = request.seconds() == null ? null : now.minusSeconds(request.seconds());
        Iterator<Entry> newestFirst = entries.descendingIterator();
        while (newestFirst.hasNext()) {
            Entry e = newestFirst.next();
            if (request.maxStanzas() != null && picked.size() >= request.maxStanzas()) {
                break;
            }
            if (notBefore != null && e.at().isBefore(notBefore)) {
                break;
            }
            if (request.since() != null && !e.at().isAfter(request.since())) {
                break;
            }
            if (request.maxChars() != null && chars + e.chars() > request.maxChars()) {
                break;
            }
            chars += e.chars();
            picked.add(e);
        }
        java.util.Collections.reverse(picked);
        return picked;
    }
}
