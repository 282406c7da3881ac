package org.reconmuc.component.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One page request on a room's archive (XEP-0313 filters with XEP-0059 paging): the filters
 * select a result set in log order; {@code after}, {@code before} and {@code max} pick the page.
 *
 * @param start      only messages received at or after this time, or null
 * @param end        only messages received at or before this time, or null
 * @param withNick   only messages sent under this nick, or null
 * @param withSender only messages whose sender's real bare JID is this, or null
 * @param after      the page starts after the message with this archive id, or null
 * @param before     the page ends before the message with this archive id; "" for the last page; or null
 * @param max        the most messages in the page (0: only count them)
 */
public record ArchiveQuery(Instant start, Instant end, String withNick, String withSender, String after,
                           String before, int max) {

    /** A message an archive id names is not in the archive (XEP-0313: item-not-found). */
    public static final class UnknownIdException extends Exception {
        public UnknownIdException(String id) {
            super("No message with the id '" + id + "' in this archive", null, false, false);
        }
    }

    /** The result: the page, oldest first; how many messages the filters select; whether the page reaches the end. */
    public record Page(List<ArchivedMessage> items, int count, boolean complete) {
        public Page {
            items = List.copyOf(items);
        }
    }

    /** Pages from the end of the result set backwards ({@code before}, or the last page). */
    public boolean backwards() {
        return before != null;
    }

    public boolean matches(ArchivedMessage m) {
        return (start == null || !m.at().isBefore(start))
                && (end == null || !m.at().isAfter(end))
                && (withNick == null || withNick.equals(m.nick()))
                && (withSender == null || withSender.equals(m.sender()));
    }

    /**
     * This query over a whole log held in memory, oldest first: what the SQL of {@link JdbcStore}
     * computes in the database.
     */
    public Page over(List<ArchivedMessage> log) throws UnknownIdException {
        long afterSeq = after == null ? Long.MIN_VALUE : seqOf(log, after);
        long beforeSeq = before == null || before.isEmpty() ? Long.MAX_VALUE : seqOf(log, before);
        List<ArchivedMessage> selected = new ArrayList<>();
        for (ArchivedMessage m : log) {
            if (matches(m)) {
                selected.add(m);
            }
        }
        List<ArchivedMessage> window = new ArrayList<>();
        for (ArchivedMessage m : selected) {
            if (m.seq() > afterSeq && m.seq() < beforeSeq) {
                window.add(m);
            }
        }
        boolean complete = window.size() <= max;
        List<ArchivedMessage> page = backwards()
                ? window.subList(Math.max(0, window.size() - max), window.size())
                : window.subList(0, Math.min(max, window.size()));
        return new Page(page, selected.size(), complete);
    }

    private static long seqOf(List<ArchivedMessage> log, String id) throws UnknownIdException {
        for (ArchivedMessage m : log) {
            if (m.stanzaId().equals(id)) {
                return m.seq();
            }
        }
        throw new UnknownIdException(id);
    }
}
