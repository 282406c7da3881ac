package org.reconmuc.replay;

import java.io.PrintStream;
import java.util.Locale;
import org.reconmuc.replay.meter.Histogram;
import org.reconmuc.replay.meter.Series;
import org.reconmuc.replay.meter.Series.Metric;

/**
 * The console: a progress bar and a one-line live status, rewritten in place on a terminal
 * ({@code \r}), or one line every 10 s when the output is not a terminal (logs, CI).
 */
final class Status {
    private final PrintStream out;
    private final boolean enabled;
    private final boolean terminal;
    private volatile String phase = "";
    private volatile String line = "";
    private volatile ProcSampler.Sample last;
    private volatile ProcSampler.Sample previous;
    private long lastPrint;

    Status(PrintStream out, boolean enabled) {
        this.out = out;
        this.enabled = enabled;
        this.terminal = System.console() != null;
    }

    synchronized void phase(String p) {
        if (!enabled) {
            return;
        }
        if (terminal && !line.isEmpty()) {
            out.print("\r" + pad(line) + "\n");
        }
        phase = p;
        line = "";
        out.println("[replay] " + p);
        out.flush();
    }

    void progress(int done, int total) {
        show(bar(done, total) + String.format(Locale.ROOT, " %d/%d", done, total), done == total);
    }

    void sample(ProcSampler.Sample s) {
        previous = last;
        last = s;
    }

    void sending(int sent, int total, Histogram lag, Series series) {
        int sec = series.second(System.nanoTime()) - 1;
        long rxStanzas = sec >= 0 ? series.get(Metric.STANZAS, sec) : 0;
        long rxBytes = sec >= 0 ? series.get(Metric.SOCKET_BYTES, sec) : 0;
        String cpu = "";
        ProcSampler.Sample a = previous;
        ProcSampler.Sample b = last;
        if (a != null && b != null) {
            cpu = String.format(Locale.ROOT, " | cpu server %.0f%% harness %.0f%%",
                    100 * (b.serverCpu() - a.serverCpu()), 100 * (b.harnessCpu() - a.harnessCpu()));
            if (!Double.isNaN(b.componentCpu())) {
                cpu += String.format(Locale.ROOT, " component %.0f%%", 100 * (b.componentCpu() - a.componentCpu()));
            }
        }
        show(bar(sent, total) + String.format(Locale.ROOT,
                " %d/%d sent | t=%ds | lag p99 %.1f ms | rx %,d stanzas/s %,.0f kB/s%s",
                sent, total, Math.max(0, sec + 1), lag.quantile(0.99), rxStanzas, rxBytes / 1000.0, cpu), sent == total);
    }

    void draining(long missing) {
        show(String.format(Locale.ROOT, "deliveries still missing: %,d", missing), missing == 0);
    }

    private synchronized void show(String text, boolean force) {
        if (!enabled) {
            return;
        }
        line = text;
        long now = System.nanoTime();
        if (terminal) {
            if (force || now - lastPrint > 200_000_000L) {
                out.print("\r" + pad(text));
                out.flush();
                lastPrint = now;
            }
        } else if (force || now - lastPrint > 10_000_000_000L) {
            out.println("[replay]   " + text);
            out.flush();
            lastPrint = now;
        }
    }

    private static String pad(String s) {
        return s.length() >= 140 ? s : s + " ".repeat(140 - s.length());
    }

    static String bar(int done, int total) {
        int width = 30;
        int filled = total == 0 ? width : (int) ((long) done * width / total);
        return "[" + "#".repeat(filled) + ".".repeat(width - filled) + "] "
                + String.format(Locale.ROOT, "%3d%%", total == 0 ? 100 : (int) ((long) done * 100 / total));
    }
}
