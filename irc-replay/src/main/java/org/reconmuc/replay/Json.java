package org.reconmuc.replay;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/** A minimal JSON writer for maps, lists, strings, numbers and booleans (pretty-printed). */
final class Json {
    private Json() {
    }

    static String write(Object value) {
        StringBuilder b = new StringBuilder();
        write(b, value, 0);
        b.append('\n');
        return b.toString();
    }

    private static void write(StringBuilder b, Object v, int indent) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof Map<?, ?> m) {
            b.append("{");
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(first ? "\n" : ",\n");
                first = false;
                b.append("  ".repeat(indent + 1));
                string(b, String.valueOf(e.getKey()));
                b.append(": ");
                write(b, e.getValue(), indent + 1);
            }
            if (!first) {
                b.append('\n').append("  ".repeat(indent));
            }
            b.append("}");
        } else if (v instanceof Collection<?> c) {
            b.append("[");
            boolean first = true;
            for (Object o : c) {
                b.append(first ? "\n" : ",\n");
                first = false;
                b.append("  ".repeat(indent + 1));
                write(b, o, indent + 1);
            }
            if (!first) {
                b.append('\n').append("  ".repeat(indent));
            }
            b.append("]");
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                b.append("null");
            } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                b.append((long) d);
            } else {
                // 40.00001 rounds to "40.0000": strip the zeros and then a bare point, or it is not JSON.
                b.append(String.format(Locale.ROOT, "%.4f", d).replaceAll("0+$", "").replaceAll("\\.$", ""));
            }
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else {
            string(b, v.toString());
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
