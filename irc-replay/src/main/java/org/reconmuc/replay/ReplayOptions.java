package org.reconmuc.replay;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.reconmuc.replay.irc.IrcLogs;

/** The replay command's options (see {@link Help}). */
final class ReplayOptions {
    String server = "ejabberd";
    int bots = 800;
    int messages = 5400;
    double rate = 6.0;
    double speed = 0;
    double durationSeconds = 900;
    double joinRate = 3.0;
    int volume = 10;
    int time = 60;
    String aggregate = "plain";
    boolean fixedVolume;
    Workload.Replies replies = Workload.Replies.DETECTED;
    /** Which worlds the bots are in: stream compression on (A), off (B), or half and half. */
    List<World> worlds = List.of(World.A);
    Path logs;
    Path out;
    Path runDir = Path.of(System.getProperty("java.io.tmpdir"), "irc-replay-run");
    long seed = 1;
    double drainSeconds = -1;
    /** After the drain, how much longer to wait while deliveries still arrive (they count as late). */
    double lateWaitSeconds = 600;
    String componentMode = "process";
    /** Where the server runs: "loopback", or "veth" (its own network namespace over a real 1500-MTU link). */
    String link = "loopback";
    String componentHeap = "1g";
    /** The component's store: none (rooms in memory), or sqlite / h2 in the scenario's run directory. */
    String componentStore = "none";
    /** More settings of the component's, as its flags: {@code --component-option occupant-ids=false}. */
    List<String> componentOptions = new ArrayList<>();
    int historySize = -1;
    /** muc#roomconfig_presencebroadcast of the replay room, or null for the room's default (every role). */
    List<String> presenceBroadcast;
    /**
     * muc#roomconfig_presencebroadcast of the server's own MUC's room only (its big-room option
     * beside the component's presence levels in the same run), or null for {@link #presenceBroadcast}.
     */
    List<String> ownMucPresenceBroadcast;
    /**
     * The presence level each bot asks the component for in its join (reconmuc.md §5.17: all,
     * moderators or none), or null: the bots ask for nothing.
     */
    String presenceLevel;
    /** muc#roomconfig_enablelogging of the replay room, or null for the room's default. */
    Boolean roomLogging;
    /** Someone enters the room and leaves again every this many seconds while the logs are replayed (0: nobody). */
    double visitorsEverySeconds;
    boolean perBotSeries;
    boolean status = true;
    /** Run the scenarios at the same time, each on its own server (light runs only: the radio's). */
    boolean concurrent;
    int loginThreads = 4;
    /** At most this many bots speak (the logs' nicks folded onto them); the rest listen. */
    int speakingBots = Integer.MAX_VALUE;
    List<String> scenarioSpecs = new ArrayList<>();

    List<Scenario> scenarios() {
        List<Scenario> list = new ArrayList<>();
        for (String s : scenarioSpecs) {
            list.add(Scenario.parse(s, volume, time, aggregate, fixedVolume));
        }
        return list;
    }

    static List<String> presenceBroadcast(String value) {
        List<String> roles = value.isBlank() || value.equals("none") ? List.of() : List.of(value.split(","));
        for (String r : roles) {
            if (!List.of("moderator", "participant", "visitor").contains(r)) {
                throw new IllegalArgumentException("--presence-broadcast lists roles among moderator, participant and visitor"
                        + " (comma-separated), or is none; not '" + r + "'");
            }
        }
        return roles;
    }

    /** History size of the component: room for every volume drawn (up to 2 x volume) and at least 200. */
    int historySizeFor(List<Scenario> scenarios) {
        if (historySize > 0) {
            return historySize;
        }
        int max = 200;
        for (Scenario s : scenarios) {
            max = Math.max(max, 2 * s.volume());
        }
        return max;
    }

