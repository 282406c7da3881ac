package org.reconmuc.replay.meter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A concurrent latency histogram in milliseconds: 0.05 ms buckets up to 100 ms, 1 ms buckets up
 * to 10 s, 100 ms buckets up to 1,000 s, then one overflow bucket.
 */
public final class Histogram {
    private static final int FINE = 2000;      // 0..100 ms by 0.05
    private static final int MID = 9900;       // 100..10,000 ms by 1
    private static final int COARSE = 9900;    // 10 s..1,000 s by 100 ms
    private static final int SIZE = FINE + MID + COARSE + 1;

    private final AtomicLongArray buckets = new AtomicLongArray(SIZE);
    private final java.util.concurrent.atomic.AtomicLong count = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.DoubleAdder sum = new java.util.concurrent.atomic.DoubleAdder();

    public void record(double ms) {
        buckets.incrementAndGet(index(Math.max(0, ms)));
        count.incrementAndGet();
        sum.add(ms);
    }

    static int index(double ms) {
        if (ms < 100) {
            return (int) (ms / 0.05);
        }
        if (ms < 10_000) {
            return FINE + (int) (ms - 100);
        }
        if (ms < 1_000_000) {
            return FINE + MID + (int) ((ms - 10_000) / 100);
        }
        return SIZE - 1;
    }

    /** The upper edge of a bucket, in ms. */
    static double upper(int i) {
        if (i < FINE) {
            return (i + 1) * 0.05;
        }
        if (i < FINE + MID) {
            return 100 + (i - FINE + 1);
        }
        if (i < SIZE - 1) {
            return 10_000 + (i - FINE - MID + 1) * 100.0;
        }
        return Double.POSITIVE_INFINITY;
    }

    public long count() {
        return count.get();
    }

    public double mean() {
        long n = count.get();
        return n == 0 ? Double.NaN : sum.sum() / n;
    }

    /** The q-quantile (0..1), as the upper edge of its bucket; NaN when empty. */
    public double quantile(double q) {
        long n = count.get();
        if (n == 0) {
            return Double.NaN;
        }
        long rank = Math.max(1, (long) Math.ceil(q * n));
        long seen = 0;
        for (int i = 0; i < SIZE; i++) {
            seen += buckets.get(i);
            if (seen >= rank) {
                return upper(i);
            }
        }
        return upper(SIZE - 1);
    }

    /** CDF points (ms, fraction at or below), one per non-empty bucket. */
    public List<double[]> cdf() {
        List<double[]> points = new ArrayList<>();
        long n = count.get();
        if (n == 0) {
            return points;
        }
        long seen = 0;
        for (int i = 0; i < SIZE; i++) {
            long b = buckets.get(i);
            if (b > 0) {
                seen += b;
                points.add(new double[] {upper(i), (double) seen / n});
            }
        }
        return points;
    }

    /** The non-empty buckets as {@code index:count} pairs, comma-separated, then {@code ;sum}: see {@link #addAll}. */
    public String toCompact() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < SIZE; i++) {
            long n = buckets.get(i);
            if (n > 0) {
                b.append(b.length() == 0 ? "" : ",").append(i).append(':').append(n);
            }
        }
        return b.append(';').append(sum.sum()).toString();
    }

    /** Adds what {@link #toCompact} wrote of another histogram (histograms of several processes merged). */
    public void addAll(String compact) {
        int semi = compact.lastIndexOf(';');
        if (semi > 0) {
            for (String pair : compact.substring(0, semi).split(",")) {
                int colon = pair.indexOf(':');
                long n = Long.parseLong(pair.substring(colon + 1));
                buckets.addAndGet(Integer.parseInt(pair.substring(0, colon)), n);
                count.addAndGet(n);
            }
        }
        sum.add(Double.parseDouble(compact.substring(semi + 1)));
    }
}
