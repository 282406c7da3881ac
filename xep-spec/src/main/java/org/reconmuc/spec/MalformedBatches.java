package org.reconmuc.spec;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Batches every receiver must refuse whole ({@code reconmuc/vectors/malformed/}): bombs, truncated
 * and gapped deflate streams, broken compact items. Each file's leading comment names the rule in a
 * line {@code Refused: <text the refusal contains>} and, for a stream's later batch, the vector the
 * same session received before it ({@code After: <vector>}). The client library and the spec's
 * own tests run them all through their decoders.
 */
public final class MalformedBatches {
    static final String DIR = "vectors/malformed";
    private static final Pattern REFUSED = Pattern.compile("(?m)^\\s*Refused: (.+)$");
    private static final Pattern AFTER = Pattern.compile("(?m)^\\s*After: ([a-z0-9-]+)\\s*$");

    /** One malformed batch: its name, the message stanza holding it, why it is refused, what comes first. */
    public record Case(String name, String stanza, String refusedBecause, List<String> after) {
    }

    private MalformedBatches() {
    }

    public static List<String> list() {
        return Resources.xmlNames(DIR);
    }

    public static Case read(String name) {
        String text = Resources.xml(DIR, name);
        Matcher refused = REFUSED.matcher(text);
        if (!refused.find()) {
            throw new IllegalStateException(name + ": its comment has no 'Refused:' line");
        }
        Matcher after = AFTER.matcher(text);
        return new Case(name, TestVectors.stripLeadingComment(text), refused.group(1).trim(),
                after.find() ? List.of(after.group(1)) : List.of());
    }
}
