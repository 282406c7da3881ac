package org.reconmuc.component.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Random rooms, requirements, replies, joins, leaves and requirement changes, checked against
 * the invariants of the semantics: every message posted while an occupant is present reaches
 * it exactly once; no reply before its parent; a matching message is never retained; the
 * retained count stays under the volume; no message waits longer than the time bound.
 */
class ConsistencyModelTest {
    private static final String[] TOPICS = {"ubuntu", "linux", "rust", "mediawiki", "stripe", "meeting"};

    /** One occupant as the model sees it. */
    private static final class Person {
        final int id;
        boolean present;
        Reader<Integer> reader; // null: standard MUC
        long joinedAfter;
        final List<Long> received = new ArrayList<>();

        Person(int id) {
            this.id = id;
        }
    }

    private final Map<Long, Long> parentOf = new HashMap<>();
    private final Map<Long, Integer> authorOf = new HashMap<>();

    @Property(tries = 250)
    void theInvariantsHold(@ForAll long seed, @ForAll @IntRange(min = 20, max = 400) int steps,
            @ForAll @IntRange(min = 2, max = 60) int capacity) {
        Random random = new Random(seed);
        ConsistencyEngine<Integer> engine = new ConsistencyEngine<>(capacity);
        List<Person> people = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            people.add(new Person(i));
        }
        long[] now = {1_000_000};
        long seq = 0;
        parentOf.clear();
        authorOf.clear();

