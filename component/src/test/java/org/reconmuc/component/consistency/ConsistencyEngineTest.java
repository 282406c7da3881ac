package org.reconmuc.component.consistency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each rule of the relaxed-consistency semantics, on a virtual clock. */
class ConsistencyEngineTest {
    private final ConsistencyEngine<String> engine = new ConsistencyEngine<>(100);
    private final List<Delivery<String>> out = new ArrayList<>();
    private long now = 1_000_000;
    private long seq;

    private static Requirements wants(String topic, int timeSeconds, int volume) {
        Set<FilterKey> filters = topic == null ? Set.of() : Set.of(FilterKey.topic(topic));
        return new Requirements(filters, timeSeconds * 1000L, volume, Aggregation.PLAIN);
    }

    private long post(String topic, long parent, List<Reader<String>> direct) {
        seq++;
        engine.onMessage(seq, now, parent, topic == null ? Set.of() : Set.of(FilterKey.topic(topic)), direct, out);
        return seq;
    }

    private long post(String topic) {
        return post(topic, 0, List.of());
    }

    private List<Delivery<String>> take() {
        List<Delivery<String>> d = new ArrayList<>(out);
        out.clear();
        return d;
    }

    @Test
    void aMatchingMessageGoesOutAtOnceAndTheRestIsRetained() {
        Reader<String> alice = engine.relax("alice", wants("gossip", 60, 20));
        long gossip = post("gossip");
        List<Delivery<String>> d = take();
        assertThat(d).hasSize(1);
        assertThat(d.get(0).kind()).isEqualTo(Delivery.Kind.NOW);
        assertThat(d.get(0).seqs()).containsExactly(gossip);

        post("movie");
        assertThat(take()).isEmpty();
        assertThat(alice.retained(engine.head())).isEqualTo(1);
    }

    @Test
    void itHasReadersFromTheFirstRelaxedOneUntilTheLastIsGoneAndOneRelaxedLaterHoldsNothingOlder() {
        assertThat(engine.hasReaders()).isFalse();
        post(null);   // as a room with nobody relaxed posts: no keys
        Reader<String> alice = engine.relax("alice", wants("gossip", 60, 20));
        Reader<String> bob = engine.relax("bob", wants(null, 60, 20));
        assertThat(engine.hasReaders()).isTrue();
        assertThat(alice.retained(engine.head())).isZero();

        engine.remove(alice);
        engine.remove(alice);   // a second removal changes nothing
        assertThat(engine.hasReaders()).isTrue();
        engine.standard(bob, out);
        assertThat(engine.hasReaders()).isFalse();
        assertThat(engine.carryOver("carol", wants(null, 60, 20), engine.head() + 1, new long[0], out)).isNotNull();
        assertThat(engine.hasReaders()).isTrue();
    }

    @Test
    void aReaderWithLiveItemsTakesEverythingRetainedAlongAndItsBoundsStillHold() {
        Reader<String> alice = engine.relax("alice", new Requirements(Set.of(FilterKey.topic("gossip")), 60_000, 3,
                Aggregation.COMPACT_DEFLATE_LIVE));
        long m1 = post("movie");
        long m2 = post("movie");
        long g = post("gossip");
        List<Delivery<String>> d = take();
        assertThat(d).singleElement().satisfies(x -> {
            assertThat(x.kind()).isEqualTo(Delivery.Kind.NOW);
            assertThat(x.seqs()).containsExactly(m1, m2, g);
        });
        assertThat(alice.retained(engine.head())).isZero();
        // Then the volume bound counts from there: three more retained flush.
        long m4 = post("movie");
        long m5 = post("movie");
        assertThat(take()).isEmpty();
        long m6 = post("movie");
        assertThat(take()).singleElement().satisfies(x -> {
            assertThat(x.kind()).isEqualTo(Delivery.Kind.FLUSH);
            assertThat(x.seqs()).containsExactly(m4, m5, m6);
        });
        // And the time bound, from the oldest retained since.
        long m7 = post("movie");
        now += 60_000;
        engine.onTime(now, out);
        assertThat(take()).singleElement().satisfies(x -> assertThat(x.seqs()).containsExactly(m7));
    }

