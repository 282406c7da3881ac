package org.reconmuc.component.testing;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.util.List;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;

/**
 * Hostile XML for the fuzz tests, driven by Jazzer's bytes: the names a parser expects mixed with
 * others, and values that break assumptions (signs, overflows, white space, non-ASCII digits,
 * huge dates, any text XML can carry), repeated fields and deep nesting. Every element is built
 * with dom4j, written out and read back ({@link #asReceived}) so a parser gets what a stanza
 * parser would have given it.
 */
public final class HostileXml {
    /** Numbers that have broken parsers: signs, overflows of int and long, other notations, digits of other scripts. */
    public static final List<String> NUMBERS = List.of("0", "1", "-1", "-0", "+1", " 7 ", "07", "2147483647", "2147483648",
            "-2147483648", "-2147483649", "4294967296", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "-9223372036854775809", "99999999999999999999999999", "1e3", "0x10", "1.5", "1,5",
            "\u0661\u0662", "\uff11", "\u00a05", "", " ", "NaN", "Infinity", "none", "null");
    /** Dates and times: XEP-0082 ones, the edges of what java.time parses, and near misses. */
    public static final List<String> DATES = List.of("2026-01-01T10:00:00Z", "2026-01-01T10:00:00.123456789Z",
            "2026-01-01T10:00:00+14:00", "2026-01-01T10:00:00-18:00", "2026-01-01T10:00:00+18:01", "1970-01-01T00:00:00Z",
            "0000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "+999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z",
            "+1000000000-12-31T23:59:59Z", "-1000000000-01-01T00:00:00Z", "+1000000001-01-01T00:00:00Z",
            "2026-02-30T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T23:59:60Z", "2026-01-01", "2026-01-01T10:00Z",
            "2026-01-01t10:00:00z", "");

    private final FuzzedDataProvider data;

    public HostileXml(FuzzedDataProvider data) {
        this.data = data;
    }

    public FuzzedDataProvider data() {
        return data;
    }

    public boolean chance() {
        return data.consumeBoolean();
    }

    /** A count from 0 to {@code max}. */
    public int count(int max) {
        return data.consumeInt(0, max);
    }

    public <T> T pick(List<T> choices) {
        return choices.get(data.consumeInt(0, choices.size() - 1));
    }

    /** One of {@code known}, or now and then another name (a valid XML name, so the element can be sent). */
    public String name(String... known) {
        if (known.length > 0 && data.consumeInt(0, 7) != 0) {
            return known[data.consumeInt(0, known.length - 1)];
        }
        String raw = data.consumeString(12);
        StringBuilder name = new StringBuilder("x");
        raw.chars().filter(c -> c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.'))
                .forEach(c -> name.append((char) c));
        return name.toString().equals("xmlns") ? "xmlns_" : name.toString();
    }

    /** One of {@code known}, a hostile number, a hostile date, or any text (XML-legal characters only). */
    public String value(String... known) {
        return switch (data.consumeInt(0, 5)) {
            case 0, 1 -> known.length == 0 ? text(32) : known[data.consumeInt(0, known.length - 1)];
            case 2 -> pick(NUMBERS);
            case 3 -> Long.toString(data.consumeLong());
            case 4 -> pick(DATES);
            default -> text(data.consumeInt(0, 3) == 0 ? 2048 : 32);
        };
    }

    /** Up to {@code max} characters of fuzzed text, keeping only what XML 1.0 can carry. */
    public String text(int max) {
        StringBuilder out = new StringBuilder();
        data.consumeString(max).codePoints().filter(HostileXml::xmlChar).forEach(out::appendCodePoint);
        return out.toString();
    }

    /** Now and then junk on {@code e}: unknown attributes, text, unknown children, nesting deeper than any stanza. */
    public void junk(Element e) {
        if (data.consumeInt(0, 7) != 0) {
            return;
        }
        for (int i = count(3); i > 0; i--) {
            e.addAttribute(name(), value());
        }
        if (chance()) {
            e.addText(text(16));
        }
        if (chance()) {
            Element nested = e.addElement(QName.get(name("x", "item", "field", "value"), name("", "urn:other")));
            for (int depth = data.consumeInt(0, 140); depth > 0; depth--) {
                nested = nested.addElement("x");
            }
        }
    }

    /** {@code e} as a parser of stanzas gives it: written out and read back, alone in its document. */
    public static Element asReceived(Element e) {
        try {
            return DocumentHelper.parseText(e.asXML()).getRootElement();
        } catch (DocumentException ex) {
            throw new AssertionError("the fuzz test built XML that does not parse: " + e.asXML(), ex);
        }
    }

    private static boolean xmlChar(int c) {
        return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
                || (c >= 0x10000 && c <= 0x10FFFF);
    }
}
