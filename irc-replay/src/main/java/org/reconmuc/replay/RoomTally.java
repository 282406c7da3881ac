package org.reconmuc.replay;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntUnaryOperator;

/**
 * What one room's bots saw, against what its senders had acknowledged ({@code irc-replay rooms}).
 * Every acknowledged message must reach every bot: live once, or (after a rejoin) from the
 * discussion history; live twice is a duplicate. Every bot must see the room's messages in one
 * order — the order of the bot that saw most — and each sender's in the order it sent them.
 */
final class RoomTally {
    /** One bot: the messages it got live, in order, and those it got from the history on a rejoin. */
    record BotView(String name, List<Integer> live, Set<Integer> history) {
    }

    /** A message a bot never got. */
    record Lost(String bot, int seq) {
    }

    long expected;
    long lost;
    long caughtUp;
    long duplicated;
    long outOfOrder;
    final List<String> examples = new ArrayList<>();
    /** The first few messages some bot never got, as data (the same ones the examples name). */
    final List<Lost> lostExamples = new ArrayList<>();

    /**
     * @param acknowledged the room's messages echoed to their senders
     * @param speaker      who sent message {@code seq}
     */
    static RoomTally of(String room, List<BotView> bots, Collection<Integer> acknowledged, IntUnaryOperator speaker) {
        RoomTally t = new RoomTally();
        for (BotView b : bots) {
            Map<Integer, Integer> live = new HashMap<>();
            b.live().forEach(seq -> live.merge(seq, 1, Integer::sum));
            for (int seq : acknowledged) {
                t.expected++;
                Integer n = live.get(seq);
                if (n == null && !b.history().contains(seq)) {
                    t.lost++;
                    if (t.example(room + "/" + b.name() + " never got m" + seq)) {
                        t.lostExamples.add(new Lost(b.name(), seq));
                    }
                } else if (n == null) {
                    t.caughtUp++;
                } else if (n > 1) {
                    t.duplicated++;
                    t.example(room + "/" + b.name() + " got m" + seq + " " + n + " times");
                }
            }
        }
        List<Integer> reference = bots.stream().map(BotView::live).max(Comparator.comparingInt(List::size)).orElse(List.of());
        Map<Integer, Integer> position = new HashMap<>();
        for (int k = 0; k < reference.size(); k++) {
            position.putIfAbsent(reference.get(k), k);
        }
        Map<Integer, Integer> lastBySpeaker = new HashMap<>();
        for (int seq : new java.util.LinkedHashSet<>(reference)) {
            int who = speaker.applyAsInt(seq);
            Integer before = lastBySpeaker.put(who, seq);
            if (before != null && before > seq) {
                t.outOfOrder++;
                t.example(room + ": b" + who + " sent m" + before + " before m" + seq + ", the room has them the other way round");
            }
        }
        for (BotView b : bots) {
            int last = -1;
            Set<Integer> seen = new java.util.HashSet<>();
            for (int seq : b.live()) {
                Integer at = position.get(seq);
                if (at == null || !seen.add(seq)) {
                    continue;   // a repeat is counted as a duplicate, not again as disorder
                }
                if (at < last) {
                    t.outOfOrder++;
                    t.example(room + "/" + b.name() + " saw m" + seq + " after a message the room has after it");
                }
                last = Math.max(last, at);
            }
        }
        return t;
    }

    /** Keeps {@code text} among the first few examples; whether it did. */
    private boolean example(String text) {
        if (examples.size() < 5) {
            examples.add(text);
            return true;
        }
        return false;
    }
}
