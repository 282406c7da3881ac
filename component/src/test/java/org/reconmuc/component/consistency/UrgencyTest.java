package org.reconmuc.component.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who needs a message now besides the filters (reconmuc.md §5.6), decided once for the room and the benchmarks. */
class UrgencyTest {
    private final ConsistencyEngine<String> engine = new ConsistencyEngine<>(10);
    private final Requirements quiet = new Requirements(Set.of(), 60_000, 5, Aggregation.PLAIN);
    private final Reader<String> alice = engine.relax("alice", quiet);
    private final Reader<String> bob = engine.relax("bob", quiet);
    private final Reader<String> carol = engine.relax("carol", quiet);

    @Test
    void filtersMatchAMessageByItsTopicsAndItsSendersNick() {
        Urgency<String> u = Urgency.of("Bob", List.of(FilterKey.topic("movies")), bob, false, null, null, List.of());
        assertThat(u.keys()).containsExactlyInAnyOrder(FilterKey.topic("movies"), FilterKey.nick("Bob"));
    }

    @Test
    void theSenderTheParentsAuthorAndTheAddressedNeedItNowEachOnce() {
        Urgency<String> u = Urgency.of("Bob", List.of(), bob, true, alice, carol, List.of(carol, alice, bob));
        assertThat(u.direct()).as("the reply's 'to' counts only when the parent is unknown").containsExactly(bob, alice, carol);
    }

    @Test
    void whenTheParentIsUnknownTheOccupantTheReplyNamesNeedsIt() {
        Urgency<String> u = Urgency.of("Bob", List.of(), bob, false, alice, carol, List.of());
        assertThat(u.direct()).containsExactly(bob, carol);
    }

    @Test
    void standardOrAbsentOccupantsAreNoOnesConcernHere() {
        Urgency<String> u = Urgency.of("Bob", List.of(), null, true, null, null, java.util.Arrays.asList(null, null));
        assertThat(u.direct()).isEmpty();
    }
}
