package org.reconmuc.replay;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.reconmuc.servers.FreePorts;

/**
 * A real Prometheus (Debian's {@code /usr/bin/prometheus}) watching the soak as an operator's would:
 * every instance serves its metrics on a port of its own ({@code --metrics-port}, the same across
 * its restarts), scraped every {@value #SCRAPE_SECONDS} s; at the end the soak asks it, through its
 * HTTP API, for the figures the soak also has. Only on 127.0.0.1; its data under {@code dir}.
 */
final class SoakPrometheus implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/bin/prometheus");
    static final int SCRAPE_SECONDS = 2;
    private static final Pattern VALUE = Pattern.compile("\"value\":\\[[^,]+,\"([^\"]+)\"\\]");

    private final Map<String, Integer> metricsPorts;
    private final int port;
    private final Process process;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private SoakPrometheus(Map<String, Integer> metricsPorts, int port, Process process) {
        this.metricsPorts = metricsPorts;
        this.port = port;
        this.process = process;
    }

    /** Starts Prometheus scraping instances {@code names} (ports chosen now); null if it is not installed. */
    static SoakPrometheus start(Path dir, List<String> names) throws Exception {
        if (!Files.isExecutable(BINARY)) {
            return null;
        }
        // Below the ephemeral range: an instance restarted after a kill binds its port again, hours later.
        int[] free = FreePorts.onLoopback(names.size() + 1);
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            ports.put(names.get(i), free[i]);
        }
        int port = free[names.size()];
        StringBuilder config = new StringBuilder("global:\n  scrape_interval: " + SCRAPE_SECONDS + "s\n"
                + "  scrape_timeout: " + SCRAPE_SECONDS + "s\nscrape_configs:\n  - job_name: reconmuc\n    static_configs:\n");
        ports.forEach((name, p) -> config.append("      - targets: ['127.0.0.1:").append(p).append("']\n")
                .append("        labels: {soak_instance: '").append(name).append("'}\n"));
        Path yml = Files.writeString(Files.createDirectories(dir).resolve("prometheus.yml"), config);
        Process process = new ProcessBuilder(BINARY.toString(), "--config.file=" + yml,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        SoakPrometheus prometheus = new SoakPrometheus(ports, port, process);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!prometheus.ready()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                prometheus.close();
                throw new IOException("Prometheus did not start: see " + dir.resolve("prometheus.log"));
            }
            Thread.sleep(200);
        }
        return prometheus;
    }

    private boolean ready() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/ready")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The flags that make instance {@code name} serve its metrics where this Prometheus scrapes them. */
    List<String> flags(String name) {
        return List.of("--metrics-port", Integer.toString(metricsPorts.get(name)));
    }

    /** The sum of an instant query's values now (NaN if it has none). */
    double query(String promql) throws IOException, InterruptedException {
        String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = VALUE.matcher(body);
        double sum = 0;
        boolean any = false;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
            any = true;
        }
        return any ? sum : Double.NaN;
    }

    /**
     * The soak's figures beside Prometheus's, after two scrapes of the quiet end: {@code figures}
     * maps a name to {the soak's value, the PromQL for the same}; each with whether they agree within 1 %.
     */
    List<Map<String, Object>> compare(Map<String, Object[]> figures) throws IOException, InterruptedException {
        Thread.sleep(TimeUnit.SECONDS.toMillis(2L * SCRAPE_SECONDS + 1));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Map.Entry<String, Object[]> f : figures.entrySet()) {
            double soak = ((Number) f.getValue()[0]).doubleValue();
            double prom = query((String) f.getValue()[1]);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("figure", f.getKey());
            row.put("soak", soak);
            row.put("prometheus", Double.isNaN(prom) ? null : prom);
            row.put("query", f.getValue()[1]);
            row.put("agree_within_1_percent", !Double.isNaN(prom) && Math.abs(prom - soak) <= 0.01 * Math.max(1, Math.abs(soak)));
            rows.add(row);
        }
        return rows;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
