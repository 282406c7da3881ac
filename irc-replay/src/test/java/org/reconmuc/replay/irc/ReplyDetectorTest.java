package org.reconmuc.replay.irc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplyDetectorTest {

    @Test
    void anAddressedMessageRepliesToThatNicksLatestMessage() {
        List<LogLine> lines = IrcLogParser.parse("""
                [10:00] <alice> how do I mount a usb stick?
                [10:01] <bob> hello all
                [10:02] <alice> it is formatted ntfs
                [10:03] <carol> Alice: use the disks tool
                [10:04] <dave> bob, hi
                [10:05] <erin> zed: nobody called zed spoke
                [10:06] <carol> carol: talking to myself
                [10:07] <frank> see http://example.org for more
                """);
        int[] p = ReplyDetector.detect(lines);
        assertThat(p[3]).as("case-insensitive, latest message of alice").isEqualTo(2);
        assertThat(p[4]).as("comma form").isEqualTo(1);
        assertThat(p[5]).as("unknown nick").isEqualTo(-1);
        assertThat(p[6]).as("own nick").isEqualTo(-1);
        assertThat(p[7]).as("a URL is no address").isEqualTo(-1);
        assertThat(p[0]).isEqualTo(-1);
    }

    @Test
    void aNickChangeCarriesTheLatestMessageOver() {
        List<LogLine> lines = IrcLogParser.parse("""
                [10:00] <Start> my wifi drops every minute
                === Start is now known as Starski
                [10:02] <helper> Starski: which chipset?
                """);
        assertThat(ReplyDetector.detect(lines)[2]).isEqualTo(0);
    }

    @Test
    void addresseeForms() {
        assertThat(ReplyDetector.addressee("nick: hi")).isEqualTo("nick");
        assertThat(ReplyDetector.addressee("  @nick, hi")).isEqualTo("nick");
        assertThat(ReplyDetector.addressee("nick:")).isEqualTo("nick");
        assertThat(ReplyDetector.addressee("http://x.org")).isNull();
        assertThat(ReplyDetector.addressee("just talking")).isNull();
    }

    @Test
    void evaluationCountsPrecisionAndRecallOnAnnotatedLinesOnly() {
        List<LogLine> lines = IrcLogParser.parse("""
                [10:00] <alice> q1
                [10:01] <bob> q2
                [10:02] <carol> alice: a1
                [10:03] <carol> bob: a2
                [10:04] <dave> thanks
                """);
        // Line 2 replies to 0 (found), line 3 replies to 1 and 2 (found one of two), line 4 to 3 (missed);
        // line 1 is annotated as a conversation start.
        GoldLinks gold = GoldLinks.parse("1 1 -\n0 2 -\n1 3 -\n2 3 -\n3 4 -\n");
        ReplyEvaluation.Score s = ReplyEvaluation.score(new LogFile("test", Path.of("x"), lines, gold));
        assertThat(s.annotatedLines()).isEqualTo(4);
        assertThat(s.goldLinks()).isEqualTo(4);
        assertThat(s.detected()).isEqualTo(2);
        assertThat(s.correct()).isEqualTo(2);
        assertThat(s.precision()).isEqualTo(1.0);
        assertThat(s.recall()).isEqualTo(0.5);
    }
}
