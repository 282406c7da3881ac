package org.reconmuc.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The index files list exactly the files that exist, so the classpath API sees all of them. */
class IndexTest {

    @Test
    void everyVectorFileIsInTheIndexAndEveryIndexedVectorExists() {
        List<String> onDisk = Dom.xmlFilesIn("vectors");
        List<String> indexed = TestVectors.list().stream().map(n -> n + ".xml").sorted().collect(Collectors.toList());
        assertThat(indexed).as("vectors/index.txt against the files in vectors/").isEqualTo(onDisk);
        assertThat(TestVectors.list()).doesNotHaveDuplicates();
    }

    @Test
    void everyScenarioFileIsInTheIndexAndEveryIndexedScenarioExists() {
        List<String> onDisk = Dom.xmlFilesIn("scenarios");
        List<String> indexed = Scenarios.list().stream().map(n -> n + ".xml").sorted().collect(Collectors.toList());
        assertThat(indexed).as("scenarios/index.txt against the files in scenarios/").isEqualTo(onDisk);
        assertThat(Scenarios.list()).doesNotHaveDuplicates();
    }

    @Test
    void theApiReadsByNameWithOrWithoutExtension() {
        assertThat(TestVectors.read("paper-listing-1")).isEqualTo(TestVectors.read("paper-listing-1.xml"));
        assertThat(Scenarios.read("figure-1")).contains("name=\"figure-1\"");
        assertThat(Scenarios.readme()).contains("M7");
        assertThat(Schemas.text("reconmuc-0.xsd")).contains("targetNamespace=\"urn:reconmuc:0\"");
    }

    @Test
    void unknownOrPathLikeNamesAreRefused() {
        assertThatThrownBy(() -> TestVectors.read("no-such-vector")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TestVectors.read("../schema/scenario")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Scenarios.read("index")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRequiredVectorsAndScenariosExist() {
        assertThat(TestVectors.list()).contains("paper-listing-1", "paper-listing-2", "paper-listing-3",
                "requirements-set-listing-1", "requirements-set-listing-2", "topic-message-listing-3",
                "requirements-get", "requirements-get-result", "requirements-get-result-standard",
                "requirements-result-listing-1", "requirements-set-standard", "requirements-result-standard",
                "topic-message", "hashtag-message", "reply-message", "mention-message",
                "batch-plain-3", "batch-deflate-3", "delivery-no-aggregation",
                "error-not-occupant-request", "error-not-occupant-response",
                "disco-info-result-room");
        assertThat(Scenarios.list()).contains("figure-1", "reply-to-author", "reply-parent-retained",
                "volume-flush", "topic-switch", "partial-update", "deflate-batch", "no-aggregation",
                "error-not-occupant");
        // every error case has a vector pair and a scenario
        for (String v : TestVectors.list()) {
            if (v.startsWith("error-") && v.endsWith("-request")) {
                String base = v.substring(0, v.length() - "-request".length());
                assertThat(TestVectors.list()).contains(base + "-response");
                assertThat(Scenarios.list()).as("a scenario for " + base).contains(base);
            }
        }
    }
}