    @Test
    void theVolumeBoundFlushesEverythingRetainedInRoomOrder() {
        Reader<String> alice = engine.relax("alice", wants("gossip", 60, 3));
        long m1 = post("movie");
        post("gossip");
        long m3 = post("movie");
        take();
        long m4 = post(null);
        List<Delivery<String>> d = take();
        assertThat(d).hasSize(1);
        assertThat(d.get(0).kind()).isEqualTo(Delivery.Kind.FLUSH);
        assertThat(d.get(0).seqs()).containsExactly(m1, m3, m4);
        assertThat(alice.retained(engine.head())).isZero();
    }

    @Test
    void theTimeBoundFlushesWhenTheOldestRetainedMessageIsDueAndNotBefore() {
        engine.relax("alice", wants("gossip", 60, 20));
        long movie = post("movie");
        now += 10_000;
        long later = post("sports");
        assertThat(engine.nextDeadline()).isEqualTo(now - 10_000 + 60_000);

        engine.onTime(engine.nextDeadline() - 1, out);
        assertThat(take()).isEmpty();
        engine.onTime(engine.nextDeadline(), out);
        List<Delivery<String>> d = take();
        assertThat(d).hasSize(1);
        assertThat(d.get(0).seqs()).containsExactly(movie, later);
    }

    @Test
    void idleReadersWithTheSameTimeBoundShareOneTimer() {
        for (int i = 0; i < 50; i++) {
            engine.relax("reader" + i, wants("t" + i, 30, 20));
        }
        engine.relax("other", wants("x", 45, 20));
        post("none");
        post("none");
        engine.onTime(now + 30_000, out);
        assertThat(take()).hasSize(50).allMatch(d -> d.seqs().length == 2);
        engine.onTime(now + 45_000, out);
        assertThat(take()).singleElement().extracting(Delivery::owner).isEqualTo("other");
    }

    @Test
    void pastSixtyFourReadersOnOneBoundTheirFlushesSpreadOverItsLastHalfAndNoneComesLate() {
        long slots = ConsistencyEngine.SPREAD_SLOTS;
        int spread = ConsistencyEngine.SPREAD_SLOTS * 10;
        for (int i = 0; i < ConsistencyEngine.SPREAD_ABOVE + spread; i++) {
            engine.relax("reader" + i, wants(null, 60, 100));
        }
        long start = now;
        post(null);
        java.util.Map<Long, Integer> flushedAt = new java.util.TreeMap<>();
        while (engine.nextDeadline() != Long.MAX_VALUE) {
            long at = engine.nextDeadline();
            engine.onTime(at, out);
            flushedAt.merge(at - start, take().size(), Integer::sum);
        }
        assertThat(flushedAt).hasSize(ConsistencyEngine.SPREAD_SLOTS);
        assertThat(flushedAt.keySet()).allMatch(t -> t >= 30_000 && t <= 60_000);
        assertThat(flushedAt.get(60_000L)).as("the first 64, and the spread ones of slot 0")
                .isEqualTo(ConsistencyEngine.SPREAD_ABOVE + 10);
        assertThat(flushedAt.values().stream().mapToInt(Integer::intValue).sum())
                .isEqualTo(ConsistencyEngine.SPREAD_ABOVE + spread);
        assertThat(flushedAt).containsEntry(60_000L - (slots - 1) * 30_000 / slots, 10);

        // Each keeps its share: the next message they retain is due as early again.
        post(null);
        long second = now;
        engine.onTime(second + 60_000 - (slots - 1) * 30_000 / slots, out);
        assertThat(take()).hasSize(10);
    }

