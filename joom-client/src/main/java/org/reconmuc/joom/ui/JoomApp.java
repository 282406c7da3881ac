package org.reconmuc.joom.ui;

import com.formdev.flatlaf.FlatLightLaf;
import java.awt.GraphicsEnvironment;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import javax.swing.SwingUtilities;
import org.reconmuc.joom.model.Settings;
import org.reconmuc.joom.model.SettingsStore;
import org.reconmuc.joom.session.JoomSession;

/**
 * Joom's entry point: {@code java -jar joom.jar [options]}, or {@code scripts/joom.sh}. Without
 * {@code --connect} it opens the connect dialog, prefilled with the last account and room.
 */
public final class JoomApp {
    static final String HELP = """
            Joom: the ReConMUC chat client (one active topic at once, the others in compressed batches).

            usage: java -jar joom.jar [options]
              --server HOST[:PORT]  XMPP server (default: the last one, else 127.0.0.1:5222)
              --jid JID             account, e.g. alice@example.org (anonymous: the anonymous domain)
              --password PASSWORD   its password (or the environment variable JOOM_PASSWORD)
              --anonymous           log in with SASL ANONYMOUS
              --room ROOM           room JID, e.g. lobby@reconmuc.localhost
              --nick NICK           nick in the room
              --topic TOPIC         the active topic to start with
              --time SECONDS        relaxed mode: how long other topics may wait (default 60)
              --volume N            relaxed mode: how many may wait (default 20; in a big room the most the room takes)
              --big-room N          a room of more occupants is big: joined at presence level moderators, its
                                    occupants listed a page at a time as you scroll (default 1000)
              --connect             connect at once, without the dialog
              --scale FACTOR        user-interface scale, e.g. 2 on a HiDPI screen (default: the system's)
              --config-dir DIR      where settings.properties lives (default ~/.config/joom)
              --help                this text

            With a local server (scripts/run-local.sh):
              java -jar joom.jar --jid alice@insecure.localhost --password x --room lobby@reconmuc.localhost --nick Alice --connect
            """;

    private JoomApp() {
    }

    /** What the command line asks for, on top of the saved settings. */
    record Launch(Settings settings, String password, boolean connect, String scale, Path configDir, int bigRoom) {
        Launch(Settings settings, String password, boolean connect, String scale, Path configDir) {
            this(settings, password, connect, scale, configDir, JoomSession.BIG_ROOM);
        }
    }

    public static void main(String[] args) {
        Launch launch;
        try {
            launch = parse(args, System.out);
        } catch (IllegalArgumentException e) {
            System.err.println("joom: " + e.getMessage() + " (--help lists the options)");
            System.exit(2);
            return;
        }
        if (launch == null) {
            return; // --help
        }
        if (launch.scale() != null) {
            System.setProperty("sun.java2d.uiScale", launch.scale()); // before the toolkit starts
        }
        if (GraphicsEnvironment.isHeadless()) {
            System.err.println("joom: no display (set DISPLAY, or run it on a desktop)");
            System.exit(2);
        }
        SettingsStore store = store(launch.configDir());
        SwingUtilities.invokeLater(() -> open(launch, store));
    }

    private static SettingsStore store(Path configDir) {
        return configDir == null ? SettingsStore.inUserConfig() : new SettingsStore(configDir);
    }

    /**
     * Parses the command line over the saved settings; null after printing the help.
     *
     * @throws IllegalArgumentException for an unknown option or a bad value
     */
    static Launch parse(String[] args, PrintStream out) {
        Path configDir = null;
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals("--config-dir")) {
                configDir = Path.of(args[i + 1]);
            }
        }
        Settings s = store(configDir).load();
        String password = System.getenv("JOOM_PASSWORD");
        boolean connect = false;
        String scale = null;
        int bigRoom = JoomSession.BIG_ROOM;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--help", "-h" -> {
                    out.print(HELP);
                    return null;
                }
                case "--anonymous" -> s = s.withAccount(s.server(), s.port(), s.jid(), true);
                case "--connect" -> connect = true;
                default -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("unknown option or missing value: " + a);
                    }
                    String v = args[++i];
                    switch (a) {
                        case "--server" -> {
                            int colon = v.lastIndexOf(':');
                            boolean hasPort = colon > 0 && v.indexOf(':') == colon;
                            s = s.withAccount(hasPort ? v.substring(0, colon) : v, hasPort ? number(v.substring(colon + 1), a) : s.port(),
                                    s.jid(), s.anonymous());
                        }
                        case "--jid" -> s = s.withAccount(s.server(), s.port(), v, s.anonymous());
                        case "--password" -> password = v;
                        case "--room" -> s = s.withRoom(v, s.nick());
                        case "--nick" -> s = s.withRoom(s.room(), v);
                        case "--topic" -> s = s.withTopic(v);
                        case "--time" -> s = s.withBounds(number(v, a), s.volume());
                        case "--volume" -> s = s.withBounds(s.timeSeconds(), number(v, a));
                        case "--scale" -> scale = v;
                        case "--big-room" -> bigRoom = number(v, a);
                        case "--config-dir" -> {
                            // read above
                        }
                        default -> throw new IllegalArgumentException("unknown option " + a);
                    }
                }
            }
        }
        if (s.nick().isBlank()) {
            s = s.withRoom(s.room(), ConnectDialog.defaultNick(s.jid()));
        }
        return new Launch(s, password == null ? "" : password, connect, scale, configDir, bigRoom);
    }

    private static int number(String v, String option) {
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(option + " needs a positive number, not '" + v + "'");
    }

    /** Opens a window (on the Swing thread) and connects or shows the connect dialog. */
    static JoomWindow open(Launch launch, SettingsStore store) {
        FlatLightLaf.setup();
        JoomWindow window = new JoomWindow(new JoomController(launch.settings(), store, launch.bigRoom()));
        window.setVisible(true);
        if (launch.connect()) {
            connect(window, launch.settings(), launch.password());
        } else {
            SwingUtilities.invokeLater(() -> new ConnectDialog(window, window.controller).setVisible(true));
        }
        return window;
    }

    /** Connects {@code window}; a failure is shown in its banner. */
    static CompletableFuture<?> connect(JoomWindow window, Settings settings, String password) {
        return window.controller.connect(settings, password).whenComplete((mode, failure) -> {
            if (failure != null) {
                window.problem(failure.getMessage());
            }
        });
    }
}
