package org.reconmuc.replay.irc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Evaluates {@link ReplyDetector} against the gold links, per channel, on the annotated lines
 * only (the lines before them are context):
 * <ul>
 * <li>detected: annotated lines for which the detector names a parent;</li>
 * <li>correct: those whose detected parent is one of the line's gold parents;</li>
 * <li>gold: links between two distinct lines whose later line is annotated;</li>
 * <li>precision = correct / detected, recall = correct / gold (a line with two gold parents
 *     counts twice in gold, and can be found at most once).</li>
 * </ul>
 */
public final class ReplyEvaluation {

    /** The counts for one channel (or one file, or the total). */
    public record Score(String name, int files, int annotatedLines, int goldLinks, int detected, int correct,
            int goldLinksFromSpokenLines) {
        public double precision() {
            return detected == 0 ? 0 : (double) correct / detected;
        }

        public double recall() {
            return goldLinks == 0 ? 0 : (double) correct / goldLinks;
        }

        public double f1() {
            double p = precision();
            double r = recall();
            return p + r == 0 ? 0 : 2 * p * r / (p + r);
        }

        Score plus(Score o, String newName) {
            return new Score(newName, files + o.files, annotatedLines + o.annotatedLines, goldLinks + o.goldLinks,
                    detected + o.detected, correct + o.correct, goldLinksFromSpokenLines + o.goldLinksFromSpokenLines);
        }
    }

    private ReplyEvaluation() {
    }

    public static Score score(LogFile file) {
        GoldLinks gold = file.gold();
        if (gold == null) {
            return new Score(file.channel(), 1, 0, 0, 0, 0, 0);
        }
        List<LogLine> lines = file.lines();
        int[] detected = ReplyDetector.detect(lines);
        int annotated = 0;
        int goldLinks = 0;
        int spokenGold = 0;
        int found = 0;
        int correct = 0;
        for (int line : gold.annotated()) {
            if (line >= lines.size()) {
                continue;
            }
            annotated++;
            Set<Integer> parents = gold.parentsOf(line);
            goldLinks += parents.size();
            if (lines.get(line).spoken()) {
                spokenGold += parents.size();
            }
            if (detected[line] >= 0) {
                found++;
                if (parents.contains(detected[line])) {
                    correct++;
                }
            }
        }
        return new Score(file.channel(), 1, annotated, goldLinks, found, correct, spokenGold);
    }

    /** One score per channel, then the total. */
    public static List<Score> scores(Map<String, List<LogFile>> channels) {
        List<Score> out = new ArrayList<>();
        Score total = new Score("all", 0, 0, 0, 0, 0, 0);
        for (Map.Entry<String, List<LogFile>> e : channels.entrySet()) {
            Score s = new Score(e.getKey(), 0, 0, 0, 0, 0, 0);
            for (LogFile f : e.getValue()) {
                s = s.plus(score(f), e.getKey());
            }
            out.add(s);
            total = total.plus(s, "all");
        }
        out.add(total);
        return out;
    }

    /** A plain-text table (also valid Markdown). */
    public static String table(List<Score> scores) {
        StringBuilder b = new StringBuilder();
        b.append("| channel | files | annotated lines | gold links | detected | correct | precision | recall | F1 |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Score s : scores) {
            b.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %.1f %% | %.1f %% | %.1f %% |%n",
                    s.name(), s.files(), s.annotatedLines(), s.goldLinks(), s.detected(), s.correct(),
                    100 * s.precision(), 100 * s.recall(), 100 * s.f1()));
        }
        return b.toString();
    }
}