    @Test
    void directRecipientsGetItAtOnceWithTheirRetainedAncestorsFirst() {
        Reader<String> alice = engine.relax("alice", wants("gossip", 60, 20));
        long question = post("movie");
        long unrelated = post("sports");
        long answer = post("movie", question, List.of());
        take();
        // Bob answers the answer and addresses Alice: she must see question, answer, then this.
        long followUp = post(null, answer, List.of(alice));
        List<Delivery<String>> d = take();
        assertThat(d).hasSize(1);
        assertThat(d.get(0).kind()).isEqualTo(Delivery.Kind.NOW);
        assertThat(d.get(0).seqs()).containsExactly(question, answer, followUp);
        assertThat(engine.retainedSeqs(alice)).containsExactly(unrelated);
    }

    @Test
    void anAncestorAlreadySeenIsNotSentAgain() {
        Reader<String> alice = engine.relax("alice", wants("gossip", 60, 20));
        long parent = post("gossip");
        long reply = post(null, parent, List.of(alice));
        List<Delivery<String>> d = take();
        assertThat(d).hasSize(2);
        assertThat(d.get(1).seqs()).containsExactly(reply);
    }

    @Test
    void switchingTopicReleasesThatTopicsBacklogAtOnce() {
        Reader<String> alice = engine.relax("alice", wants("gossip", 60, 20));
        long movie1 = post("movie");
        long sports = post("sports");
        long movie2 = post("movie");
        take();
        engine.update(alice, wants("movie", 60, 20), now, out);
        List<Delivery<String>> d = take();
        assertThat(d).extracting(x -> x.seqs()[x.seqs().length - 1]).containsExactly(movie1, movie2);
        assertThat(engine.retainedSeqs(alice)).containsExactly(sports);
        long gossip = post("gossip");
        assertThat(take()).isEmpty();
        assertThat(engine.retainedSeqs(alice)).containsExactly(sports, gossip);
    }

    @Test
    void aLowerVolumeOrAnOverdueTimeFlushesAtOnce() {
        Reader<String> alice = engine.relax("alice", wants("gossip", 60, 20));
        post("a");
        post("b");
        engine.update(alice, wants("gossip", 60, 2), now, out);
        assertThat(take()).singleElement().extracting(Delivery::kind).isEqualTo(Delivery.Kind.FLUSH);

        post("c");
        now += 20_000;
        engine.update(alice, wants("gossip", 10, 2), now, out);
        assertThat(take()).singleElement().extracting(Delivery::kind).isEqualTo(Delivery.Kind.FLUSH);
    }

    @Test
    void aPointerNeverOutlivesTheHistory() {
        ConsistencyEngine<String> small = new ConsistencyEngine<>(4);
        Reader<String> alice = small.relax("alice", new Requirements(Set.of(FilterKey.topic("hot")), 600_000, 4,
                Aggregation.PLAIN));
        List<Delivery<String>> d = new ArrayList<>();
        small.onMessage(1, now, 0, Set.of(), List.of(), d);          // retained
        small.onMessage(2, now, 0, Set.of(FilterKey.topic("hot")), List.of(), d);
        small.onMessage(3, now, 0, Set.of(FilterKey.topic("hot")), List.of(), d);
        assertThat(d).hasSize(2);
        small.onMessage(4, now, 0, Set.of(FilterKey.topic("hot")), List.of(), d);
        // Only message 1 is retained (volume 4 not reached), but message 5 would evict it.
        assertThat(d).last().satisfies(x -> {
            assertThat(x.kind()).isEqualTo(Delivery.Kind.FLUSH);
            assertThat(x.seqs()).containsExactly(1L);
        });
        assertThat(alice.retained(small.head())).isZero();
    }

    @Test
    void backToStandardFlushesAndForgets() {
        Reader<String> alice = engine.relax("alice", wants("gossip", 60, 20));
        long m = post("movie");
        engine.standard(alice, out);
        assertThat(take()).singleElement().satisfies(x -> assertThat(x.seqs()).containsExactly(m));
        post("gossip");
        assertThat(take()).isEmpty();
    }

