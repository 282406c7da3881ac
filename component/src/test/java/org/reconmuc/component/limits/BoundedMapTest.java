package org.reconmuc.component.limits;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BoundedMapTest {

    @Test
    void pastItsBoundTheLeastRecentlyUsedGoesFirst() {
        BoundedMap<String, Integer> map = BoundedMap.leastRecentlyUsedOut(3);
        map.put("a", 1);
        map.put("b", 2);
        map.put("c", 3);
        assertThat(map.get("a")).isEqualTo(1);   // a used: b is now the least recently used
        map.put("d", 4);
        assertThat(map.get("b")).isNull();
        assertThat(map.get("a")).isEqualTo(1);
        assertThat(map.get("c")).isEqualTo(3);
        assertThat(map.get("d")).isEqualTo(4);
        assertThat(map.size()).isEqualTo(3);
        assertThat(map.weight()).isEqualTo(3);
    }

    @Test
    void oldestOutForgetsByAgeHoweverOftenAnEntryWasRead() {
        BoundedMap<String, Integer> map = BoundedMap.oldestOut(2);
        map.put("a", 1);
        map.put("b", 2);
        map.get("a");
        map.put("c", 3);
        assertThat(map.get("a")).isNull();
        assertThat(map.get("b")).isEqualTo(2);
        assertThat(map.get("c")).isEqualTo(3);
    }

    @Test
    void computeIfAbsentMakesOnceAndCountsAsAUse() {
        BoundedMap<String, StringBuilder> map = BoundedMap.leastRecentlyUsedOut(2);
        StringBuilder a = map.computeIfAbsent("a", k -> new StringBuilder(k));
        map.put("b", new StringBuilder("b"));
        assertThat(map.computeIfAbsent("a", k -> new StringBuilder("again"))).isSameAs(a);
        map.put("c", new StringBuilder("c"));
        assertThat(map.get("b")).isNull();
        assertThat(map.get("a")).isSameAs(a);
    }

    @Test
    void weighedEntriesGoAsManyAsItTakesAndOneHeavierThanTheBoundIsNotKept() {
        BoundedMap<String, String> map = BoundedMap.leastRecentlyUsedOut(10, (k, v) -> v.length());
        map.put("a", "xxx");
        map.put("b", "xxx");
        map.put("c", "xxx");
        assertThat(map.weight()).isEqualTo(9);
        map.put("d", "xxxxxxx");   // 16: a and b go
        assertThat(map.get("a")).isNull();
        assertThat(map.get("b")).isNull();
        assertThat(map.get("c")).isEqualTo("xxx");
        assertThat(map.weight()).isEqualTo(10);
        map.put("e", "x".repeat(11));
        assertThat(map.get("e")).isNull();
        assertThat(map.weight()).as("nothing went for what is not kept").isEqualTo(10);
        assertThat(map.size()).isEqualTo(2);
    }

    @Test
    void replacingRemovingAndClearingKeepTheWeightTrue() {
        BoundedMap<String, String> map = BoundedMap.leastRecentlyUsedOut(100, (k, v) -> v.length());
        map.put("a", "xx");
        assertThat(map.put("a", "xxxxx")).isEqualTo("xx");
        assertThat(map.weight()).isEqualTo(5);
        map.put("b", "y");
        map.put("c", "yy");
        map.removeValuesIf(v -> v.startsWith("y"));
        assertThat(map.size()).isEqualTo(1);
        assertThat(map.weight()).isEqualTo(5);
        assertThat(map.remove("a")).isEqualTo("xxxxx");
        assertThat(map.remove("a")).isNull();
        assertThat(map.weight()).isZero();
        map.put("d", "zzz");
        map.clear();
        assertThat(map.size()).isZero();
        assertThat(map.weight()).isZero();
    }

    @Test
    void aBoundOfZeroKeepsNothing() {
        BoundedMap<String, Integer> map = BoundedMap.leastRecentlyUsedOut(0);
        assertThat(map.computeIfAbsent("a", k -> 1)).isEqualTo(1);
        assertThat(map.get("a")).isNull();
        assertThat(map.size()).isZero();
    }
}
