package org.reconmuc.replay.light;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.reconmuc.replay.Workload;
import org.reconmuc.replay.irc.IrcLogs;

/**
 * What every process of one light run agrees on: the room, the servers' client ports, the
 * workload (built the same from the logs in each process), and which bots are relaxed. The
 * coordinator writes it as arguments ({@link #toArgs}); each worker reads it back ({@link #parse}).
 *
 * @param room          the room's bare JID
 * @param loginDomain   the domain the bots log in to (SASL PLAIN, any password)
 * @param endpoints     the servers' client ports, {@code host:port}; bot i uses endpoint i mod their number
 * @param sources       local addresses the bots connect from, round robin (loopback: 127.x.y.z)
 * @param bots          bots in the room
 * @param messages      messages replayed, at {@code rate} per second
 * @param relaxedShare  the share of bots that are relaxed (0: none): every bot whose index mod 10 is
 *                      below {@code relaxedShare * 10} but the speakers, which stay live
 * @param timeSeconds   a relaxed bot's time bound
 * @param volume        a relaxed bot's volume bound
 * @param aggregation   a relaxed bot's aggregation
 * @param presenceLevel the presence level each bot asks for when it joins (reconmuc.md §5.17), or null
 * @param ownMuc        the room is the server's own MUC: the first bot configures it for a big room
 */
public record LightPlan(String room, String loginDomain, List<String> endpoints, List<String> sources, int bots,
                        int messages, double rate, double relaxedShare, int timeSeconds, int volume,
                        String aggregation, String presenceLevel, boolean ownMuc, Path logs, long seed) {

    /** The workload: the logs' lines, paced, with their bots and reply graph (the paper's detection). */
    public Workload workload() throws IOException {
        return Workload.build(IrcLogs.load(logs), messages, rate, 0, 86_400, bots, Workload.Replies.DETECTED);
    }

    /** Whether bot {@code index} (a listener of {@code workload}) is relaxed. */
    public boolean relaxed(Workload workload, int index) {
        return relaxedShare > 0 && workload.bots().get(index).listener() && index % 10 < Math.round(relaxedShare * 10);
    }

    public List<String> toArgs() {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("room", room);
        a.put("login-domain", loginDomain);
        a.put("endpoints", String.join(",", endpoints));
        a.put("sources", String.join(",", sources));
        a.put("bots", Integer.toString(bots));
        a.put("messages", Integer.toString(messages));
        a.put("rate", Double.toString(rate));
        a.put("relaxed-share", Double.toString(relaxedShare));
        a.put("time", Integer.toString(timeSeconds));
        a.put("volume", Integer.toString(volume));
        a.put("aggregation", aggregation);
        a.put("presence-level", presenceLevel == null ? "" : presenceLevel);
        a.put("own-muc", Boolean.toString(ownMuc));
        a.put("logs", logs.toString());
        a.put("seed", Long.toString(seed));
        List<String> args = new ArrayList<>();
        a.forEach((k, v) -> {
            args.add("--" + k);
            args.add(v);
        });
        return args;
    }

    /** The plan of {@code args} (pairs {@code --key value}), and the other pairs into {@code rest}. */
    public static LightPlan parse(List<String> args, Map<String, String> rest) {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            a.put(args.get(i).replaceFirst("^--", ""), args.get(i + 1));
        }
        LightPlan plan = new LightPlan(a.remove("room"), a.remove("login-domain"), List.of(a.remove("endpoints").split(",")),
                List.of(a.remove("sources").split(",")), Integer.parseInt(a.remove("bots")),
                Integer.parseInt(a.remove("messages")), Double.parseDouble(a.remove("rate")),
                Double.parseDouble(a.remove("relaxed-share")), Integer.parseInt(a.remove("time")),
                Integer.parseInt(a.remove("volume")), a.remove("aggregation"), emptyToNull(a.remove("presence-level")),
                Boolean.parseBoolean(a.remove("own-muc")), Path.of(a.remove("logs")), Long.parseLong(a.remove("seed")));
        rest.putAll(a);
        return plan;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