        for (int step = 0; step < steps; step++) {
            Person p = people.get(random.nextInt(people.size()));
            int action = random.nextInt(100);
            List<Delivery<Integer>> out = new ArrayList<>();
            boolean boundFlushesOnly = true; // a requirements change may flush overdue messages at once
            if (!p.present) {
                p.present = true;
                p.received.clear();
                p.joinedAfter = seq;
                p.reader = random.nextInt(4) == 0 ? null : engine.relax(p.id, randomRequirements(random, capacity));
            } else if (action < 5) {
                if (p.reader != null) {
                    engine.remove(p.reader);
                }
                p.present = false;
                p.reader = null;
            } else if (action < 12) {
                boundFlushesOnly = false;
                Requirements r = randomRequirements(random, capacity);
                if (p.reader == null) {
                    p.reader = engine.relax(p.id, r);
                } else {
                    engine.update(p.reader, r, now[0], out);
                }
            } else if (action < 15 && p.reader != null) {
                boundFlushesOnly = false;
                engine.standard(p.reader, out);
                p.reader = null;
            } else if (action < 30) {
                long target = now[0] + random.nextInt(90_000);
                while (engine.nextDeadline() <= target) {
                    now[0] = engine.nextDeadline();
                    engine.onTime(now[0], out);
                    apply(out, people, engine, now[0], true);
                }
                now[0] = target;
            } else {
                seq++;
                long parent = 0;
                if (seq > 1 && capacity > 1 && random.nextBoolean()) {
                    long span = Math.min(seq - 1, capacity - 1);
                    parent = seq - 1 - random.nextInt((int) span);
                }
                Set<FilterKey> keys = new HashSet<>();
                if (random.nextInt(3) > 0) {
                    keys.add(FilterKey.topic(TOPICS[random.nextInt(TOPICS.length)]));
                }
                keys.add(FilterKey.nick("n" + p.id));
                List<Reader<Integer>> direct = new ArrayList<>();
                if (p.reader != null) {
                    direct.add(p.reader);
                }
                if (parent > 0) {
                    Person author = people.get(authorOf.get(parent));
                    if (author.present && author.reader != null) {
                        direct.add(author.reader);
                    }
                }
                Person addressed = people.get(random.nextInt(people.size()));
                if (random.nextInt(5) == 0 && addressed.present && addressed.reader != null) {
                    direct.add(addressed.reader);
                }
                parentOf.put(seq, parent);
                authorOf.put(seq, p.id);
                Map<Integer, Reader<Integer>> matchingBefore = new HashMap<>();
                for (Person q : people) {
                    if (q.present && q.reader != null && q.reader.requirements().matchesAny(keys)) {
                        matchingBefore.put(q.id, q.reader);
                    }
                }
                engine.onMessage(seq, now[0], parent, keys, direct, out);
                for (Person q : people) {
                    if (q.present && q.reader == null) {
                        q.received.add(seq); // standard occupants get it at once
                    }
                }
                final long posted = seq;
                for (Integer id : matchingBefore.keySet()) {
                    assertThat(out).as("a matching message is never retained").anySatisfy(d -> {
                        assertThat(d.owner()).isEqualTo(id);
                        assertThat(d.kind()).isEqualTo(Delivery.Kind.NOW);
                        assertThat(d.seqs()[d.seqs().length - 1]).isEqualTo(posted);
                    });
                }
                for (Reader<Integer> r : direct) {
                    assertThat(out).as("direct recipients get it at once")
                            .anyMatch(d -> d.owner().equals(r.owner()) && d.seqs()[d.seqs().length - 1] == posted);
                }
            }
            apply(out, people, engine, now[0], boundFlushesOnly);
            for (Person q : people) {
                if (q.present && q.reader != null) {
                    long retained = q.reader.retained(engine.head());
                    assertThat(retained).as("retained count under the volume").isLessThan(q.reader.requirements().volume());
                    if (retained > 0) {
                        assertThat(engine.postedAt(q.reader.cursor) + q.reader.requirements().timeMillis())
                                .as("nothing waits past its time bound").isGreaterThan(now[0]);
                    }
                }
            }
        }
        // The end: every relaxed occupant is flushed, then everyone present must have everything.
        List<Delivery<Integer>> out = new ArrayList<>();
        for (Person q : people) {
            if (q.present && q.reader != null) {
                engine.standard(q.reader, out);
            }
        }
        apply(out, people, engine, now[0], false);
        for (Person q : people) {
            if (!q.present) {
                continue;
            }
            List<Long> expected = new ArrayList<>();
            for (long s = q.joinedAfter + 1; s <= seq; s++) {
                expected.add(s);
            }
            assertThat(q.received).as("occupant %d gets each message exactly once", q.id)
                    .containsExactlyInAnyOrderElementsOf(expected);
            Map<Long, Integer> position = new HashMap<>();
            for (int i = 0; i < q.received.size(); i++) {
                position.put(q.received.get(i), i);
            }
            for (long m : q.received) {
                long parent = parentOf.get(m);
                if (parent > q.joinedAfter) {
                    assertThat(position.get(parent)).as("parent %d before reply %d for %d", parent, m, q.id)
                            .isLessThan(position.get(m));
                }
            }
        }
    }

    private static void apply(List<Delivery<Integer>> out, List<Person> people, ConsistencyEngine<Integer> engine,
            long now, boolean checkLatency) {
        for (Delivery<Integer> d : out) {
            Person q = people.get(d.owner());
            for (long s : d.seqs()) {
                if (checkLatency && d.kind() == Delivery.Kind.FLUSH && q.reader != null) {
                    assertThat(now - engine.postedAt(s)).as("waited within the time bound")
                            .isLessThanOrEqualTo(q.reader.requirements().timeMillis());
                }
                q.received.add(s);
            }
        }
        out.clear();
    }

    private static Requirements randomRequirements(Random random, int capacity) {
        Set<FilterKey> filters = new HashSet<>();
        int n = random.nextInt(3);
        for (int i = 0; i < n; i++) {
            filters.add(random.nextInt(4) == 0 ? FilterKey.nick("n" + random.nextInt(8))
                    : FilterKey.topic(TOPICS[random.nextInt(TOPICS.length)]));
        }
        long time = 1000L * (1 + random.nextInt(120));
        int volume = 1 + random.nextInt(Math.max(1, Math.min(capacity, 60)));
        return new Requirements(filters, time, volume, Aggregation.PLAIN);
    }
}
