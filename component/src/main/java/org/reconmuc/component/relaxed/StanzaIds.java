package org.reconmuc.component.relaxed;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Ids a room mints: XEP-0359 stanza-ids and the ids of its own messages (batches). A random
 * prefix per room instance, then a counter in base 36: unique within the room across restarts,
 * short, and compressible — a random UUID per message costs ~27 incompressible bytes on every
 * copy sent, which stream compression (XEP-0138) and deflated batches cannot win back.
 */
public final class StanzaIds {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String prefix;
    private long counter;

    public StanzaIds() {
        this(randomPrefix());
    }

    /** Ids with a prefix of the caller's (benchmarks and tests that compare rooms). */
    public StanzaIds(String prefix) {
        this.prefix = prefix;
    }

    private static String randomPrefix() {
        byte[] bytes = new byte[9];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes); // 12 chars, 72 bits
    }

    /** The stanza-id of the message logged as {@code seq}. */
    public String stanzaId(long seq) {
        return prefix + "-" + Long.toString(seq, 36);
    }

    /** An id for a message the room itself sends. */
    public String messageId() {
        return prefix + "-b" + Long.toString(++counter, 36);
    }
}
