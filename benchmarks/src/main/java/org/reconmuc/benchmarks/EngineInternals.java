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
 * Read-only counts of the references the engine holds in its private structures (by
 * reflection; the component is on the class path, so its private fields are accessible): how
 * many entries its trigger buckets and timers hold, and how many of those are live rather than
 * stale entries waiting to be skipped. For the footprint report's evidence only.
 */
final class EngineInternals {
    /** References held, per structure. */
    record Counts(long bucketRefs, long liveBucketRefs, long timerEntries, long timerRefs, long liveTimerRefs,
            long idleRefs, long filterIndexRefs) {
    }

    private EngineInternals() {
    }

    static Counts count(ConsistencyEngine<?> engine) {
        try {
            Map<Long, List<Reader<?>>> buckets = field(engine, "triggerBuckets");
            Map<?, Set<Reader<?>>> filterIndex = field(engine, "filterIndex");
            Map<Long, List<Reader<?>>> idle = field(engine, "idleByTime");
            Collection<Object> timers = field(engine, "timers");
            Field trigger = Reader.class.getDeclaredField("trigger");
            Field active = Reader.class.getDeclaredField("active");
            Field cursor = Reader.class.getDeclaredField("cursor");
            trigger.setAccessible(true);
            active.setAccessible(true);
            cursor.setAccessible(true);
            long bucketRefs = 0;
            long live = 0;
            for (Map.Entry<Long, List<Reader<?>>> e : buckets.entrySet()) {
                for (Reader<?> r : e.getValue()) {
                    bucketRefs++;
                    if (active.getBoolean(r) && trigger.getLong(r) == e.getKey()) {
                        live++;
                    }
                }
            }
            long timerRefs = 0;
            long liveTimer = 0;
            for (Object t : timers) {
                Method readers = t.getClass().getDeclaredMethod("readers");
                Method seq = t.getClass().getDeclaredMethod("seq");
                Method time = t.getClass().getDeclaredMethod("timeMillis");
                readers.setAccessible(true);
                seq.setAccessible(true);
                time.setAccessible(true);
                for (Object o : (List<?>) readers.invoke(t)) {
                    Reader<?> r = (Reader<?>) o;
                    timerRefs++;
                    if (active.getBoolean(r) && cursor.getLong(r) == (Long) seq.invoke(t)
                            && r.requirements().timeMillis() == (Long) time.invoke(t)) {
                        liveTimer++;
                    }
                }
            }
            long idleRefs = idle.values().stream().mapToLong(List::size).sum();
            long indexRefs = filterIndex.values().stream().mapToLong(Set::size).sum();
            return new Counts(bucketRefs, live, timers.size(), timerRefs, liveTimer, idleRefs, indexRefs);
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
}
