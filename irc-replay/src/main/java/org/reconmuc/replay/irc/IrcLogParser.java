package org.reconmuc.replay.irc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.reconmuc.replay.irc.LogLine.Kind;

/**
 * Parses the three line formats of {@code shared/irc-logs} (see its README):
 * <ol>
 * <li>{@code #ubuntu} (Kummerfeld et al.): {@code [03:41] <nick> text}, {@code [03:41]  * nick acts},
 *     and untimed system lines {@code === nick [user@host]  has joined #ubuntu}, {@code has left},
 *     {@code === a is now known as b}, {@code === mode/#ubuntu [+o x]  by y}, {@code === nick smiles};</li>
 * <li>{@code #linux} (Elsner and Charniak): the same message lines, and system lines
 *     {@code === nick entered the room.}, {@code === nick left the room (quit: ...).};</li>
 * <li>new domains (Gouravajhala et al.): {@code rust 2018-05-31 [01:03:31] <nick> text} (mediawiki
 *     has a TAB after {@code >}; ubuntu-meeting has {@code [HH:MM]}), {@code * nick acts},
 *     {@code -eval- text} notices, and {@code ubuntu-meeting 2010-11-08 === a is now known as b}.</li>
 * </ol>
 * The format is detected per line, so one parser reads every file. Times without a date roll over
 * to the next day when they go back by more than an hour.
 */
public final class IrcLogParser {
    /** Optional "channel date " prefix of the new-domains files. */
    private static final Pattern PREFIX = Pattern.compile("^(\\S+) (\\d{4}-\\d{2}-\\d{2}) (.*)$", Pattern.DOTALL);
    private static final Pattern TIME = Pattern.compile("^\\[(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\] ?(.*)$", Pattern.DOTALL);
    private static final Pattern MESSAGE = Pattern.compile("^<\\s*([^>\\s]+)\\s*>\\s?(.*)$", Pattern.DOTALL);
    private static final Pattern ACTION = Pattern.compile("^\\s*\\* (\\S+)\\s*(.*)$", Pattern.DOTALL);
    private static final Pattern NOTICE = Pattern.compile("^-(\\S+?)-\\s?(.*)$", Pattern.DOTALL);
    private static final Pattern SYSTEM = Pattern.compile("^=== (.*)$", Pattern.DOTALL);
    private static final Pattern NICK_CHANGE = Pattern.compile("^(\\S+) is now known as (\\S+)\\s*$");
    private static final Pattern JOIN = Pattern.compile("^(\\S+) (?:\\[[^\\]]*\\]\\s+)?(?:has joined|entered the room)(.*)$");
    private static final Pattern LEAVE = Pattern.compile("^(\\S+) (?:\\[[^\\]]*\\]\\s+)?(?:has left|has quit|left the room)(.*)$");
    private static final Pattern SYSTEM_NICK = Pattern.compile("^(\\S+) (.*)$", Pattern.DOTALL);

    private long dayOffset;
    private long lastSeconds = -1;
    private LocalDate firstDate;

    /** Parses a whole file (UTF-8; undecodable bytes replaced). */
    public static List<LogLine> parse(Path file) throws IOException {
        String content = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        return parse(content);
    }

    /** Parses log text; line i of the text is {@link LogLine#index()} i. */
    public static List<LogLine> parse(String content) {
        IrcLogParser parser = new IrcLogParser();
        List<LogLine> lines = new ArrayList<>();
        String[] raw = content.split("\r?\n", -1);
        int n = raw.length;
        if (n > 0 && raw[n - 1].isEmpty()) {
            n--; // the newline that ends the last line
        }
        for (int i = 0; i < n; i++) {
            lines.add(parser.line(i, raw[i]));
        }
        return lines;
    }

    /** Parses one line; state (the day roll-over) carries from line to line. */
    LogLine line(int index, String raw) {
        String rest = raw.stripTrailing();
        LocalDate date = null;
        Matcher p = PREFIX.matcher(rest);
        if (p.matches() && (p.group(3).startsWith("[") || p.group(3).startsWith("==="))) {
            date = LocalDate.parse(p.group(2));
            rest = p.group(3);
        }
        long seconds = -1;
        Matcher t = TIME.matcher(rest);
        if (t.matches()) {
            seconds = Integer.parseInt(t.group(1)) * 3600L + Integer.parseInt(t.group(2)) * 60L
                    + (t.group(3) == null ? 0 : Integer.parseInt(t.group(3)));
            rest = t.group(4);
        }
        long time = time(date, seconds);
        Matcher m;
        if ((m = MESSAGE.matcher(rest)).matches()) {
            return new LogLine(index, Kind.MESSAGE, time, m.group(1), m.group(2).strip(), null);
        }
        if ((m = SYSTEM.matcher(rest)).matches()) {
            return system(index, time, m.group(1).strip());
        }
        if ((m = ACTION.matcher(rest)).matches()) {
            return new LogLine(index, Kind.ACTION, time, m.group(1), m.group(2).strip(), null);
        }
        if ((m = NOTICE.matcher(rest)).matches()) {
            return new LogLine(index, Kind.NOTICE, time, m.group(1), m.group(2).strip(), null);
        }
        return new LogLine(index, Kind.OTHER, time, null, rest, null);
    }

    private static LogLine system(int index, long time, String body) {
        Matcher m;
        if ((m = NICK_CHANGE.matcher(body)).matches()) {
            return new LogLine(index, Kind.NICK, time, m.group(1), body, m.group(2));
        }
        if ((m = JOIN.matcher(body)).matches()) {
            return new LogLine(index, Kind.JOIN, time, m.group(1), body, null);
        }
        if ((m = LEAVE.matcher(body)).matches()) {
            return new LogLine(index, Kind.LEAVE, time, m.group(1), body, null);
        }
        if (body.startsWith("mode/") || body.startsWith("topic")) {
            return new LogLine(index, Kind.SYSTEM, time, null, body, null);
        }
        if ((m = SYSTEM_NICK.matcher(body)).matches()) {
            return new LogLine(index, Kind.SYSTEM, time, m.group(1), body, null);
        }
        return new LogLine(index, Kind.SYSTEM, time, null, body, null);
    }

    /** Seconds since the file's first day; -1 stays "unknown" until a time has been seen. */
    private long time(LocalDate date, long secondsOfDay) {
        if (date != null && firstDate == null) {
            firstDate = date;
        }
        if (secondsOfDay < 0) {
            return lastSeconds;
        }
        long t;
        if (date != null) {
            t = (date.toEpochDay() - firstDate.toEpochDay()) * 86_400 + secondsOfDay;
            // Out-of-order lines exist in the logs (e.g. ubuntu-meeting): never go back in time.
            t = Math.max(t, lastSeconds);
        } else {
            t = dayOffset + secondsOfDay;
            if (lastSeconds >= 0 && t < lastSeconds - 3600) {
                dayOffset += 86_400;
                t += 86_400;
            }
            t = Math.max(t, lastSeconds);
        }
        lastSeconds = t;
        return t;
    }
}
