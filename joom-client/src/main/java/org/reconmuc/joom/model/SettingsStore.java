package org.reconmuc.joom.model;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * {@link Settings} in {@code settings.properties} in the user's config directory: the system
 * property {@code joom.config.dir}, else {@code $XDG_CONFIG_HOME/joom}, else {@code ~/.config/joom}.
 * A missing or broken file gives the defaults (what it holds is a convenience, not data).
 */
public final class SettingsStore {
    private static final String FILE = "settings.properties";

    private final Path file;

    public SettingsStore(Path directory) {
        this.file = directory.resolve(FILE);
    }

    /** The store in the user's config directory. */
    public static SettingsStore inUserConfig() {
        String override = System.getProperty("joom.config.dir");
        if (override != null && !override.isBlank()) {
            return new SettingsStore(Path.of(override));
        }
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
        return new SettingsStore(base.resolve("joom"));
    }

    public Path file() {
        return file;
    }

    /** The saved settings, each missing or unreadable value replaced by its default. */
    public Settings load() {
        Properties p = new Properties();
        if (Files.isRegularFile(file)) {
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (IOException | IllegalArgumentException e) {
                return Settings.DEFAULTS;
            }
        }
        Settings d = Settings.DEFAULTS;
        return new Settings(p.getProperty("server", d.server()), number(p, "port", d.port(), 1, 65535),
                p.getProperty("jid", d.jid()), Boolean.parseBoolean(p.getProperty("anonymous", "false")),
                p.getProperty("room", d.room()), p.getProperty("nick", d.nick()),
                number(p, "time", d.timeSeconds(), 1, 86_400), number(p, "volume", d.volume(), 1, 10_000),
                p.getProperty("topic", d.topic()));
    }

    private static int number(Properties p, String key, int fallback, int min, int max) {
        try {
            int n = Integer.parseInt(p.getProperty(key, Integer.toString(fallback)).strip());
            return n < min || n > max ? fallback : n;
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** Writes the settings (atomically: a crash leaves the old file or the new one). */
    public void save(Settings s) throws IOException {
        Properties p = new Properties();
        p.setProperty("server", s.server());
        p.setProperty("port", Integer.toString(s.port()));
        p.setProperty("jid", s.jid());
        p.setProperty("anonymous", Boolean.toString(s.anonymous()));
        p.setProperty("room", s.room());
        p.setProperty("nick", s.nick());
        p.setProperty("time", Integer.toString(s.timeSeconds()));
        p.setProperty("volume", Integer.toString(s.volume()));
        p.setProperty("topic", s.topic());
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(FILE + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(w, "Joom: the last account and room");
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
