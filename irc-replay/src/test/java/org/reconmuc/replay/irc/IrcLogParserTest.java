package org.reconmuc.replay.irc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.reconmuc.replay.irc.LogLine.Kind;

class IrcLogParserTest {

    @Test
    void ubuntuFormatMessagesActionsAndUntimedSystemLines() {
        List<LogLine> lines = IrcLogParser.parse("""
                === drshasta19 [n=drshasta@ip70-189-125-162.ok.ok.cox.net]  has joined #ubuntu
                [03:41] <spockboy > anyone here use xchat?
                [03:42]  * Tribal_Away will be back, servers need reboot
                === Comrade_Vladimir [n=andrew@70-97-141-111.dsl1.glv.ny.frontiernet.net]  has left #ubuntu []
                === Start is now known as Starski
                === mode/#ubuntu [+o tritium]  by ChanServ
                === tritium suggests the first ;)
                [03:44] <Starski> drshasta19: try 'sudo apt-get install xchat'
                """);
        assertThat(lines).extracting(LogLine::kind).containsExactly(Kind.JOIN, Kind.MESSAGE, Kind.ACTION, Kind.LEAVE,
                Kind.NICK, Kind.SYSTEM, Kind.SYSTEM, Kind.MESSAGE);
        assertThat(lines.get(0).nick()).isEqualTo("drshasta19");
        assertThat(lines.get(1)).isEqualTo(new LogLine(1, Kind.MESSAGE, 3 * 3600 + 41 * 60, "spockboy",
                "anyone here use xchat?", null));
        assertThat(lines.get(2).nick()).isEqualTo("Tribal_Away");
        assertThat(lines.get(2).text()).isEqualTo("will be back, servers need reboot");
        assertThat(lines.get(3).nick()).isEqualTo("Comrade_Vladimir");
        assertThat(lines.get(3).seconds()).as("untimed lines inherit the previous time").isEqualTo(3 * 3600 + 42 * 60);
        assertThat(lines.get(4).nick()).isEqualTo("Start");
        assertThat(lines.get(4).newNick()).isEqualTo("Starski");
        assertThat(lines.get(5).nick()).isNull();
        assertThat(lines.get(6).nick()).isEqualTo("tritium");
        assertThat(lines.get(7).text()).isEqualTo("drshasta19: try 'sudo apt-get install xchat'");
    }

    @Test
    void linuxFormatAndDayRollOver() {
        List<LogLine> lines = IrcLogParser.parse("""
                [23:59] <Felicia> rat .. lol
                === Nella entered the room.
                === Delmer left the room (quit: Remote closed the connection).
                === Regine hands Chanel a trophy
                [00:01] <Gale> snitch is a rat
                """);
        assertThat(lines).extracting(LogLine::kind).containsExactly(Kind.MESSAGE, Kind.JOIN, Kind.LEAVE, Kind.SYSTEM,
                Kind.MESSAGE);
        assertThat(lines.get(1).nick()).isEqualTo("Nella");
        assertThat(lines.get(2).nick()).isEqualTo("Delmer");
        assertThat(lines.get(4).seconds()).as("next day").isEqualTo(86_400 + 60);
    }

    @Test
    void newDomainsFormatsWithDatesSecondsTabsNoticesAndNickChanges() {
        List<LogLine> lines = IrcLogParser.parse(String.join("\n",
                "mediawiki 2018-05-26 [15:04:48] <MatmaRex>\t Nemo_bis: my pleasure  ",
                "rust 2018-05-29 [21:20:37] <talchas> but I don't know that I'd bother ",
                "rust 2018-05-29 [22:26:06] -eval- SplitN(SplitNInternal { iter: 0 }) ",
                "rust 2018-05-30 [04:20:33] * Moongoodboy{K} stares ",
                "rust 2018-05-28 [13:22] <rodrigo_> diwic, hmm, I think it's #startmeeting ",
                "ubuntu-meeting 2010-11-08 === yofel_ is now known as yofel ",
                "rust 2018-05-30 [05:00:01] <apeksha> yeah, that makes sense "));
        assertThat(lines).extracting(LogLine::kind).containsExactly(Kind.MESSAGE, Kind.MESSAGE, Kind.NOTICE, Kind.ACTION,
                Kind.MESSAGE, Kind.NICK, Kind.MESSAGE);
        assertThat(lines.get(0).nick()).isEqualTo("MatmaRex");
        assertThat(lines.get(0).text()).isEqualTo("Nemo_bis: my pleasure");
        assertThat(lines.get(1).text()).isEqualTo("but I don't know that I'd bother");
        assertThat(lines.get(2).nick()).isEqualTo("eval");
        assertThat(lines.get(3).nick()).isEqualTo("Moongoodboy{K}");
        assertThat(lines.get(3).text()).isEqualTo("stares");
        assertThat(lines.get(4).nick()).isEqualTo("rodrigo_");
        assertThat(lines.get(5).newNick()).isEqualTo("yofel");
        // Dated lines count from the first date; never back in time.
        assertThat(lines.get(1).seconds()).isEqualTo(3 * 86_400 + 21 * 3600 + 20 * 60 + 37);
        assertThat(lines.get(3).seconds()).isEqualTo(4 * 86_400 + 4 * 3600 + 20 * 60 + 33);
        assertThat(lines.get(5).seconds()).as("untimed").isEqualTo(lines.get(3).seconds());
        assertThat(lines.get(6).seconds()).isEqualTo(4 * 86_400 + 5 * 3600 + 1);
        assertThat(lines.get(4).seconds()).as("an earlier date later in the file is clamped")
                .isEqualTo(lines.get(3).seconds());
    }

    @Test
    void lineNumbersFollowTheFileEvenForBlankLines() {
        List<LogLine> lines = IrcLogParser.parse("[01:00] <a> x\n\n[01:01] <b> y\n");
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1).kind()).isEqualTo(Kind.OTHER);
        assertThat(lines.get(2).index()).isEqualTo(2);
    }
}
