package org.reconmuc.component.consistency;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Who needs a groupchat message at once whatever their filters, and the keys filters match it by
 * (reconmuc.md §5.6 rules 1–5): its sender (the echo), its parent's author (a reply), the occupant
 * a reply names when the room no longer knows the parent, and the occupants it addresses; its
 * topics and its sender's nick. Pure: the room and the benchmarks both decide through it, so the
 * benchmarks measure the room's rule, not a copy of it.
 *
 * @param keys   what filters match: the message's topics and {@code nick} of its sender
 * @param direct the relaxed readers that need it now whatever their filters, each once, in rule order
 */
public record Urgency<R>(Set<FilterKey> keys, List<Reader<R>> direct) {

    /**
     * The decision for one message. Readers are null for occupants that are absent or in standard
     * mode (they get every message at once anyway).
     *
     * @param parentKnown     whether the message replies to a message the room's log still holds
     * @param parentAuthor    that parent's author, if present and relaxed
     * @param namedInReply    the occupant the reply's {@code to} names, used only when the parent is unknown
     * @param addressed       the occupants its body or mentions address
     */
    public static <R> Urgency<R> of(String senderNick, Collection<FilterKey> topics, Reader<R> sender,
            boolean parentKnown, Reader<R> parentAuthor, Reader<R> namedInReply, Collection<Reader<R>> addressed) {
        Set<FilterKey> keys = new HashSet<>(topics);
        keys.add(FilterKey.nick(senderNick));
        List<Reader<R>> direct = new ArrayList<>(2 + addressed.size());
        add(direct, sender);
        add(direct, parentKnown ? parentAuthor : namedInReply);
        for (Reader<R> r : addressed) {
            add(direct, r);
        }
        return new Urgency<>(keys, direct);
    }

    private static <R> void add(List<Reader<R>> direct, Reader<R> r) {
        if (r != null && !direct.contains(r)) {
            direct.add(r);
        }
    }
}
