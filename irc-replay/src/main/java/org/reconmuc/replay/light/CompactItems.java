package org.reconmuc.replay.light;

import java.util.ArrayList;
import java.util.List;

/**
 * What a light bot needs of a compact batch (reconmuc.md §4.10) without expanding it: each item's
 * message id and whether it is live ({@code l='1'}, §4.12), read straight from the {@code <m/>}
 * tags, and the batch's {@code count} checked against them. A batch of any other form or encoding
 * is not read here (null): the bot decodes it with the codec, as it also does with a sample of the
 * compact ones to check this reading against the codec's strict one ({@link LightSession}).
 */
final class CompactItems {
    /** One item: its message id (null if none) and whether it is the batch's live item. */
    record Item(String id, boolean live) {
    }

    private CompactItems() {
    }

    /**
     * The items of {@code batch} (the {@code <batch/>} element's text), or null when it is not a
     * plain compact batch.
     *
     * @throws IllegalArgumentException when its {@code count} disagrees with its items, or a child is
     *                                  not an {@code <m/>}
     */
    static List<Item> read(String batch) {
        if (!"compact".equals(StanzaText.attribute(batch, "form")) || StanzaText.attribute(batch, "encoding") != null) {
            return null;
        }
        int open = StanzaText.tagEnd(batch, 0);
        List<Item> items = new ArrayList<>();
        if (batch.charAt(open - 1) == '/') {
            check(batch, items);
            return items;
        }
        int depth = 1;
        int i = open + 1;
        while (depth > 0) {
            int lt = batch.indexOf('<', i);
            if (lt < 0) {
                throw new IllegalArgumentException("the batch does not end");
            }
            int gt = StanzaText.tagEnd(batch, lt);
            char c = batch.charAt(lt + 1);
            if (c == '/') {
                depth--;
            } else if (c != '?' && c != '!') {
                if (depth == 1) {
                    if (!StanzaText.name(batch.substring(lt, Math.min(gt + 1, lt + 8))).equals("m")) {
                        throw new IllegalArgumentException("a compact batch holds only <m/> items, not " + batch.substring(lt, gt + 1));
                    }
                    items.add(new Item(StanzaText.attribute(batch, lt, "id"), "1".equals(StanzaText.attribute(batch, lt, "l"))));
                }
                if (batch.charAt(gt - 1) != '/') {
                    depth++;
                }
            }
            i = gt + 1;
        }
        check(batch, items);
        return items;
    }

    private static void check(String batch, List<Item> items) {
        String count = StanzaText.attribute(batch, "count");
        if (count != null && Integer.parseInt(count) != items.size()) {
            throw new IllegalArgumentException("count is " + count + " but the batch holds " + items.size() + " items");
        }
    }
}
