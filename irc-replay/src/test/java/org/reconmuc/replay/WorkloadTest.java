package org.reconmuc.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.reconmuc.replay.irc.IrcLogParser;
import org.reconmuc.replay.irc.IrcLogs;
import org.reconmuc.replay.irc.LogFile;

class WorkloadTest {

    private static Map<String, List<LogFile>> twoChannels() {
        Map<String, List<LogFile>> ch = new LinkedHashMap<>();
        ch.put("a", List.of(new LogFile("a", Path.of("a"), IrcLogParser.parse("""
                [10:00] <alice> question one
                [10:00] <bob> something else
                === carol [x@y]  has joined #a
                [10:01] <carol> alice: answer
                [10:03] <alice> thanks
                """), null)));
        ch.put("b", List.of(new LogFile("b", Path.of("b"), IrcLogParser.parse("""
                [20:00] <dave> hi
                [20:10] <erin> dave: hello
                """), null)));
        return ch;
    }

    @Test
    void ratePacingSpansEveryChannelOverTheSameTimeAndKeepsReplies() {
        Workload w = Workload.build(twoChannels(), 6, 2.0, 0, 1000, 10, Workload.Replies.DETECTED);
        assertThat(w.messages()).hasSize(6);
        assertThat(w.perChannel()).containsEntry("a", 4).containsEntry("b", 2);
        // 6 messages at 2/s: every channel spans [0, 3) s.
        assertThat(w.lastOffsetNanos()).isLessThan(3_000_000_000L);
        Workload.Msg answer = w.messages().stream().filter(m -> m.text().equals("alice: answer")).findFirst().orElseThrow();
        Workload.Msg q = w.messages().get(answer.parent());
        assertThat(q.text()).isEqualTo("question one");
        assertThat(answer.body()).isEqualTo("alice: answer #a");
        for (Workload.Msg m : w.messages()) {
            assertThat(m.parent()).isLessThan(m.seq());
            if (m.seq() > 0) {
                assertThat(m.offsetNanos()).isGreaterThanOrEqualTo(w.messages().get(m.seq() - 1).offsetNanos());
            }
        }
        // Two lines at [10:00] are spread over the minute.
        assertThat(w.bots()).hasSize(10);
        assertThat(w.speakers()).isEqualTo(5);
        assertThat(w.bots().stream().filter(Workload.BotSpec::listener).count()).isEqualTo(5);
    }

    @Test
    void speedKeepsRealTimingAndExtraSpeakersAreFolded() {
        Workload w = Workload.build(twoChannels(), 6, 0, 60, 1000, 2, Workload.Replies.NONE);
        assertThat(w.messages().stream().allMatch(m -> m.parent() < 0)).isTrue();
        assertThat(w.speakersFolded()).isEqualTo(3);
        assertThat(w.bots()).hasSize(2);
        assertThat(w.messages().stream().allMatch(m -> m.bot() < 2)).isTrue();
        // alice's [10:03] line is 3 minutes after the start of #a: 3 s at speed 60.
        Workload.Msg thanks = w.messages().stream().filter(m -> m.text().equals("thanks")).findFirst().orElseThrow();
        assertThat(thanks.offsetNanos()).isEqualTo(3_000_000_000L);
    }

    @Test
    void withFewerSpeakingBotsTheOthersListen() {
        Workload w = Workload.build(twoChannels(), 6, 2.0, 0, 1000, 4, 2, Workload.Replies.NONE);
        assertThat(w.bots()).hasSize(4);
        assertThat(w.bots().stream().filter(Workload.BotSpec::listener).count()).isEqualTo(2);
        assertThat(w.speakersFolded()).isEqualTo(3);
        assertThat(w.messages()).hasSize(6).allMatch(m -> m.bot() < 2);
    }

    @Test
    void thePaperLoadFromTheSharedLogs() throws Exception {
        Workload w = Workload.build(IrcLogs.load(IrcLogs.defaultDir()), 5400, 6, 0, 900, 800, Workload.Replies.DETECTED);
        assertThat(w.messages()).hasSize(5400);
        assertThat(w.perChannel().values()).allMatch(n -> n == 900);
        assertThat(w.lastOffsetNanos() / 1e9).isBetween(800.0, 900.0);
        assertThat(w.bots()).hasSize(800);
        assertThat(w.messages().stream().filter(m -> m.parent() >= 0).count()).isGreaterThan(500);
    }

    @Test
    void messageIdsCarrySeqAndSendTime() {
        String id = MessageIds.make(5399, 900_000_000L);
        assertThat(id.length()).isLessThanOrEqualTo(12);
        assertThat(MessageIds.parse(id)).containsExactly(5399, 900_000_000L);
        assertThat(MessageIds.parse("abc")).isNull();
        assertThat(MessageIds.parse("r.x")).isNull();
    }

    @Test
    void scenariosAndOptions() {
        assertThat(Scenario.parse("relaxed:volume=30:aggregate=deflate", 10, 60, "plain").label())
                .isEqualTo("relaxed-v30-t60-deflate");
        assertThat(Scenario.parse("standard", 10, 60, "plain").usesComponent()).isFalse();
        ReplayOptions o = ReplayOptions.parse(new String[] {"--bots", "20", "--speed", "100", "off", "relaxed:v=60"});
        assertThat(o.bots).isEqualTo(20);
        assertThat(o.speed).isEqualTo(100);
        assertThat(o.historySizeFor(o.scenarios())).isEqualTo(200);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReplayOptions.parse(new String[] {"--bogus", "1", "off"}))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReplayOptions.parse(new String[] {"--bots", "3"}))
                .hasMessageContaining("scenario");
    }
}
