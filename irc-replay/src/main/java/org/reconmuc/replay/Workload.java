package org.reconmuc.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.reconmuc.replay.irc.GoldLinks;
import org.reconmuc.replay.irc.LogFile;
import org.reconmuc.replay.irc.LogLine;
import org.reconmuc.replay.irc.ReplyDetector;

/**
 * What a replay sends: the spoken lines of the chosen channels, each with its sending bot, its
 * body, its time offset from the start of the replay and its parent (a reply), merged into one
 * schedule. Built once, shared by every scenario of a run, so all scenarios send the same.
 */
public final class Workload {

    /** How replies are chosen. */
    public enum Replies {
        /** the paper's detection ({@link ReplyDetector}) */
        DETECTED,
        /** the gold annotations (only where lines are annotated) */
        GOLD,
        NONE
    }

    /** One message to send. {@code parent} is the seq of the message it replies to, or -1. */
    public record Msg(int seq, String channel, int bot, String ircNick, String text, long offsetNanos, int parent) {
        public String body() {
            return text + " #" + channel;
        }
    }

    /** A bot: the nick it joins with and the channel it starts in (null: a listener). */
    public record BotSpec(int index, String nick, String firstChannel, int messages) {
        public boolean listener() {
            return firstChannel == null;
        }
    }

    private final List<Msg> messages;
    private final List<BotSpec> bots;
    private final Map<String, Integer> perChannel;
    private final int speakers;
    private final int speakersFolded;

    private Workload(List<Msg> messages, List<BotSpec> bots, Map<String, Integer> perChannel, int speakers,
            int folded) {
        this.messages = messages;
        this.bots = bots;
        this.perChannel = perChannel;
        this.speakers = speakers;
        this.speakersFolded = folded;
    }

    public List<Msg> messages() {
        return messages;
    }

    public List<BotSpec> bots() {
        return bots;
    }

    public Map<String, Integer> perChannel() {
        return perChannel;
    }

    /** Distinct IRC nicks that speak in the replayed lines. */
    public int speakers() {
        return speakers;
    }

    /** Speakers beyond {@code --bots}, whose lines are sent by another bot. */
    public int speakersFolded() {
        return speakersFolded;
    }

    public long lastOffsetNanos() {
        return messages.isEmpty() ? 0 : messages.get(messages.size() - 1).offsetNanos();
    }

    /** A line picked for the replay, before merging. */
    private record Pick(String channel, LogLine line, double seconds, int fileNo) {
    }

    /**
     * @param channels    the channels' files (in channel order)
     * @param total       messages to replay in all (split evenly across channels, the remainder
     *                    of short channels going to the others)
     * @param rate        messages per second across all channels (each channel's real timing is
     *                    stretched to span total/rate seconds); used when speed is 0
     * @param speed       real time divided by this (0: use rate)
     * @param maxSeconds  nothing is scheduled later than this
     * @param botCount    bots in the room
     */
    public static Workload build(Map<String, List<LogFile>> channels, int total, double rate, double speed,
            double maxSeconds, int botCount, Replies replies) {
        return build(channels, total, rate, speed, maxSeconds, botCount, botCount, replies);
    }

