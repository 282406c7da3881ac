package org.reconmuc.codec.batch;

/**
 * How a batch carries its items: the value of its {@code encoding} attribute (reconmuc.md §5.9).
 * One seam of the codec: a new encoding is a constant here, a writer in {@link Batch} and a case
 * in {@link BatchDecoder#decode} (an encoding with state across batches keeps it in the decoder,
 * which is one per receiving session).
 */
public enum BatchEncoding {
    /** No {@code encoding} attribute: the items are the batch's child elements. */
    PLAIN(null),
    /**
     * {@code encoding='deflate'}: the items' UTF-8 bytes concatenated, compressed as one raw
     * DEFLATE stream, base64 text; {@code size} and {@code compressed-size} give both lengths.
     */
    DEFLATE("deflate"),
    /**
     * {@code encoding='deflate-stream'}: the items' UTF-8 bytes compressed in the receiving
     * session's own raw DEFLATE stream, which runs from batch to batch (sync flush per batch, its
     * trailing {@code 00 00 FF FF} left out); {@code n} numbers the batches of the stream and
     * {@code n='1'} starts a new one; {@code size} is the inflated length (§5.9 rule 8).
     */
    DEFLATE_STREAM("deflate-stream"),
    /**
     * {@code encoding='deflate-live'}: a session's stream of aggregation {@code compact-deflate-live}
     * (§5.9 rule 8.7), where a batch is sent for every message at once and its header would cost
     * more than its items: the batch says only {@code n}. Its form is compact; its items are timed
     * from the Unix epoch (the first item's {@code t} is its time in seconds); no {@code count} or
     * {@code size} (the receiver's own limit guards inflation); the text is {@link Base85}.
     */
    DEFLATE_LIVE("deflate-live");

    private final String attributeValue;

    BatchEncoding(String attributeValue) {
        this.attributeValue = attributeValue;
    }

    /** The {@code encoding} attribute's value, or null when the attribute is absent. */
    public String attributeValue() {
        return attributeValue;
    }

    /** The encoding an {@code encoding} attribute names (null: absent), or null if this codec does not know it. */
    public static BatchEncoding fromAttribute(String value) {
        for (BatchEncoding e : values()) {
            if (e.attributeValue == null ? value == null : e.attributeValue.equals(value)) {
                return e;
            }
        }
        return null;
    }
}
