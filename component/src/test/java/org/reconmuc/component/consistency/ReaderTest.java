package org.reconmuc.component.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * A reader's early deliveries as bits after its cursor, against the plain model: the set of
 * messages delivered, and the cursor as the oldest message not in it.
 */
class ReaderTest {
    private static final Requirements ANY = new Requirements(Set.of(), 60_000, 1, Aggregation.PLAIN);

    @Test
    void earlyDeliveriesFoldIntoTheCursorAcrossTheInlineWords() {
        Reader<String> reader = new Reader<>("alice", ANY, 1);
        for (long seq = 2; seq <= 300; seq++) {
            reader.markEarly(seq); // everything but 1 went out at once
        }
        assertThat(reader.earlyCount()).isEqualTo(299);
        assertThat(reader.spilledWords()).as("bits past the two inline words").isEqualTo(3);
        assertThat(reader.retained(300)).isEqualTo(1);
        assertThat(reader.isEarly(129)).isTrue();
        assertThat(reader.isEarly(1)).isFalse();
        reader.markEarly(1);
        assertThat(reader.cursor).as("the cursor passes the whole early run").isEqualTo(301);
        assertThat(reader.earlyCount()).isZero();
        assertThat(reader.retained(300)).isZero();
        for (long seq = 290; seq <= 310; seq++) {
            assertThat(reader.isEarly(seq)).as("nothing early after the fold: %d", seq).isFalse();
        }
    }

    @Test
    void theCursorMovingShiftsTheBitsOfEveryWord() {
        Reader<String> reader = new Reader<>("dave", ANY, 1);
        for (long seq = 2; seq <= 250; seq++) {
            if (seq != 100 && seq != 240) {
                reader.markEarly(seq);
            }
        }
        reader.markEarly(1);
        assertThat(reader.cursor).isEqualTo(100);
        for (long seq = 101; seq <= 250; seq++) {
            assertThat(reader.isEarly(seq)).as("seq %d", seq).isEqualTo(seq != 240);
        }
        long[] retained = new long[(int) reader.retained(250)];
        reader.retainedInto(250, retained);
        assertThat(retained).containsExactly(100, 240);
    }

    @Test
    void aReaderWithinTheInlineWordsAllocatesNothing() {
        Reader<String> reader = new Reader<>("bob", ANY, 1);
        for (long seq = 3; seq <= 129; seq += 2) {
            reader.markEarly(seq);
        }
        assertThat(reader.spilledWords()).isZero();
        long[] retained = new long[(int) reader.retained(129)];
        reader.retainedInto(129, retained);
        assertThat(retained).hasSize(65).startsWith(1, 2, 4, 6).endsWith(126, 128);
    }

    @Property(tries = 100)
    void bitsAgreeWithTheSetOfDeliveredMessages(@ForAll long seed, @ForAll @IntRange(min = 1, max = 400) int window) {
        Random random = new Random(seed);
        Reader<String> reader = new Reader<>("carol", ANY, 1);
        TreeSet<Long> early = new TreeSet<>(); // delivered and after the cursor
        long cursor = 1;
        long head = 0;
        for (int step = 0; step < 2000; step++) {
            if (head - cursor + 1 < window) {
                head++; // a new message, retained
            }
            int action = random.nextInt(20);
            // Flushes about once a window, so that early bits reach past the inline words.
            if (random.nextInt(Math.max(20, window)) == 0) {
                cursor = head + 1; // a flush
                early.clear();
                reader.cursor = cursor;
                reader.clearEarly();
            } else if (head >= cursor && action < 11) {
                // A message at once: usually the newest, else an older retained one (a released
                // ancestor), sometimes the oldest, which moves the cursor and shifts the bits;
                // otherwise (nearly half the steps) the new message is retained.
                long seq = action < 8 ? head
                        : action < 10 ? cursor : cursor + (long) random.nextInt((int) (head - cursor + 1));
                reader.markEarly(seq);
                if (seq == cursor) {
                    cursor++;
                    while (early.remove(cursor)) {
                        cursor++;
                    }
                } else {
                    early.add(seq);
                }
            }
            assertThat(reader.cursor).as("cursor at step %d", step).isEqualTo(cursor);
            assertThat(reader.earlyCount()).isEqualTo(early.size());
            assertThat(reader.retained(head)).isEqualTo(head - cursor + 1 - early.size());
            long[] retained = new long[(int) reader.retained(head)];
            reader.retainedInto(head, retained);
            // Exactly cursor..head without the early ones, in order (one comparison: per-element
            // assertions made this property take 20 s).
            long[] expected = new long[retained.length];
            int n = 0;
            for (long seq = cursor; seq <= head && n < expected.length; seq++) {
                if (!early.contains(seq)) {
                    expected[n++] = seq;
                }
            }
            if (!java.util.Arrays.equals(retained, expected)) {
                assertThat(retained).as("retained at step %d", step).containsExactly(expected);
            }
            for (int probe = 0; probe < 8; probe++) {
                long s = cursor - 1 + random.nextInt((int) (head - cursor + 3));
                assertThat(reader.isEarly(s)).as("seq %d at step %d", s, step).isEqualTo(early.contains(s));
            }
        }
    }
}