    static ReplayOptions parse(String[] args) {
        ReplayOptions o = new ReplayOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                o.scenarioSpecs.add(a);
                continue;
            }
            String key = a.substring(2);
            String value = null;
            int eq = key.indexOf('=');
            if (eq > 0) {
                value = key.substring(eq + 1);
                key = key.substring(0, eq);
            }
            switch (key) {
                case "per-bot-series" -> {
                    o.perBotSeries = true;
                    continue;
                }
                case "no-status" -> {
                    o.status = false;
                    continue;
                }
                case "concurrent" -> {
                    o.concurrent = true;
                    o.status = false;
                    continue;
                }
                case "no-compression" -> {
                    o.worlds = List.of(World.B);
                    continue;
                }
                default -> {
                    // takes a value
                }
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("--" + key + " needs a value (see --help)");
                }
                value = args[++i];
            }
            try {
                switch (key) {
                    case "server" -> {
                        if (!value.equals("prosody") && !value.equals("ejabberd") && !value.equals("openfire")) {
                            throw new IllegalArgumentException("--server is prosody, ejabberd or openfire");
                        }
                        o.server = value;
                    }
                    case "bots" -> o.bots = positive(key, Integer.parseInt(value));
                    case "messages" -> o.messages = positive(key, Integer.parseInt(value));
                    case "rate" -> {
                        o.rate = Double.parseDouble(value);
                        o.speed = 0;
                    }
                    case "speed" -> o.speed = Double.parseDouble(value);
                    case "duration" -> o.durationSeconds = Double.parseDouble(value);
                    case "join-rate" -> o.joinRate = Double.parseDouble(value);
                    case "volume" -> o.volume = positive(key, Integer.parseInt(value));
                    case "time" -> o.time = positive(key, Integer.parseInt(value));
                    case "aggregate" -> o.aggregate = value;
                    case "volume-draw" -> o.fixedVolume = switch (value) {
                        case "fixed" -> true;
                        case "uniform" -> false;
                        default -> throw new IllegalArgumentException("--volume-draw is fixed or uniform");
                    };
                    case "replies" -> o.replies = Workload.Replies.valueOf(value.toUpperCase(Locale.ROOT));
                    case "compression" -> o.worlds = switch (value) {
                        case "on", "auto", "true" -> List.of(World.A);
                        case "off", "false" -> List.of(World.B);
                        default -> throw new IllegalArgumentException("--compression is on or off");
                    };
                    case "worlds" -> o.worlds = World.parse(value);
                    case "logs" -> o.logs = Path.of(value);
                    case "out" -> o.out = Path.of(value);
                    case "run-dir" -> o.runDir = Path.of(value);
                    case "seed" -> o.seed = Long.parseLong(value);
                    case "drain" -> o.drainSeconds = Double.parseDouble(value);
                    case "late-wait" -> o.lateWaitSeconds = Double.parseDouble(value);
                    case "component" -> {
                        if (!value.equals("process") && !value.equals("inprocess")) {
                            throw new IllegalArgumentException("--component is process or inprocess");
                        }
                        o.componentMode = value;
                    }
                    case "component-heap" -> o.componentHeap = value;
                    case "component-option" -> {
                        int eq2 = value.indexOf('=');
                        if (eq2 <= 0) {
                            throw new IllegalArgumentException("--component-option is NAME=VALUE, a flag of the component's"
                                    + " (see java -jar reconmuc-component.jar --help), not '" + value + "'");
                        }
                        o.componentOptions.add("--" + value.substring(0, eq2));
                        o.componentOptions.add(value.substring(eq2 + 1));
                    }
                    case "component-store" -> {
                        if (!value.equals("none") && !value.equals("sqlite") && !value.equals("h2")) {
                            throw new IllegalArgumentException("--component-store is none, sqlite or h2");
                        }
                        o.componentStore = value;
                    }
                    case "link" -> {
                        if (!value.equals("loopback") && !value.equals("veth")) {
                            throw new IllegalArgumentException("--link is loopback or veth");
                        }
                        o.link = value;
                    }
                    case "history-size" -> o.historySize = positive(key, Integer.parseInt(value));
                    case "login-threads" -> o.loginThreads = positive(key, Integer.parseInt(value));
                    case "presence-broadcast" -> o.presenceBroadcast = presenceBroadcast(value);
                    case "own-muc-presence-broadcast" -> o.ownMucPresenceBroadcast = presenceBroadcast(value);
                    case "presence-level" -> {
                        if (!List.of("all", "moderators", "none").contains(value)) {
                            throw new IllegalArgumentException("--presence-level is all, moderators or none, not '" + value + "'");
                        }
                        o.presenceLevel = value;
                    }
                    case "room-logging" -> o.roomLogging = switch (value) {
                        case "on" -> true;
                        case "off" -> false;
                        default -> throw new IllegalArgumentException("--room-logging is on or off, not '" + value + "'");
                    };
                    case "speaking-bots" -> o.speakingBots = positive(key, Integer.parseInt(value));
                    case "visitors-every" -> {
                        o.visitorsEverySeconds = Double.parseDouble(value);
                        if (!(o.visitorsEverySeconds >= 2)) {
                            throw new IllegalArgumentException("--visitors-every is at least 2 (seconds): a visit lasts one");
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown option --" + key + " (see --help)");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--" + key + ": not a number: '" + value + "'");
            }
        }
        if (o.scenarioSpecs.isEmpty()) {
            throw new IllegalArgumentException("name at least one scenario: standard, off, relaxed (see --help)");
        }
        if (o.speed <= 0 && o.rate <= 0) {
            throw new IllegalArgumentException("--rate or --speed must be > 0");
        }
        if (o.durationSeconds <= 0 || o.joinRate <= 0) {
            throw new IllegalArgumentException("--duration and --join-rate must be > 0");
        }
        if (o.link.equals("veth") && o.componentMode.equals("inprocess")) {
            throw new IllegalArgumentException("--link veth needs --component process (the component runs beside the server,"
                    + " in its namespace, so that its own traffic does not cross the measured link)");
        }
        List<String> labels = o.scenarios().stream().map(Scenario::label).toList();   // validates each
        if (new java.util.HashSet<>(labels).size() != labels.size()) {
            throw new IllegalArgumentException("a scenario is named twice: " + labels);
        }
        if (o.logs == null) {
            o.logs = IrcLogs.defaultDir();
        }
        if (o.out == null) {
            o.out = Path.of("replay-results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        return o;
    }

    private static int positive(String key, int v) {
        if (v <= 0) {
            throw new IllegalArgumentException("--" + key + " must be > 0");
        }
        return v;
    }
}
