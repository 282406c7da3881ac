package org.reconmuc.component.muc;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.dom4j.Element;

/**
 * What discussion history a joining client asked for (XEP-0045 §7.2.15): any mix of
 * maxchars, maxstanzas, seconds and since; every limit given applies. Null fields: no limit.
 */
record HistoryRequest(Integer maxChars, Integer maxStanzas, Integer seconds, Instant since) {

    static final HistoryRequest ALL = new HistoryRequest(null, null, null, null);

    /** Parses {@code <history/>}; throws IllegalArgumentException with a reason on bad values. */
    static HistoryRequest parse(Element history) {
        if (history == null) {
            return ALL;
        }
        return new HistoryRequest(
                nonNegative(history, "maxchars"),
                nonNegative(history, "maxstanzas"),
                nonNegative(history, "seconds"),
                instant(history.attributeValue("since")));
    }

    private static Integer nonNegative(Element e, String attribute) {
        String v = e.attributeValue(attribute);
        if (v == null) {
            return null;
        }
        try {
            long n = Long.parseLong(v.trim());
            if (n < 0) {
                throw new IllegalArgumentException("history '" + attribute + "' must not be negative");
            }
            return (int) Math.min(n, Integer.MAX_VALUE);
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("history '" + attribute + "' is not a number: " + v);
        }
    }

    private static Instant instant(String v) {
        if (v == null) {
            return null;
        }
        try {
            return Instant.parse(v.trim());
        } catch (DateTimeParseException ex) {
            throw new IllegalArgumentException("history 'since' is not an XEP-0082 date-time: " + v);
        }
    }
}
