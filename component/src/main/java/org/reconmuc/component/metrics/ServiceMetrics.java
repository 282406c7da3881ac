package org.reconmuc.component.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.relaxed.RelaxedCounters;
import org.reconmuc.component.store.StoreStats;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's meters and, when asked for, the HTTP endpoint Prometheus scrapes
 * ({@code GET /metrics} on 127.0.0.1). Meters read the service's own counters when scraped: the
 * hot path pays nothing for them.
 */
public final class ServiceMetrics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceMetrics.class);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();
    private HttpServer server;
    /** Meters hold what they read weakly: this keeps the connections' sums alive as long as the meters. */
    @SuppressWarnings({"unused", "FieldCanBeLocal"})
    private final Object connections;

    public ServiceMetrics(MucService service, ExternalComponentConnection connection) {
        this(service, () -> List.of(connection));
    }

    /** The meters of one of several instances: the connection meters add up over its connections. */
    public ServiceMetrics(MucService service, Supplier<List<ExternalComponentConnection>> connections) {
        this.connections = register(registry, service, connections);
        new JvmMemoryMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        // A leak of sockets or files, and a restart, show here before the process hits its limit.
        new FileDescriptorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** Binds the service's meters to {@code registry}. */
    static Object register(MeterRegistry registry, MucService service, Supplier<List<ExternalComponentConnection>> connections) {
        RelaxedCounters counters = service.counters();
        Connections connection = new Connections(connections);
        Gauge.builder("reconmuc.outgoing.queue.stanzas", connection, c -> c.sum(ExternalComponentConnection::queuedStanzas))
                .description("stanzas waiting for the server to read them").register(registry);
        Gauge.builder("reconmuc.outgoing.queue.chars", connection, c -> c.sum(ExternalComponentConnection::queuedChars))
                .description("chars waiting for the server to read them").register(registry);
        Gauge.builder("reconmuc.mailbox.pending.stanzas", service, MucService::pendingStanzas)
                .description("stanzas from the server waiting for their room").register(registry);
        Gauge.builder("reconmuc.connected", connection, c -> c.sum(x -> x.isConnected() ? 1 : 0))
                .description("connections attached to the server (1 while a lone instance is attached)").register(registry);
        FunctionCounter.builder("reconmuc.cluster.rooms.lost", service,
                        s -> s.leasedRooms() == null ? 0 : s.leasedRooms().roomsLost())
                .description("rooms given up because another instance took them over, or their connection was lost")
                .register(registry);
        FunctionCounter.builder("reconmuc.cluster.claims.refused", service,
                        s -> s.leasedRooms() == null ? 0 : s.leasedRooms().claimsRefused())
                .description("rooms not served here because another instance kept them past the wait").register(registry);
        FunctionCounter.builder("reconmuc.cluster.rooms.stranded", service,
                        s -> s.leasedRooms() == null ? 0 : s.leasedRooms().roomsLetGoStranded())
                .description("rooms let go because no connection of this instance had routed them for several heartbeats"
                        + " (each one a bug's trace: report it)").register(registry);
        Gauge.builder("reconmuc.rooms", service, MucService::roomCount).register(registry);
        Gauge.builder("reconmuc.occupants", service, s -> s.occupantCount() - s.counters().relaxedOccupants())
                .tag("mode", "standard").register(registry);
        Gauge.builder("reconmuc.occupants", counters, RelaxedCounters::relaxedOccupants)
                .tag("mode", "relaxed").register(registry);
        FunctionCounter.builder("reconmuc.out.bytes", connection, c -> c.sum(ExternalComponentConnection::bytesWritten))
                .description("bytes written to the server").baseUnit("bytes").register(registry);
        FunctionCounter.builder("reconmuc.out.stanzas", connection, c -> c.sum(ExternalComponentConnection::stanzasQueued))
                .description("stanzas accepted for sending").register(registry);
        FunctionCounter.builder("reconmuc.out.multicast.stanzas", connection, c -> c.sum(ExternalComponentConnection::multicastStanzas))
                .description("XEP-0033 multicast stanzas sent to the server's multicast service").register(registry);
        FunctionCounter.builder("reconmuc.out.multicast.copies", connection, c -> c.sum(ExternalComponentConnection::multicastCopies))
                .description("copies the server made of them (stanzas the link did not carry one by one)").register(registry);
        FunctionCounter.builder("reconmuc.backpressure.waits", connection, c -> c.sum(ExternalComponentConnection::backpressureWaits))
                .description("times a room waited for the server to read (back-pressure)").register(registry);
        FunctionCounter.builder("reconmuc.refused.disconnected", connection, c -> c.sum(ExternalComponentConnection::refusedWhileDisconnected))
                .description("stanzas refused, oldest first, while the server was unreachable").register(registry);
        FunctionCounter.builder("reconmuc.refused.invalid", connection, c -> c.sum(ExternalComponentConnection::droppedInvalid))
                .description("outgoing stanzas the server would have closed the stream over").register(registry);
        FunctionCounter.builder("reconmuc.connections", connection, c -> c.sum(ExternalComponentConnection::connections))
                .description("successful handshakes (1 + reconnections)").register(registry);
        FunctionCounter.builder("reconmuc.batches", counters, RelaxedCounters::batches)
                .description("relaxed-consistency flushes sent as one batch").register(registry);
        FunctionCounter.builder("reconmuc.batch.items", counters, RelaxedCounters::batchedItems)
                .description("retained messages sent inside batches").register(registry);
        FunctionCounter.builder("reconmuc.delayed.singles", counters, RelaxedCounters::delayedSingles)
                .description("retained messages sent one by one (aggregation none)").register(registry);
        registerStore(registry, service.store().stats());
        return connection;
    }

    /** The connections a meter adds up (one, or several for one of several instances). */
    private record Connections(Supplier<List<ExternalComponentConnection>> all) {
        double sum(java.util.function.ToDoubleFunction<ExternalComponentConnection> meter) {
            double total = 0;
            for (ExternalComponentConnection c : all.get()) {
                total += meter.applyAsDouble(c);
            }
            return total;
        }
    }

    /** The store's group commits: their time and size, what waits for them, and failures. */
    static void registerStore(MeterRegistry registry, StoreStats store) {
        FunctionTimer.builder("reconmuc.store.commits", store, StoreStats::commits, StoreStats::commitSeconds, TimeUnit.SECONDS)
                .description("store transactions (group commits) and the time they took").register(registry);
        Gauge.builder("reconmuc.store.last.commit.seconds", store, StoreStats::lastCommitSeconds)
                .description("time of the last group commit").baseUnit("seconds").register(registry);
        FunctionCounter.builder("reconmuc.store.writes", store, StoreStats::writesCommitted)
                .description("writes committed (messages, room records, deletions); per commit: the mean batch")
                .register(registry);
        Gauge.builder("reconmuc.store.last.batch.writes", store, StoreStats::lastBatchSize)
                .description("writes in the last group commit").register(registry);
        Gauge.builder("reconmuc.store.queue.writes", store, StoreStats::queuedWrites)
                .description("writes waiting for the store").register(registry);
        Gauge.builder("reconmuc.store.held.stanzas", store, StoreStats::heldStanzas)
                .description("stanzas the rooms hold until the writes before them are committed").register(registry);
        FunctionCounter.builder("reconmuc.store.failures", store, StoreStats::failures)
                .description("failed commits (retried; nothing is dropped)").register(registry);
        Gauge.builder("reconmuc.store.available", store, s -> s.available() ? 1 : 0)
                .description("0 while commits fail or stall (persistent rooms refuse new messages)").register(registry);
    }

    /** The Prometheus text exposition of every meter. */
    public String scrape() {
        return registry.scrape();
    }

    /**
     * Serves {@code GET /metrics} on {@code address}:{@code port} (0: any free port); returns the
     * port. An address that names no interface of this machine fails here, at start.
     */
    public synchronized int serve(String address, int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), port), 16);
        server.createContext("/metrics", this::handle);
        server.start();
        int bound = server.getAddress().getPort();
        LOG.info("metrics at http://{}:{}/metrics", address, bound);
        return bound;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, "HEAD".equals(exchange.getRequestMethod()) ? -1 : body.length);
            if (!"HEAD".equals(exchange.getRequestMethod())) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
        gcMetrics.close();
        registry.close();
    }
}