    @Test
    void aReaderThatLeftGetsNothingMore() {
        Reader<String> alice = engine.relax("alice", wants("gossip", 60, 2));
        post("movie");
        engine.remove(alice);
        post("gossip");
        post("movie");
        engine.onTime(Long.MAX_VALUE / 2, out);
        assertThat(take()).isEmpty();
    }

    @Test
    void bookkeepingStaysBoundedByTheRoomNotByMessagesTimesOccupants() {
        // Volume 1 flushes on every retained message; a long time bound keeps timers queued long.
        ConsistencyEngine<String> room = new ConsistencyEngine<>(100);
        List<Reader<String>> readers = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            readers.add(room.relax("r" + i, new Requirements(Set.of(FilterKey.topic("t" + (i % 6))), 600_000,
                    1 + i % 60, Aggregation.PLAIN)));
        }
        long at = 0;
        for (long s = 1; s <= 6000; s++) {
            at += 166; // 6 messages a second
            room.onMessage(s, at, s > 1 && s % 3 == 0 ? s - 1 : 0, Set.of(FilterKey.topic("t" + (s % 6))), List.of(), out);
            room.onTime(at, out);
            out.clear();
        }
        ConsistencyEngine.Holdings held = room.holdings();
        // One timer per (share of the time bound, message) at most: the messages of the last 600 s, whatever the room size.
        assertThat(held.timers()).isLessThanOrEqualTo(ConsistencyEngine.SPREAD_SLOTS * (600_000 / 166 + 1));
        // Every reader filed in exactly one trigger bucket; the filter index holds each once.
        assertThat(held.bucketEntries()).isEqualTo(readers.size());
        assertThat(held.filterIndexEntries()).isEqualTo(readers.size());
        // A reader that leaves leaves nothing behind.
        for (int i = 0; i < 500; i++) {
            room.remove(readers.get(i));
        }
        assertThat(room.holdings().bucketEntries()).isEqualTo(readers.size() - 500);
        assertThat(room.holdings().filterIndexEntries()).isEqualTo(readers.size() - 500);
    }

    @Test
    void volumeMayNotExceedTheHistorySize() {
        assertThatThrownBy(() -> engine.relax("alice", wants(null, 60, 101)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("history size");
    }
    @Test
    void aReaderCarriedOverFromAnotherOwnerKeepsItsPositionAndItsTimeBoundRunsFromTheOldestItStillHolds() {
        // The new owner's engine: the log restored up to 5, received 10 s apart from 'now'.
        ConsistencyEngine<String> moved = new ConsistencyEngine<>(100);
        moved.startAfter(5);
        for (long s = 1; s <= 5; s++) {
            moved.restoredMessage(s, now + s * 10_000, 0, s == 4 ? Set.of(FilterKey.topic("gossip")) : Set.of());
        }
        // Sent everything before 2, and 3 early: 2, 4 and 5 are still owed.
        Reader<String> alice = moved.carryOver("alice", wants(null, 60, 20), 2, new long[] {3}, out);
        assertThat(take()).isEmpty();
        assertThat(moved.retainedSeqs(alice)).containsExactly(2, 4, 5);
        assertThat(moved.nextDeadline()).isEqualTo(now + 20_000 + 60_000);
        moved.onTime(now + 80_000, out);
        List<Delivery<String>> d = take();
        assertThat(d).hasSize(1);
        assertThat(d.get(0).seqs()).containsExactly(2, 4, 5);
        // Its filters match the restored messages' keys: a change that now wants gossip releases 4.
        Reader<String> bob = moved.carryOver("bob", wants(null, 60, 20), 4, new long[0], out);
        moved.update(bob, wants("gossip", 60, 20), now + 60_000, out);
        assertThat(take()).extracting(Delivery::seqs).containsExactly(new long[] {4});
        // A retained set due by volume goes out at once.
        moved.carryOver("carol", wants(null, 60, 2), 3, new long[0], out);
        assertThat(take()).extracting(Delivery::seqs).containsExactly(new long[] {3, 4, 5});
    }
}
