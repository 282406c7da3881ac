package org.reconmuc.replay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where an instance's memory outside the Java heap went, from the JVM's own native memory tracking:
 * a baseline when a process has warmed up, and at the end the change of each category since
 * (Java Heap, Class, Thread, Code, GC, Internal, Other…) in {@code nmt-<instance>.txt} and as figures.
 * RSS says that memory grew; this says what grew.
 */
final class SoakNativeMemory {
    /**
     * The instances' JVM flags: the heap resident from the start, so that RSS measures what is outside
     * it (a heap given with -Xms = -Xmx is otherwise touched page by page as the old generation first
     * fills, which reads as growth for the first hour of every process), native memory tracked, and
     * what glibc's malloc holds free given back to the system every minute (JDK 17.0.9+): a reconnect
     * of every connection (the XMPP server's restart) left ~20 MB of RSS per instance that NMT did not
     * account for, and kept it (2026-11-29-soak-2h-c).
     */
    static final List<String> JVM_FLAGS = List.of("-XX:+AlwaysPreTouch", "-XX:NativeMemoryTracking=summary",
            "-XX:TrimNativeHeapInterval=60000");

    /** One category's line: {@code -  Thread (reserved=…KB +…KB, committed=…KB +…KB)}; the deltas only in a diff. */
    private static final Pattern CATEGORY = Pattern.compile(
            "^-\\s+(.+?) \\(reserved=\\d+KB(?: [+-]\\d+KB)?, committed=(\\d+)KB(?: ([+-]\\d+)KB)?\\)", Pattern.MULTILINE);
    private static final Pattern TOTAL = Pattern.compile(
            "^Total: reserved=\\d+KB(?: [+-]\\d+KB)?, committed=(\\d+)KB(?: ([+-]\\d+)KB)?", Pattern.MULTILINE);

    private final Path out;
    /** The pids of processes with a baseline. */
    private final java.util.Set<Long> baselined = ConcurrentHashMap.newKeySet();

    SoakNativeMemory(Path out) {
        this.out = out;
    }

    /** Takes {@code pid}'s baseline (once): the figures at the end are changes since. */
    void baseline(long pid) {
        if (baselined.add(pid) && jcmd(pid, "VM.native_memory", "baseline") == null) {
            baselined.remove(pid);
        }
    }

    /**
     * At the end: {@code nmt-<name>.txt} for each instance's process, and its committed memory by category
     * (KB) with the change since its baseline where it has one.
     */
    Map<String, Object> report(Map<String, Long> pidByInstance) throws IOException {
        Map<String, Object> all = new TreeMap<>();
        for (Map.Entry<String, Long> i : pidByInstance.entrySet()) {
            long pid = i.getValue();
            boolean diff = baselined.contains(pid);
            String text = jcmd(pid, "VM.native_memory", diff ? "summary.diff" : "summary");
            if (text == null) {
                continue;
            }
            Files.writeString(out.resolve("nmt-" + i.getKey() + ".txt"), text, StandardCharsets.UTF_8);
            all.put(i.getKey(), parse(pid, diff, text));
        }
        return all;
    }

    /** Committed KB and (in a diff) the change since the baseline, of the total and of each category. */
    static Map<String, Object> parse(long pid, boolean diff, String text) {
        Map<String, Object> one = new java.util.LinkedHashMap<>();
        one.put("pid", pid);
        one.put("since_baseline", diff);
        Matcher total = TOTAL.matcher(text);
        if (total.find()) {
            one.put("total", figures(total.group(1), total.group(2)));
        }
        Map<String, Object> categories = new TreeMap<>();
        Matcher m = CATEGORY.matcher(text);
        while (m.find()) {
            categories.put(m.group(1).trim(), figures(m.group(2), m.group(3)));
        }
        one.put("categories", categories);
        return one;
    }

    private static Map<String, Long> figures(String committed, String change) {
        Map<String, Long> f = new java.util.LinkedHashMap<>();
        f.put("committed_kb", Long.parseLong(committed));
        if (change != null) {
            f.put("change_kb", Long.parseLong(change));
        }
        return f;
    }

    /** {@code jcmd pid command…}'s output, or null when it fails (the process gone, no tracking). */
    private static String jcmd(long pid, String... command) {
        List<String> cmd = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid)));
        cmd.addAll(List.of(command));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0 || text.contains("Native memory tracking is not enabled")) {
                p.destroyForcibly();
                return null;
            }
            return text;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
