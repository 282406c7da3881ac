package org.reconmuc.component.config;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Where the rooms are kept, from the {@code store} setting: {@code none} (memory only),
 * {@code sqlite:PATH} (the default kind), {@code h2:PATH}, or a JDBC URL
 * ({@code jdbc:postgresql://host:port/db?user=u&password=p}, {@code jdbc:sqlite:…}, {@code jdbc:h2:…}).
 */
public record StoreLocation(Kind kind, String jdbcUrl) {

    /** The databases the store's SQL is written for. */
    public enum Kind {
        NONE, SQLITE, H2, POSTGRESQL;

        /** The column type for stanzas and forms (any length). */
        public String textType() {
            return this == H2 ? "CHARACTER LARGE OBJECT" : "TEXT";
        }
    }

    public static final StoreLocation NONE = new StoreLocation(Kind.NONE, null);

    /** Parses the setting; the message of the exception says what is accepted. */
    public static StoreLocation parse(String setting) {
        String s = setting == null ? "" : setting.trim();
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.equals("none") || lower.equals("memory")) {
            return NONE;
        }
        if (lower.startsWith("sqlite:") && s.length() > "sqlite:".length()) {
            return new StoreLocation(Kind.SQLITE, "jdbc:sqlite:" + absolute(s.substring("sqlite:".length())));
        }
        if (lower.startsWith("h2:") && s.length() > "h2:".length()) {
            // H2 wants an explicit path; WRITE_DELAY=0: a commit reaches the file before it returns.
            return new StoreLocation(Kind.H2, "jdbc:h2:file:" + absolute(s.substring("h2:".length())) + ";WRITE_DELAY=0");
        }
        if (lower.startsWith("jdbc:postgresql:")) {
            return new StoreLocation(Kind.POSTGRESQL, s);
        }
        if (lower.startsWith("jdbc:sqlite:")) {
            return new StoreLocation(Kind.SQLITE, s);
        }
        if (lower.startsWith("jdbc:h2:")) {
            return new StoreLocation(Kind.H2, s);
        }
        throw new IllegalArgumentException("store must be 'none', 'sqlite:PATH', 'h2:PATH' or a JDBC URL"
                + " (jdbc:postgresql://HOST:PORT/DB?user=U&password=P, jdbc:sqlite:…, jdbc:h2:…), not '" + masked(s) + "'");
    }

    private static String absolute(String path) {
        return Path.of(path).toAbsolutePath().normalize().toString();
    }

    /** The URL without passwords, for logs and errors. */
    public String display() {
        if (jdbcUrl == null) {
            return "none (memory only)";
        }
        return masked(jdbcUrl);
    }

    /**
     * {@code text} (a store setting, well-formed or not, or a message quoting one) with its
     * passwords replaced by {@code ***}: {@code password=…} up to the next {@code &} or {@code ;}
     * (PostgreSQL's query, H2's settings), and the password of a {@code //user:password@host}.
     */
    public static String masked(String text) {
        return text.replaceAll("(?i)(password\\s*=)[^&;]*", "$1***")
                .replaceAll("(//[^/@:?#]*:)[^/@]*@", "$1***@");
    }

    /** {@code message} (a driver's, say) with this location's passwords masked wherever it quotes them. */
    public String redact(String message) {
        if (message == null || jdbcUrl == null) {
            return message;
        }
        String result = masked(message);
        java.util.regex.Matcher password = java.util.regex.Pattern.compile("(?i)password\\s*=([^&;]*)").matcher(jdbcUrl);
        while (password.find()) {
            if (!password.group(1).isEmpty()) {
                result = result.replace(password.group(1), "***");
            }
        }
        return result;
    }
}
