package org.reconmuc.codec.batch;

import java.util.List;

/**
 * A batch that passed every check: its form and encoding as sent, and its items in room order,
 * each an XEP-0297 {@code <forwarded/>} element as XML text that declares every namespace it uses
 * (so each parses on its own, with any XML parser). When {@code live}, the last item is a message
 * the room sent at once, in a compact batch or the session's live stream (reconmuc.md §5.9 rule 8.6): it has no
 * delay, and a client shows it as it shows any live message; the others were retained.
 */
public record DecodedBatch(BatchForm form, BatchEncoding encoding, List<String> items, boolean live) {
    public DecodedBatch {
        items = List.copyOf(items);
    }
}
