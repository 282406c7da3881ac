package org.reconmuc.component.limits;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongBiFunction;

/**
 * A map that keeps its entries within a bound — a number of entries, or a weight such as bytes —
 * by forgetting the eldest as it takes new ones: the least recently used (read or written), or
 * the oldest written. An entry that alone weighs more than the bound is not kept. Deterministic:
 * what goes out goes out in the call that put the new entry in. Not thread-safe.
 */
public final class BoundedMap<K, V> {
    private record Weighed<V>(V value, long weight) {
    }

    private final LinkedHashMap<K, Weighed<V>> entries;
    private final long bound;
    private final ToLongBiFunction<? super K, ? super V> weigher;
    private long weight;

    private BoundedMap(long bound, ToLongBiFunction<? super K, ? super V> weigher, boolean accessOrder) {
        if (bound < 0) {
            throw new IllegalArgumentException("a map's bound must be >= 0, not " + bound);
        }
        this.entries = new LinkedHashMap<>(16, 0.75f, accessOrder);
        this.bound = bound;
        this.weigher = weigher;
    }

    /** At most {@code maxEntries}; the least recently used out first. */
    public static <K, V> BoundedMap<K, V> leastRecentlyUsedOut(int maxEntries) {
        return new BoundedMap<>(maxEntries, (k, v) -> 1, true);
    }

    /** At most {@code maxEntries}; the oldest written out first, however often it was read. */
    public static <K, V> BoundedMap<K, V> oldestOut(int maxEntries) {
        return new BoundedMap<>(maxEntries, (k, v) -> 1, false);
    }

    /** Entries weighing at most {@code maxWeight} together, each as {@code weigher} weighs it when put; the least recently used out first. */
    public static <K, V> BoundedMap<K, V> leastRecentlyUsedOut(long maxWeight, ToLongBiFunction<? super K, ? super V> weigher) {
        return new BoundedMap<>(maxWeight, weigher, true);
    }

    /** The value for {@code key}, or null; a use of it. */
    public V get(K key) {
        Weighed<V> w = entries.get(key);
        return w == null ? null : w.value();
    }

    /** Keeps {@code value} for {@code key} (unless it alone is heavier than the bound), forgetting the eldest as needed; the value it replaces, or null. */
    public V put(K key, V value) {
        V previous = remove(key);
        long w = weigher.applyAsLong(key, value);
        if (w > bound) {
            return previous;
        }
        entries.put(key, new Weighed<>(value, w));
        weight += w;
        for (Iterator<Weighed<V>> eldest = entries.values().iterator(); weight > bound; ) {
            weight -= eldest.next().weight();
            eldest.remove();
        }
        return previous;
    }

    /** The value for {@code key}, made by {@code make} and put if there was none. */
    public V computeIfAbsent(K key, Function<? super K, ? extends V> make) {
        V value = get(key);
        if (value == null) {
            value = make.apply(key);
            put(key, value);
        }
        return value;
    }

    /** Forgets {@code key}; the value it had, or null. */
    public V remove(K key) {
        Weighed<V> w = entries.remove(key);
        if (w == null) {
            return null;
        }
        weight -= w.weight();
        return w.value();
    }

    /** Forgets every entry whose value {@code which} accepts. */
    public void removeValuesIf(Predicate<? super V> which) {
        for (Iterator<Weighed<V>> it = entries.values().iterator(); it.hasNext(); ) {
            Weighed<V> w = it.next();
            if (which.test(w.value())) {
                weight -= w.weight();
                it.remove();
            }
        }
    }

    public void clear() {
        entries.clear();
        weight = 0;
    }

    public int size() {
        return entries.size();
    }

    /** What the entries weigh together (their number, where each weighs 1). */
    public long weight() {
        return weight;
    }
}
