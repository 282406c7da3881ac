package org.reconmuc.replay;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.reconmuc.replay.meter.Series.Metric;

/** PNG charts of a run (XChart): bytes per second over time (the paper's Figure 3) and latency CDFs. */
final class Charts {
    private Charts() {
    }

    /** kB per second received by all bots, 10-second moving average, one line per scenario. */
    static void bytesPerSecond(List<ScenarioResult> results, Metric metric, String title, Path file) throws IOException {
        Map<String, double[]> lines = new java.util.LinkedHashMap<>();
        for (ScenarioResult r : results) {
            lines.put(r.label, r.perSecond[metric.ordinal()]);
        }
        perSecond(lines, title, "kB/s received by all bots (10 s average)", 1000.0, 10, file);
    }

    /**
     * One line per entry over the seconds of a run, divided by {@code unit}, as a moving average
     * over {@code window} seconds (1: the values themselves).
     */
    static void perSecond(Map<String, double[]> lines, String title, String yTitle, double unit, int window, Path file)
            throws IOException {
        XYChart chart = new XYChartBuilder().width(1100).height(600).title(title)
                .xAxisTitle("seconds since the replay started").yAxisTitle(yTitle).build();
        style(chart);
        for (Map.Entry<String, double[]> line : lines.entrySet()) {
            double[] y = line.getValue();
            int n = y.length;
            double[] xs = new double[n];
            double[] ys = new double[n];
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += y[i];
                if (i >= window) {
                    sum -= y[i - window];
                }
                xs[i] = i;
                ys[i] = sum / Math.min(i + 1, window) / unit;
            }
            XYSeries s = chart.addSeries(line.getKey(), xs, ys);
            s.setMarker(SeriesMarkers.NONE);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Lines through points (x, y), with markers: e.g. CPU against occupants. */
    static void points(Map<String, double[][]> lines, String title, String xTitle, String yTitle, Path file)
            throws IOException {
        XYChart chart = new XYChartBuilder().width(1100).height(600).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle)
                .build();
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        for (Map.Entry<String, double[][]> line : lines.entrySet()) {
            if (line.getValue()[0].length > 0) {
                chart.addSeries(line.getKey(), line.getValue()[0], line.getValue()[1]);
            }
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Latency CDFs: direct replies at the parent's author, and all deliveries, per scenario. */
    static void latencyCdf(List<ScenarioResult> results, Path file) throws IOException {
        XYChart chart = new XYChartBuilder().width(1100).height(600)
                .title("Latency from send to receipt (CDF)").xAxisTitle("latency, ms (log scale)")
                .yAxisTitle("fraction of deliveries").build();
        style(chart);
        chart.getStyler().setXAxisLogarithmic(true);
        for (ScenarioResult r : results) {
            for (Map.Entry<String, List<double[]>> e : r.cdfs.entrySet()) {
                if (!e.getKey().equals("direct replies") && !e.getKey().equals("all deliveries")) {
                    continue;
                }
                List<double[]> pts = e.getValue();
                if (pts.isEmpty()) {
                    continue;
                }
                double[] xs = new double[pts.size()];
                double[] ys = new double[pts.size()];
                for (int i = 0; i < pts.size(); i++) {
                    xs[i] = Math.max(0.05, pts.get(i)[0]);
                    ys[i] = pts.get(i)[1];
                }
                XYSeries s = chart.addSeries(r.label + ": " + e.getKey(), xs, ys);
                s.setMarker(SeriesMarkers.NONE);
            }
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void style(XYChart chart) {
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
    }
}