    /**
     * As {@link #build(Map, int, double, double, double, int, Replies)}, with at most
     * {@code speakingBots} bots speaking (the logs' nicks folded onto them): the others are
     * listeners, the background occupants whose radio time a long real-time run measures.
     */
    public static Workload build(Map<String, List<LogFile>> channels, int total, double rate, double speed,
            double maxSeconds, int botCount, int speakingBots, Replies replies) {
        int speakers = Math.min(botCount, speakingBots);
        // 1. Spoken lines per channel, files in order, times continuing across files.
        Map<String, List<Pick>> lines = new LinkedHashMap<>();
        for (Map.Entry<String, List<LogFile>> e : channels.entrySet()) {
            List<Pick> picks = new ArrayList<>();
            double base = 0;
            int fileNo = 0;
            for (LogFile f : e.getValue()) {
                double first = -1;
                double last = 0;
                for (LogLine l : f.lines()) {
                    if (!l.spoken() || l.text().isEmpty()) {
                        continue;
                    }
                    if (first < 0) {
                        first = l.seconds();
                    }
                    last = l.seconds();
                    picks.add(new Pick(e.getKey(), l, base + (l.seconds() - first), fileNo));
                }
                base += Math.max(0, last - Math.max(first, 0)) + 60; // a minute between two files
                fileNo++;
            }
            lines.put(e.getKey(), picks);
        }
        // 2. Quotas: an even split, short channels give their remainder to the others.
        Map<String, Integer> quota = new LinkedHashMap<>();
        int remaining = total;
        List<String> open = new ArrayList<>(lines.keySet());
        open.sort(Comparator.comparingInt(c -> lines.get(c).size()));
        for (int i = 0; i < open.size(); i++) {
            String c = open.get(i);
            int share = (int) Math.ceil((double) remaining / (open.size() - i));
            int q = Math.min(share, lines.get(c).size());
            quota.put(c, q);
            remaining -= q;
        }
        // 3. Times: spread lines that share a time stamp (IRC logs have minutes or seconds) evenly
        //    up to the next distinct stamp, then scale.
        double span = speed > 0 ? 0 : total / rate;
        List<Object[]> timed = new ArrayList<>(); // {Pick, seconds}
        for (String c : lines.keySet()) {
            List<Pick> picks = lines.get(c).subList(0, quota.get(c));
            if (picks.isEmpty()) {
                continue;
            }
            double[] t = spread(picks);
            double realSpan = t[t.length - 1] - t[0];
            for (int i = 0; i < picks.size(); i++) {
                double s;
                if (speed > 0) {
                    s = (t[i] - t[0]) / speed;
                } else if (realSpan <= 0) {
                    s = span * i / picks.size();
                } else {
                    // Each channel spans [0, span) with its own real rhythm: the average rate over all channels is `rate`.
                    s = (t[i] - t[0]) / realSpan * span * (picks.size() - 1) / picks.size();
                }
                timed.add(new Object[] {picks.get(i), s});
            }
        }
        timed.sort(Comparator.comparingDouble(o -> (Double) o[1]));
        // 4. Bots: one per speaking nick, most active first; the rest are folded onto bots.
        Map<String, Integer> counts = new HashMap<>();
        Map<String, String> firstChannel = new HashMap<>();
        for (Object[] o : timed) {
            Pick p = (Pick) o[0];
            if ((Double) o[1] > maxSeconds) {
                continue;
            }
            counts.merge(p.line().nick(), 1, Integer::sum);
            firstChannel.putIfAbsent(p.line().nick(), p.channel());
        }
        List<String> nicks = new ArrayList<>(counts.keySet());
        nicks.sort(Comparator.comparingInt((String n) -> -counts.get(n)).thenComparing(n -> n));
        Map<String, Integer> botOf = new HashMap<>();
        List<BotSpec> bots = new ArrayList<>();
        Set<String> taken = new java.util.HashSet<>();
        for (int i = 0; i < nicks.size(); i++) {
            String n = nicks.get(i);
            if (i < speakers) {
                String mucNick = unique(n, taken);
                bots.add(new BotSpec(i, mucNick, firstChannel.get(n), counts.get(n)));
                botOf.put(n, i);
            } else {
                botOf.put(n, i % speakers);
            }
        }
        for (int i = bots.size(); i < botCount; i++) {
            bots.add(new BotSpec(i, unique("listener" + i, taken), null, 0));
        }
        // 5. Messages and their parents.
        Map<String, Map<Integer, int[]>> parentsByFile = new HashMap<>();
        Map<String, Map<Integer, Integer>> seqOfLine = new HashMap<>();
        List<Msg> msgs = new ArrayList<>();
        Map<String, Integer> perChannel = new LinkedHashMap<>();
        for (Object[] o : timed) {
            Pick p = (Pick) o[0];
            double s = (Double) o[1];
            if (s > maxSeconds) {
                continue;
            }
            String fileKey = p.channel() + "/" + p.fileNo();
            LogFile file = channels.get(p.channel()).get(p.fileNo());
            int parentLine = parentLine(file, p.line().index(), replies, parentsByFile, fileKey);
            Integer parentSeq = parentLine < 0 ? null : seqOfLine.getOrDefault(fileKey, Map.of()).get(parentLine);
            int seq = msgs.size();
            String text = p.line().kind() == LogLine.Kind.ACTION ? "/me " + p.line().text() : p.line().text();
            msgs.add(new Msg(seq, p.channel(), botOf.get(p.line().nick()), p.line().nick(), text,
                    Math.round(s * 1e9), parentSeq == null ? -1 : parentSeq));
            seqOfLine.computeIfAbsent(fileKey, k -> new HashMap<>()).put(p.line().index(), seq);
            perChannel.merge(p.channel(), 1, Integer::sum);
        }
        return new Workload(msgs, bots, perChannel, nicks.size(), Math.max(0, nicks.size() - speakers));
    }

    private static int parentLine(LogFile file, int line, Replies replies, Map<String, Map<Integer, int[]>> cache,
            String key) {
        switch (replies) {
            case DETECTED: {
                int[] p = cache.computeIfAbsent(key, k -> new HashMap<>())
                        .computeIfAbsent(0, k -> ReplyDetector.detect(file.lines()));
                return p[line];
            }
            case GOLD: {
                GoldLinks g = file.gold();
                if (g == null) {
                    return -1;
                }
                int best = -1;
                for (int parent : g.parentsOf(line)) {
                    if (file.lines().get(parent).spoken()) {
                        best = Math.max(best, parent); // the latest spoken parent
                    }
                }
                return best;
            }
            default:
                return -1;
        }
    }

    /** Times in seconds, lines sharing a stamp spread evenly up to the next distinct stamp. */
    static double[] spread(List<Pick> picks) {
        double[] t = new double[picks.size()];
        int i = 0;
        while (i < picks.size()) {
            int j = i;
            while (j < picks.size() && picks.get(j).seconds() == picks.get(i).seconds()) {
                j++;
            }
            double start = picks.get(i).seconds();
            double next = j < picks.size() ? picks.get(j).seconds() : start + Math.max(1, j - i);
            for (int k = i; k < j; k++) {
                t[k] = start + (next - start) * (k - i) / (j - i);
            }
            i = j;
        }
        return t;
    }

    /** A MUC nick: the IRC nick, made unique ignoring case (some services compare nicks so). */
    private static String unique(String nick, Set<String> taken) {
        String n = nick;
        while (!taken.add(n.toLowerCase(Locale.ROOT))) {
            n = n + "_";
        }
        return n;
    }
}
