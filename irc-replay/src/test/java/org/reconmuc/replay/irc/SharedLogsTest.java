package org.reconmuc.replay.irc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The real logs in shared/irc-logs parse completely, and the evaluation runs over all of them. */
class SharedLogsTest {

    @Test
    void everyChannelParsesWithoutUnknownLinesAndHasGoldLinks() throws Exception {
        Map<String, List<LogFile>> channels = IrcLogs.load(IrcLogs.defaultDir());
        assertThat(channels.keySet()).containsExactlyElementsOf(IrcLogs.CHANNELS);
        assertThat(channels.get("ubuntu")).hasSize(10);
        for (List<LogFile> files : channels.values()) {
            for (LogFile f : files) {
                long other = f.lines().stream().filter(l -> l.kind() == LogLine.Kind.OTHER).count();
                long spoken = f.lines().stream().filter(LogLine::spoken).count();
                assertThat(other).as("unparsed lines in " + f.path()).isZero();
                assertThat(spoken).as("messages in " + f.path()).isGreaterThan(f.lines().size() / 2);
                assertThat(f.gold()).isNotNull();
                assertThat(f.lines().stream().filter(LogLine::spoken).allMatch(l -> l.seconds() >= 0)).isTrue();
            }
        }
        List<ReplyEvaluation.Score> scores = ReplyEvaluation.scores(channels);
        ReplyEvaluation.Score all = scores.get(scores.size() - 1);
        assertThat(all.goldLinks()).isGreaterThan(7000);
        assertThat(all.precision()).isBetween(0.5, 1.0);
        assertThat(all.recall()).isBetween(0.1, 1.0);
    }
}
