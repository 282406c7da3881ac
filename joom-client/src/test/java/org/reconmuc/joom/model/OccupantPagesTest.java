package org.reconmuc.joom.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class OccupantPagesTest {
    private static List<String> nicks(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "n" + i).toList();
    }

    @Test
    void pagesFollowOneAnotherAfterTheLastNickUntilOneComesShort() {
        OccupantPages p = OccupantPages.of(250);
        assertThat(p.after()).isNull();
        p = p.withPage(nicks(0, 100), 251, OccupantPages.PAGE);
        assertThat(p.count()).isEqualTo(251);
        assertThat(p.after()).isEqualTo("n99");
        assertThat(p.complete()).isFalse();
        p = p.withPage(nicks(100, 200), null, OccupantPages.PAGE);
        assertThat(p.count()).as("the last known size").isEqualTo(251);
        p = p.withPage(nicks(200, 251), 251, OccupantPages.PAGE);
        assertThat(p.complete()).isTrue();
        assertThat(p.nicks()).hasSize(251).startsWith("n0").endsWith("n250");
    }

    @Test
    void anOccupantWhoLeftBetweenTwoPagesIsSteppedOverAndNobodyIsListedTwice() {
        OccupantPages p = OccupantPages.of(null).withPage(nicks(0, 100), null, OccupantPages.PAGE);
        p = p.afterMissing();
        assertThat(p.after()).isEqualTo("n98");
        p = p.afterMissing();
        assertThat(p.after()).isEqualTo("n97");
        p = p.withPage(nicks(98, 198), null, OccupantPages.PAGE);
        assertThat(p.nicks()).hasSize(198).doesNotHaveDuplicates();
        assertThat(p.after()).isEqualTo("n197");
        assertThat(p.back()).isZero();
    }
}
