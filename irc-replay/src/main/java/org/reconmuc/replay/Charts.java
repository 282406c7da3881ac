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
        XYChart chart = new XYChartBuilder().width(1100).height(600).title(title)
                .xAxisTitle("seconds since the replay started").yAxisTitle("kB/s received by all bots (10 s average)").build();
        style(chart);
        for (ScenarioResult r : results) {
            double[] y = r.perSecond[metric.ordinal()];
            int n = y.length;
            double[] xs = new double[n];
            double[] ys = new double[n];
            double window = 0;
            for (int i = 0; i < n; i++) {
                window += y[i];
                if (i >= 10) {
                    window -= y[i - 10];
                }
                xs[i] = i;
                ys[i] = window / Math.min(i + 1, 10) / 1000.0;
            }
            XYSeries s = chart.addSeries(r.label, xs, ys);
            s.setMarker(SeriesMarkers.NONE);
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
