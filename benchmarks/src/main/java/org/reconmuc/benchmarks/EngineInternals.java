package org.reconmuc.benchmarks;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.reconmuc.component.consistency.ConsistencyEngine;
import org.reconmuc.component.consistency.Reader;

/**
 * Read-only counts of what the engine holds in its private structures (by reflection, for the
 * footprint report's evidence only): entries in its trigger buckets and its timer queue, and
 * how many of those are live rather than stale entries waiting to be skipped. Time bounds keep
 * readers in intrusive lists, so a timer holds no reference to any reader.
 */
final class EngineInternals {
    /** Entries held, per structure. */
    record Counts(long bucketRefs, long liveBucketRefs, long timerEntries, long liveTimerEntries, long filterIndexRefs) {
    }

    private EngineInternals() {
    }

    static Counts count(ConsistencyEngine<?> engine) {
        try {
            List<Reader<?>>[] buckets = field(engine, "triggerBuckets");
            Map<?, List<Reader<?>>> filterIndex = field(engine, "filterIndex");
            Collection<Object> timers = field(engine, "timers");
            long bucketRefs = 0;
            long live = 0;
            for (int slot = 0; slot < buckets.length; slot++) {
                if (buckets[slot] == null) {
                    continue;
                }
                for (Reader<?> r : buckets[slot]) {
                    bucketRefs++;
                    if ((Boolean) field(r, "active") && (Long) field(r, "trigger") % buckets.length == slot) {
                        live++;
                    }
                }
            }
            long liveTimers = 0;
            for (Object t : timers) {
                Object timeClass = call(t, "timeClass");
                long seq = (Long) call(t, "seq");
                Object[] byCursor = field(timeClass, "byCursor");
                for (Object r = byCursor[(int) (seq % byCursor.length)]; r != null; r = field(r, "next")) {
                    if ((Long) field(r, "cursor") == seq) {
                        liveTimers++;
                        break;
                    }
                }
            }
            long indexRefs = filterIndex.values().stream().mapToLong(List::size).sum();
            return new Counts(bucketRefs, live, timers.size(), liveTimers, indexRefs);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the engine's internals changed; update EngineInternals", e);
        }
    }

    /** A reader's spilled early entries (null when it never had more than Reader.INLINE). */
    static long[] early(Reader<?> reader) {
        try {
            return field(reader, "spill");
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the engine's internals changed; update EngineInternals", e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T field(Object o, String name) throws ReflectiveOperationException {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return (T) f.get(o);
    }

    private static Object call(Object o, String method) throws ReflectiveOperationException {
        Method m = o.getClass().getDeclaredMethod(method);
        m.setAccessible(true);
        return m.invoke(o);
    }
}
