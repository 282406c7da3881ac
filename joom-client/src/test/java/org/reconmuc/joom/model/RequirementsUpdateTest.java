package org.reconmuc.joom.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.reconmuc.joom.model.RequirementsUpdate.TopicChange;

class RequirementsUpdateTest {
    private final JoomRequirements movies = new JoomRequirements("movies", 60, 20);

    @Test
    void theFirstRequestStatesEverythingWithCompression() {
        RequirementsUpdate first = RequirementsUpdate.between(null, movies);
        assertThat(first.filter()).containsExactly(new TopicChange("movies", true));
        assertThat(first.filterElement()).isTrue();
        assertThat(first.timeSeconds()).isEqualTo(60);
        assertThat(first.volume()).isEqualTo(20);
        assertThat(first.deflate()).isTrue();
        RequirementsUpdate noTopic = RequirementsUpdate.between(null, movies.withActiveTopic(null));
        assertThat(noTopic.filter()).isEmpty();
        assertThat(noTopic.filterElement()).as("an empty <filter/>: nothing at once but own and replies").isTrue();
    }

    @Test
    void aTopicSwitchDeactivatesTheOldAndActivatesTheNewOnly() {
        RequirementsUpdate change = RequirementsUpdate.between(movies, movies.withActiveTopic("gossip"));
        assertThat(change.filter()).containsExactly(new TopicChange("movies", false), new TopicChange("gossip", true));
        assertThat(change.timeSeconds()).isNull();
        assertThat(change.volume()).isNull();
        assertThat(change.deflate()).isFalse();
    }

    @Test
    void newBoundsSendOnlyWhatChangedAndNothingChangedSendsNothing() {
        RequirementsUpdate bounds = RequirementsUpdate.between(movies, movies.withBounds(60, 5));
        assertThat(bounds.filterElement()).isFalse();
        assertThat(bounds.timeSeconds()).isNull();
        assertThat(bounds.volume()).isEqualTo(5);
        assertThat(RequirementsUpdate.between(movies, movies).isEmpty()).isTrue();
    }

    @Test
    void requirementsAreKeptWithinTheRoomsLimits() {
        JoomRequirements wide = new JoomRequirements("movies", 7200, 500);
        assertThat(wide.within(100, 3600)).isEqualTo(new JoomRequirements("movies", 3600, 100));
        assertThat(wide.within(null, 86_400)).isEqualTo(wide);
        assertThat(List.of(movies.within(100, 3600))).containsExactly(movies);
    }
}
