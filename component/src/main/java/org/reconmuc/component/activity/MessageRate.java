package org.reconmuc.component.activity;

import java.time.Instant;
import java.util.Locale;
import java.util.OptionalDouble;
import org.dom4j.Element;
import org.reconmuc.codec.XmlNamespaces;
import org.xmpp.packet.Message;

/**
 * XEP-0502's messages per hour of one room, from the shift register its implementation notes
 * describe: a counter per clock hour, the last 25 kept; the rate is the sum over the completed
 * hours of the last 24 divided by the hours they cover. Hours before counting began cover
 * nothing: a room counting since 10:50 has, at 12:05, 70 minutes of data, and no figure before
 * 12:00 (XEP-0502 §3: "MUST omit the field" while the data is not available, no placeholder).
 * Constant memory and constant time per message and per request (§7). Deterministic: time is
 * what the caller says.
 */
public final class MessageRate {
    /** XEP-0502's field, in the room's {@code muc#roominfo} form. */
    public static final String FIELD = "{urn:xmpp:muc-activity}message-activity";
    public static final String LABEL = "Messages per hour";
    static final long HOUR_MILLIS = 3_600_000L;
    static final int HOURS = 24;

    private final long sinceMillis;
    /** Counts by clock hour, slot {@code hour % (HOURS + 1)}; {@link #hourOf} says which hour a slot holds. */
    private final long[] counts = new long[HOURS + 1];
    private final long[] hourOf = new long[HOURS + 1];

    /** Counting from {@code since}: the room came into memory (created, restored or taken over). */
    public MessageRate(Instant since) {
        this.sinceMillis = since.toEpochMilli();
        java.util.Arrays.fill(hourOf, Long.MIN_VALUE);
    }

    /**
     * Whether a groupchat message the room logged counts (XEP-0502 §4): it has a body, and it does
     * not take back another (a correction, XEP-0308, which the XEP says not to count; a retraction).
     */
    public static boolean counts(Message message) {
        Element e = message.getElement();
        return message.getBody() != null
                && e.element(org.dom4j.QName.get("replace", XmlNamespaces.CORRECT)) == null
                && e.element(org.dom4j.QName.get("retract", XmlNamespaces.RETRACT)) == null
                && e.element(org.dom4j.QName.get("apply-to", XmlNamespaces.FASTEN)) == null;
    }

    /** A message that counts, received at {@code at}. */
    public void count(Instant at) {
        long hour = Math.floorDiv(at.toEpochMilli(), HOUR_MILLIS);
        int slot = (int) Math.floorMod(hour, (long) counts.length);
        if (hourOf[slot] != hour) {
            hourOf[slot] = hour;
            counts[slot] = 0;
        }
        counts[slot]++;
    }

    /** Messages per hour over the completed hours of the last 24, or empty while they cover less than an hour. */
    public OptionalDouble perHour(Instant now) {
        long current = Math.floorDiv(now.toEpochMilli(), HOUR_MILLIS);
        long windowEnd = current * HOUR_MILLIS;
        long windowStart = Math.max(sinceMillis, (current - HOURS) * HOUR_MILLIS);
        long covered = windowEnd - windowStart;
        if (covered < HOUR_MILLIS) {
            return OptionalDouble.empty();
        }
        long sum = 0;
        for (int slot = 0; slot < counts.length; slot++) {
            if (hourOf[slot] >= current - HOURS && hourOf[slot] < current) {
                sum += counts[slot];
            }
        }
        return OptionalDouble.of(sum * (double) HOUR_MILLIS / covered);
    }

    /** The field's value: a decimal with two places, whatever the locale ("23.42"). */
    public static String format(double perHour) {
        return String.format(Locale.ROOT, "%.2f", perHour);
    }
}
