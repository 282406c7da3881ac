package org.reconmuc.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;

/** The curve of a scale run as a table ({@code README.md}), its rows ({@code rows.json}) and charts (PNG, log scale). */
final class ScaleReport {
    private ScaleReport() {
    }

    static void write(ScaleCommand.ScaleOptions o, List<Map<String, Object>> rows, String loadBefore, String loadAfter)
            throws IOException {
        Files.writeString(o.out.resolve("rows.json"), Json.write(rows));
        StringBuilder md = new StringBuilder();
        md.append("# One room, growing: ").append(o.server).append("\n\n");
        md.append("Light bots (`irc-replay scale`), ").append(o.messages).append(" IRC messages at ").append(o.rate)
                .append("/s into one room; relaxed bots: no filter, time ").append(o.timeSeconds).append(" s, volume ")
                .append(o.volume).append(", `").append(o.aggregation).append("`; component scenarios join at presence level `")
                .append(o.presenceLevel).append("`; no stream compression (XEP-0138) anywhere.\n\n");
        md.append("Load before: ").append(loadBefore).append("; after: ").append(loadAfter).append(".\n\n");
        md.append("| occupants | scenario | verdict | at-once p99 s | digests p99 past bound s | lost / dup / out of order / late "
                + "| CPU s server / component / bots | deliveries per server+component CPU-s | RSS MB server / component / bots "
                + "| join p50 / p99 ms | stanzas / bytes per join | component B per occupant | bots KB per session |\n");
        md.append("|---:|---|---|---:|---:|---|---|---:|---|---|---|---:|---:|\n");
        for (Map<String, Object> r : rows) {
            md.append("| ").append(r.get("occupants")).append(" | ").append(r.get("scenario")).append(" | ")
                    .append(r.getOrDefault("verdict", "")).append(" | ")
                    .append(num(r.get("immediate_p99_ms"), 1000, 2)).append(" | ")
                    .append(num(r.get("retained_past_bound_p99_ms"), 1000, 2)).append(" | ")
                    .append(r.get("lost")).append(" / ").append(r.get("duplicated")).append(" / ").append(r.get("out_of_order"))
                    .append(" / ").append(r.get("late")).append(" | ")
                    .append(num(r.get("cpu_server"), 1, 1)).append(" / ").append(num(r.get("cpu_component"), 1, 1)).append(" / ")
                    .append(num(r.get("cpu_bots"), 1, 1)).append(" | ")
                    .append(num(r.get("deliveries_per_server_component_cpu_second"), 1, 0)).append(" | ")
                    .append(num(r.get("server_rss_peak_bytes"), 1e6, 0)).append(" / ").append(num(r.get("component_rss_peak_bytes"), 1e6, 0))
                    .append(" / ").append(num(r.get("bots_rss_peak_bytes"), 1e6, 0)).append(" | ")
                    .append(num(r.get("join_p50_ms"), 1, 0)).append(" / ").append(num(r.get("join_p99_ms"), 1, 0)).append(" | ")
                    .append(num(r.get("fill_stanzas_per_join"), 1, 1)).append(" / ").append(num(r.get("fill_bytes_per_join"), 1, 0))
                    .append(" | ").append(num(r.get("component_bytes_per_occupant"), 1, 0)).append(" | ")
                    .append(num(r.get("bots_rss_bytes_per_session"), 1000, 1)).append(" |\n");
        }
        Files.writeString(o.out.resolve("table.md"), md.toString());
        chart(rows, "immediate_p99_ms", 1000, "At-once p99 lag against occupants (" + o.server + ")",
                "at-once p99, s (log)", o.out.resolve("lag.png"));
        chart(rows, null, 1, "Server + component CPU in the measurement against occupants (" + o.server + ")",
                "CPU seconds (log)", o.out.resolve("cpu.png"));
    }

    private static void chart(List<Map<String, Object>> rows, String key, double unit, String title, String yTitle, Path file)
            throws IOException {
        Map<String, List<double[]>> lines = new LinkedHashMap<>();
        for (Map<String, Object> r : rows) {
            Object v = key == null ? sum(r.get("cpu_server"), r.get("cpu_component")) : r.get(key);
            if (v instanceof Number n && !Double.isNaN(n.doubleValue()) && n.doubleValue() > 0) {
                lines.computeIfAbsent(String.valueOf(r.get("scenario")), k -> new ArrayList<>())
                        .add(new double[] {((Number) r.get("occupants")).doubleValue(), n.doubleValue() / unit});
            }
        }
        XYChart chart = new XYChartBuilder().width(1100).height(600).title(title).xAxisTitle("occupants (log)")
                .yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        for (Map.Entry<String, List<double[]>> e : lines.entrySet()) {
            double[] x = e.getValue().stream().mapToDouble(p -> p[0]).toArray();
            double[] y = e.getValue().stream().mapToDouble(p -> p[1]).toArray();
            chart.addSeries(e.getKey(), x, y);
        }
        if (!lines.isEmpty()) {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private static Object sum(Object a, Object b) {
        return a instanceof Number x && b instanceof Number y ? x.doubleValue() + y.doubleValue() : null;
    }

    private static String num(Object v, double unit, int decimals) {
        if (!(v instanceof Number n) || Double.isNaN(n.doubleValue()) || n.doubleValue() < 0) {
            return "–";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", n.doubleValue() / unit);
    }
}
