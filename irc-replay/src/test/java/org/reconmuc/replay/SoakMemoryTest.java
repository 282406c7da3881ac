package org.reconmuc.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** How the soak judges memory: each process after its own warm-up, the instances' live heaps added up, the JVM's account. */
class SoakMemoryTest {
    private static Map<String, Object> sample(long pid, double rss, Double liveHeap) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("pid", pid);
        one.put("live_heap_mb", liveHeap);
        one.put("rss_mb", rss);
        return one;
    }

    /**
     * i1 lives 60 minutes, flat; i2 is killed at minute 30 and its new JVM grows 1 MB a minute for its
     * first 20 minutes, then stays flat.
     */
    private static List<Map<String, Object>> rows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int m = 1; m <= 60; m++) {
            Map<String, Object> instances = new TreeMap<>();
            instances.put("i1", sample(100, 200, 10.0));
            if (m < 30) {
                instances.put("i2", sample(200, 200, 10.0));
            } else if (m > 30) {
                instances.put("i2", sample(300, 180 + Math.min(m - 31, 19), 10.0 + (m >= 55 ? 0.1 : 0)));
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("minute", m);
            row.put("instances", instances);
            rows.add(row);
        }
        return rows;
    }

    @Test
    void aRestartedJvmsWarmUpIsNotCountedAsGrowthButItsOwnLaterGrowthWouldBe() {
        List<Map<String, Object>> byProcess = SoakSummary.byProcess(rows(), 19);
        assertThat(byProcess).extracting(p -> p.get("pid")).containsExactly(100L, 200L, 300L);
        Map<String, Object> restarted = byProcess.get(2);
        assertThat(restarted.get("first_minute")).isEqualTo(31);
        assertThat(restarted.get("minutes_judged")).isEqualTo(11);   // minutes 50–60
        assertThat((Double) restarted.get("rss_mb_per_hour")).isCloseTo(0, within(1e-9));
        assertThat((Double) byProcess.get(0).get("rss_mb_per_hour")).isCloseTo(0, within(1e-9));
        assertThat(byProcess.get(1).get("rss_mb_per_hour")).as("judged 10 minutes: 20–29").isNotNull();

        List<Map<String, Object>> growing = SoakSummary.byProcess(rows(), 5);   // judged in its warm-up: 1 MB a minute
        assertThat((Double) growing.get(2).get("rss_mb_per_hour")).isGreaterThan(10);
    }

    @Test
    void theLiveHeapAddsUpTheInstancesOnlyInMinutesEveryOneAnswered() {
        Map<String, Object> all = SoakSummary.liveHeapOfAllInstances(rows(), 19);
        assertThat(all.get("minutes")).isEqualTo(40);   // minutes 20–60 but 30, when i2 was down
        assertThat((Double) all.get("first_five_mb")).isCloseTo(20, within(1e-9));
        assertThat((Double) all.get("last_five_mb")).isCloseTo(20.1, within(1e-9));
        assertThat((Double) all.get("change_percent")).isCloseTo(0.5, within(1e-9));
    }

    /** What JDK 17's {@code jcmd PID VM.native_memory summary.diff} prints (abridged). */
    private static final String NMT_DIFF = """
            28162:

            Native Memory Tracking:

            (Omitting categories weighting less than 1KB)

            Total: reserved=1478466KB -1369KB, committed=113338KB -2289KB

            -                 Java Heap (reserved=65536KB, committed=65536KB)
                                        (mmap: reserved=65536KB, committed=65536KB)
             
            -                    Thread (reserved=17454KB +1027KB, committed=982KB +107KB)
                                        (thread #17 +1)
                                        (stack: reserved=17408KB +1024KB, committed=936KB +104KB)
             
            -                        GC (reserved=12021KB, committed=12021KB)
                                        (malloc=9617KB #102)
            """;

    @SuppressWarnings("unchecked")
    @Test
    void theJvmsAccountGivesEachCategorysCommittedMemoryAndItsChangeSinceTheBaseline() {
        Map<String, Object> parsed = SoakNativeMemory.parse(28162, true, NMT_DIFF);
        assertThat(parsed.get("total")).isEqualTo(Map.of("committed_kb", 113338L, "change_kb", -2289L));
        Map<String, Object> categories = (Map<String, Object>) parsed.get("categories");
        assertThat(categories).containsOnlyKeys("Java Heap", "Thread", "GC");
        assertThat(categories.get("Thread")).isEqualTo(Map.of("committed_kb", 982L, "change_kb", 107L));
        assertThat(categories.get("Java Heap")).isEqualTo(Map.of("committed_kb", 65536L));
    }
}
