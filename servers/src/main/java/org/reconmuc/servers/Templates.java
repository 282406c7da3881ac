package org.reconmuc.servers;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code ${NAME}} placeholders in the deploy/ templates; an unknown one is an error. */
final class Templates {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)}");

    private Templates() {
    }

    static String render(String template, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("template placeholder ${" + m.group(1) + "} has no value");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }
}
