package org.reconmuc.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.reconmuc.replay.irc.IrcLogs;
import org.reconmuc.replay.meter.Series.Metric;

/**
 * A short end-to-end replay against a real Prosody with the real component attached (in its own
 * JVM): 20 bots, 200 messages of the six channels, consistency off and relaxed. Every bot must get
 * every message exactly once and never a reply before its parent; the byte counts must be
 * non-zero and agree with each other.
 */
class ReplayIT {

    @Test
    void twentyBotsTwoHundredMessagesThroughProsodyAndTheComponent() throws Exception {
        ReplayOptions o = ReplayOptions.parse(new String[] {
                "--server", "prosody", "--bots", "20", "--messages", "200", "--rate", "20", "--join-rate", "40",
                "--time", "4", "--volume", "5", "--no-status", "--visitors-every", "2",
                "--out", "target/it-replay", "--run-dir", "target/it-replay-run", "--logs", IrcLogs.defaultDir().toString(),
                "off", "relaxed"});
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        List<ScenarioResult> results;
        try (PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8)) {
            results = ReplayCommand.run(o, out);
        }
        System.out.println(console.toString(StandardCharsets.UTF_8));
        assertThat(results).hasSize(2);
        for (ScenarioResult r : results) {
            assertThat(r.get("messages_sent")).as(r.label).isEqualTo(200);
            assertThat(r.expected).isEqualTo(200L * 20);
            assertThat(r.lost).as(r.label + " lost").isZero();
            assertThat(r.duplicated).as(r.label + " duplicated").isZero();
            assertThat(r.outOfOrder).as(r.label + " out of causal order").isZero();
            assertThat(r.get("completeness", "received")).isEqualTo(200L * 20);
            assertThat(r.get("completeness", "batch_decode_errors")).isEqualTo(0L);
            assertThat(((Number) r.get("facts", "visitor_entries")).intValue()).as("someone came and went every 2 s")
                    .isGreaterThanOrEqualTo(3);

            long socket = r.bytes(Metric.SOCKET_BYTES);
            long xml = r.bytes(Metric.XML_BYTES);
            long zlib = r.bytes(Metric.ZLIB_MODEL_BYTES);
            long stanzas = ((Number) r.get("received_by_bots", "stanzas_received")).longValue();
            assertThat(socket).isPositive();
            assertThat(stanzas).isGreaterThan(0);
            assertThat(xml).as("every stanza has a body and a topic at least").isGreaterThan(stanzas * 60);
            assertThat(zlib).as("compression shrinks chat").isLessThan(xml / 2).isPositive();
            assertThat(r.bytes(Metric.WIRE_XML_BYTES)).isEqualTo(xml + 52 * wireSegmentsAtLeast(r, stanzas, Metric.WIRE_XML_BYTES, xml));
            assertThat(r.bytes(Metric.WIRE_ZLIB_MODEL_BYTES)).isGreaterThanOrEqualTo(zlib + 52 * stanzas);
            int compressedBots = ((Number) r.get("received_by_bots", "bots_with_xep0138_compression")).intValue();
            if (compressedBots == 20) {
                // Real XEP-0138 (Prosody's mod_compression) and the per-bot model compress the same stream.
                assertThat((double) socket).as("real vs modelled zlib").isBetween(0.8 * zlib, 1.25 * zlib);
            } else {
                assertThat(socket).isEqualTo(xml);
            }
            List<String> botLines = Files.readAllLines(o.out.resolve(r.label).resolve("bots.csv"));
            int socketColumn = List.of(botLines.get(0).split(",")).indexOf("socket_bytes");
            assertThat(socketColumn).as("bots.csv has a socket_bytes column").isNotNegative();
            long perBot = 0;
            for (String line : botLines.subList(1, 21)) {
                perBot += Long.parseLong(line.split(",")[socketColumn]);
            }
            assertThat(perBot).as("per-bot socket bytes add up to the total").isEqualTo(socket);
            assertThat(((Number) r.get("latency_ms", "direct_replies_at_parent_author", "count")).longValue())
                    .as("replies reached their parents' authors").isPositive();
        }
        ScenarioResult relaxed = results.get(1);
        assertThat(((Number) relaxed.get("replies_and_topics", "batches_received")).longValue()).isPositive();
        assertThat(((Number) relaxed.get("latency_ms", "retained_deliveries", "count")).longValue()).isPositive();
        Path out = o.out;
        assertThat(out.resolve("summary.json")).isNotEmptyFile();
        assertThat(out.resolve("bytes-per-second.png")).isNotEmptyFile();
        assertThat(out.resolve("latency-cdf.png")).isNotEmptyFile();
        assertThat(out.resolve("off/timeseries.csv")).isNotEmptyFile();
    }

    /** The segments implied by the wire total; at least one per stanza. */
    private static long wireSegmentsAtLeast(ScenarioResult r, long stanzas, Metric wire, long payload) {
        long segments = (r.bytes(wire) - payload) / 52;
        assertThat((r.bytes(wire) - payload) % 52).isZero();
        assertThat(segments).isGreaterThanOrEqualTo(stanzas);
        return segments;
    }
}
