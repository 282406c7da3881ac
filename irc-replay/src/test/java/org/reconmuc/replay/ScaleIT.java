package org.reconmuc.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.reconmuc.replay.irc.IrcLogs;

/**
 * {@code replay scale} end to end, small: 60 light bots in three processes (20 each, so every
 * message is relayed between processes) in one room of a real Prosody, with its own MUC, the
 * component with nobody relaxed, and the component with 90 % of the listeners relaxed. Every bot
 * gets every message once, replies come after their parents, the relaxed bots get batches, and the
 * table and charts are written.
 */
class ScaleIT {

    @Test
    void sixtyLightBotsInThreeProcessesOnProsody() throws Exception {
        ScaleCommand.ScaleOptions o = ScaleCommand.ScaleOptions.parse(new String[] {
                "--server", "prosody", "--sizes", "60", "--messages", "80", "--rate", "10", "--time", "4",
                "--join-rate", "60", "--bots-per-worker", "20", "--lag-bound-ms", "30000", "--drain", "20",
                "--component-heap", "256m",
                "--out", "target/it-scale", "--run-dir", "target/it-scale-run", "--logs", IrcLogs.defaultDir().toString()});
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        List<Map<String, Object>> rows;
        try (PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8)) {
            rows = ScaleCommand.run(o, out);
        }
        System.out.println(console.toString(StandardCharsets.UTF_8));
        assertThat(rows).extracting(r -> r.get("scenario")).containsExactly("own", "off", "relaxed");
        for (Map<String, Object> r : rows) {
            String s = (String) r.get("scenario");
            assertThat(r.get("verdict")).as(s).isEqualTo("ok");
            assertThat(r.get("bot_processes")).as(s).isEqualTo(3);
            long sent = ((Number) r.get("messages_sent")).longValue();
            assertThat(sent).as(s).isEqualTo(80);
            assertThat(r.get("deliveries")).as(s + ": every bot, every message, once").isEqualTo(sent * 60);
            assertThat(r.get("lost")).as(s).isEqualTo(0L);
            assertThat(r.get("duplicated")).as(s).isEqualTo(0L);
            assertThat(r.get("out_of_order")).as(s).isEqualTo(0L);
            assertThat(((Number) r.get("replies_sent")).longValue()).as(s + ": replies, linked to their parents").isPositive();
            assertThat(((Number) r.get("direct_replies_p50_ms")).doubleValue()).as(s).isPositive();
            assertThat(((Number) r.get("bytes_received")).longValue()).as(s).isGreaterThan(sent * 60 * 60);
        }
        Map<String, Object> relaxed = rows.get(2);
        assertThat(((Number) relaxed.get("batches")).longValue()).isPositive();
        assertThat(((Number) relaxed.get("retained_p50_ms")).doubleValue()).isPositive();
        assertThat(o.out.resolve("table.md")).isNotEmptyFile();
        assertThat(o.out.resolve("lag.png")).isNotEmptyFile();
    }
}
