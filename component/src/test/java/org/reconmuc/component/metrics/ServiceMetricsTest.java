package org.reconmuc.component.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Instant;
import org.dom4j.DocumentHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.store.ArchivedMessage;
import org.reconmuc.component.store.RoomJournal;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.config.StoreLocation;
import org.xmpp.packet.Message;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.reconmuc.component.transport.OutgoingStanza;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

class ServiceMetricsTest {

    private static Packet parse(String xml) throws Exception {
        var e = DocumentHelper.parseText(xml).getRootElement();
        return e.getName().equals("presence") ? new Presence(e, true) : new IQ(e, true);
    }

    @Test
    void aScrapeShowsRoomsOccupantsByModeAndTheConnectionsQueue() throws Exception {
        ServiceConfig config = ServiceConfig.defaults().withDomainAndSecret("muc.example", "s");
        List<OutgoingStanza> out = new ArrayList<>();
        MucService service = new MucService(config, Clock.systemUTC(), Runnable::run, out::add, (d, t) -> { }, RoomFeatures.ALL);
        // Never started: its counters are all zero, and it must still be scrapable.
        ExternalComponentConnection connection = new ExternalComponentConnection(config, service);
        try (ServiceMetrics metrics = new ServiceMetrics(service, connection)) {
            service.processPacket(parse("<presence from='romeo@montague.lit/phone' to='lobby@muc.example/Romeo'/>"));
            service.processPacket(parse("<presence from='juliet@capulet.lit/balcony' to='lobby@muc.example/Juliet'/>"));
            service.processPacket(parse("<iq from='juliet@capulet.lit/balcony' to='lobby@muc.example' type='set' id='r1'>"
                    + "<consistency-requirements xmlns='urn:reconmuc:0'><time>60</time><volume>20</volume>"
                    + "</consistency-requirements></iq>"));

            String scrape = metrics.scrape();
            assertThat(scrape).contains("reconmuc_rooms 1.0");
            assertThat(scrape).contains("reconmuc_occupants{mode=\"relaxed\"} 1.0");
            assertThat(scrape).contains("reconmuc_occupants{mode=\"standard\"} 1.0");
            assertThat(scrape).contains("reconmuc_outgoing_queue_stanzas 0.0");
            assertThat(scrape).contains("reconmuc_mailbox_pending_stanzas 0.0");
            assertThat(scrape).contains("reconmuc_connected 0.0");
            assertThat(scrape).contains("reconmuc_out_bytes_total 0.0").contains("reconmuc_out_multicast_stanzas_total 0.0")
                    .contains("reconmuc_out_multicast_copies_total 0.0");
            assertThat(scrape).contains("reconmuc_batches_total 0.0");
            assertThat(scrape).contains("jvm_memory_used_bytes");
            assertThat(scrape).contains("process_files_open_files").contains("process_files_max_files")
                    .contains("process_uptime_seconds").contains("jvm_threads_live_threads");

            int port = metrics.serve("127.0.0.1", 0);
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
            assertThat(response.body()).contains("reconmuc_occupants{mode=\"relaxed\"} 1.0");
            HttpResponse<String> post = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
        }
        service.shutdown();
    }

    @Test
    void theScrapeListensWhereItIsToldAndAnAddressOfNoInterfaceFailsAtStart() throws Exception {
        ServiceConfig config = ServiceConfig.defaults().withDomainAndSecret("muc.example", "s");
        MucService service = new MucService(config, Clock.systemUTC(), Runnable::run, p -> { }, (d, t) -> { }, RoomFeatures.ALL);
        ExternalComponentConnection connection = new ExternalComponentConnection(config, service);
        HttpClient http = HttpClient.newHttpClient();
        // 127.0.0.2 is this machine's loopback too, but not 127.0.0.1: only the address asked for answers.
        try (ServiceMetrics metrics = new ServiceMetrics(service, connection)) {
            int port = metrics.serve("127.0.0.2", 0);
            HttpResponse<String> there = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.2:" + port + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(there.statusCode()).isEqualTo(200);
            assertThat(there.body()).contains("reconmuc_connected 0.0");
            assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString())).isInstanceOf(java.net.ConnectException.class);
        }
        try (ServiceMetrics metrics = new ServiceMetrics(service, connection)) {
            assertThatThrownBy(() -> metrics.serve("192.0.2.1", 0)).isInstanceOf(java.io.IOException.class);
        }
        assertThatThrownBy(() -> ServiceConfig.defaults().toBuilder().metricsAddress(" ").build())
                .hasMessageContaining("metrics-address");
        service.shutdown();
    }

    @Test
    void aScrapeShowsTheStoresCommitsBatchesAndWhatWaits(@TempDir Path dir) throws Exception {
        Store store = Store.openWithoutThreads(StoreLocation.parse("sqlite:" + dir.resolve("rooms.db")));
        try {
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            ServiceMetrics.registerStore(registry, store.stats());
            RoomJournal journal = store.journal("lobby@muc.example", p -> { });
            for (int seq = 1; seq <= 3; seq++) {
                journal.archive(new ArchivedMessage(seq, "id" + seq, Instant.EPOCH, "Romeo", null, "<message/>"));
            }
            journal.send(OutgoingStanza.of(new Message()));
            String before = registry.scrape();
            assertThat(before).contains("reconmuc_store_queue_writes 3.0").contains("reconmuc_store_held_stanzas 1.0")
                    .contains("reconmuc_store_commits_seconds_count 0\n").contains("reconmuc_store_available 1.0");
            store.commitQueued();
            String after = registry.scrape();
            assertThat(after).contains("reconmuc_store_queue_writes 0.0").contains("reconmuc_store_held_stanzas 0.0")
                    .contains("reconmuc_store_commits_seconds_count 1\n").contains("reconmuc_store_writes_total 3.0")
                    .contains("reconmuc_store_last_batch_writes 3.0").contains("reconmuc_store_failures_total 0.0");
        } finally {
            store.close();
        }
    }
}
