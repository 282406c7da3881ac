package org.reconmuc.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.reconmuc.replay.irc.IrcLogs;

/**
 * {@code irc-replay soak}, short: two minutes on three instances behind a real ejabberd and a real
 * PostgreSQL, every fault once (a kill, a rolling restart, the XMPP server's restart, PostgreSQL's),
 * churn (rooms made and destroyed too) and the hostile trickle. Nothing acknowledged is lost,
 * duplicated or out of order, honest at-once p99 outside faults is within 2 s, every
 * acknowledged message is in its room's archive once, no room lists a ghost, no instance logged an
 * unhandled exception, the minute rows and charts are written, and a real Prometheus scraping every
 * instance agrees with the soak's own figures and gives each queue's high-water marks.
 */
class SoakIT {

    @Test
    @SuppressWarnings("unchecked")
    void twoMinutesWithEveryFaultOnce() throws Exception {
        SoakCommand c = new SoakCommand();
        c.minutes = 2;
        c.rooms = 6;
        c.bigRoom = 12;
        c.killEveryMinutes = 1.7;
        c.drain = 20;
        c.lateWait = 20;
        c.out = Path.of("target/it-soak");
        c.logs = IrcLogs.defaultDir();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        SoakSummary summary;
        try (PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8)) {
            summary = c.execute(out);
        } finally {
            System.out.println(console.toString(StandardCharsets.UTF_8));
        }
        List<Map<String, Object>> faults = (List<Map<String, Object>>) summary.get("faults");
        assertThat(faults).extracting(f -> f.get("fault"))
                .containsExactly("rolling_restart", "xmpp_server_restart", "postgres_restart", "kill");
        assertThat(faults).allSatisfy(f -> assertThat(f).doesNotContainKey("failed"));
        Map<String, Object> d = (Map<String, Object>) summary.get("acknowledged_messages");
        assertThat(((Number) d.get("acknowledged")).longValue()).isGreaterThan(100);
        assertThat(d.get("lost")).as("lost: " + d.get("examples")).isEqualTo(0L);
        // A room that moves sends again, with the same stanza-id, what its last owner could not show it
        // had sent (DESIGN.md, "Occupants carry on"); the bots drop those as Dino and Joom do and count
        // them apart. A message twice with another stanza-id is a duplicate.
        assertThat(d.get("duplicated")).as("duplicated: " + d.get("examples")).isEqualTo(0L);
        assertThat(d.get("out_of_order")).as("out of order: " + d.get("examples")).isEqualTo(0L);
        Map<String, Object> archive = (Map<String, Object>) summary.get("archive_gaps");
        assertThat(archive.get("missing")).isEqualTo(0L);
        assertThat(archive.get("duplicated")).isEqualTo(0L);
        assertThat(archive.get("out_of_order")).isEqualTo(0L);
        Map<String, Object> occupants = (Map<String, Object>) summary.get("occupants_at_end");
        assertThat(occupants.get("ghosts")).as("ghosts: " + occupants.get("examples")).isEqualTo(0L);
        assertThat(occupants.get("bots_in_but_not_listed")).as("not listed: " + occupants.get("examples")).isEqualTo(0L);
        assertThat(summary.get("unhandled_exceptions")).isEqualTo(0L);
        Map<String, Object> churned = (Map<String, Object>) summary.get("rooms_made_and_destroyed");
        assertThat(((Number) churned.get("created")).longValue()).as(String.valueOf(churned)).isGreaterThanOrEqualTo(5);
        assertThat(churned.get("left_undestroyed")).as(String.valueOf(churned)).isEqualTo(0);
        assertThat(((Number) ((Map<String, Object>) summary.get("hostile")).get("stanzas")).longValue()).isPositive();
        if (java.nio.file.Files.isExecutable(SoakPrometheus.BINARY)) {
            List<Map<String, Object>> prometheus = (List<Map<String, Object>>) summary.get("prometheus");
            assertThat(prometheus).as("the soak's figures beside Prometheus's").isNotEmpty()
                    .allSatisfy(f -> assertThat(f.get("agree_within_1_percent")).as(String.valueOf(f)).isEqualTo(true));
            assertThat((Map<String, Object>) summary.get("queue_high_water")).as("each queue's high-water marks, from Prometheus")
                    .containsKeys("mailbox_pending_stanzas", "outgoing_queue_stanzas", "store_queue_writes", "store_held_stanzas");
        }
        assertThat(summary.clean()).isTrue();
        assertThat(c.out.resolve("minutes.jsonl")).isNotEmptyFile();
        assertThat(c.out.resolve("live_heap_mb.png")).isNotEmptyFile();
        assertThat(c.out.resolve("summary.md")).isNotEmptyFile();
    }
}
