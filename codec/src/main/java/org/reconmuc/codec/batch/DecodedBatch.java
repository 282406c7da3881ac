package org.reconmuc.codec.batch;

import java.util.List;

/**
 * A batch that passed every check: its form and encoding as sent, and its items in room order,
 * each an XEP-0297 {@code <forwarded/>} element as XML text that declares every namespace it uses
 * (so each parses on its own, with any XML parser).
 */
public record DecodedBatch(BatchForm form, BatchEncoding encoding, List<String> items) {
    public DecodedBatch {
        items = List.copyOf(items);
    }
}
