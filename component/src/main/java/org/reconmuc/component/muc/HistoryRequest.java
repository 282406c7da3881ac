package org.reconmuc.component.muc;

import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dom4j.Element;

/**
 * What discussion history a joining client asked for (XEP-0045 §7.2.15): any mix of
 * maxchars, maxstanzas, seconds and since; every limit given applies. Null fields: no limit.
 *
 * <p>Read as Prosody's {@code history.lib.lua} reads it, so that no value refuses a join: a
 * value that is not a number (Lua's {@code tonumber}) or not an XEP-0082 date-time is ignored,
 * as if absent; a negative count asks for nothing, a negative {@code seconds} for a window that
 * starts in the future (nothing either); fractions count down to whole stanzas and characters.
 *
 * @param within the {@code seconds} window, or null
 */
public record HistoryRequest(Integer maxChars, Integer maxStanzas, Duration within, Instant since) {

    public static final HistoryRequest ALL = new HistoryRequest(null, null, null, null);

    /** Lua's decimal and hexadecimal numerals, with the blanks {@code tonumber} allows around them. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern HEX = Pattern.compile("([+-]?)0[xX]([0-9a-fA-F]+)");
    /** Prosody's {@code util.datetime.parse}: dashes optional, seconds with any fraction, then Z, an offset or nothing (UTC). */
    private static final Pattern DATE_TIME = Pattern.compile(
            "(\\d{4})-?(\\d{2})-?(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})(\\.\\d*)?(.*)", Pattern.DOTALL);
    private static final Pattern OFFSET = Pattern.compile("([+-])(\\d{2}):?(\\d*).*", Pattern.DOTALL);
    /** Beyond any history a room keeps (about 31,700 years), and within what {@link Instant} can subtract. */
    private static final long MAX_SECONDS = 1_000_000_000_000L;

    public static HistoryRequest parse(Element history) {
        if (history == null) {
            return ALL;
        }
        Double seconds = number(history.attributeValue("seconds"));
        return new HistoryRequest(
                count(number(history.attributeValue("maxchars"))),
                count(number(history.attributeValue("maxstanzas"))),
                seconds == null ? null : window(seconds),
                instant(history.attributeValue("since")));
    }

    /** The number {@code v} says, as Lua's {@code tonumber} reads it (a double: 1e999 is infinite), or null. */
    private static Double number(String v) {
        if (v == null) {
            return null;
        }
        String s = v.strip();
        Matcher hex = HEX.matcher(s);
        if (hex.matches()) {
            double n = new BigInteger(hex.group(2), 16).doubleValue();
            return hex.group(1).equals("-") ? -n : n;
        }
        return DECIMAL.matcher(s).matches() ? Double.parseDouble(s) : null;
    }

    /** A count of stanzas or characters: negatives ask for none, fractions count whole ones. */
    private static Integer count(Double n) {
        if (n == null) {
            return null;
        }
        return n <= 0 ? 0 : n >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) Math.floor(n);
    }

    private static Duration window(double seconds) {
        double bounded = Math.max(-MAX_SECONDS, Math.min(MAX_SECONDS, seconds));
        return Duration.ofMillis((long) Math.floor(bounded * 1000));
    }

    private static Instant instant(String v) {
        if (v == null) {
            return null;
        }
        Matcher m = DATE_TIME.matcher(v);
        if (!m.matches()) {
            return null;
        }
        try {
            LocalDateTime local = LocalDateTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)),
                    Integer.parseInt(m.group(6)));
            Instant at = local.toInstant(offset(m.group(8)));
            String fraction = m.group(7);
            if (fraction != null && fraction.length() > 1) {
                at = at.plusNanos(Long.parseLong((fraction.substring(1) + "00000000").substring(0, 9)));
            }
            return at;
        } catch (DateTimeException | IllegalArgumentException invalid) {
            return null;
        }
    }

    /** The zone designator: Z or nothing is UTC; an offset's minutes count only as two digits (as Prosody). */
    private static ZoneOffset offset(String zone) {
        if (zone.isEmpty() || zone.equals("Z")) {
            return ZoneOffset.UTC;
        }
        Matcher m = OFFSET.matcher(zone);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a zone: " + zone);
        }
        int hours = Integer.parseInt(m.group(2));
        int minutes = m.group(3).length() == 2 ? Integer.parseInt(m.group(3)) : 0;
        int sign = m.group(1).equals("-") ? -1 : 1;
        return ZoneOffset.ofTotalSeconds(sign * (hours * 3600 + minutes * 60));
    }
}
