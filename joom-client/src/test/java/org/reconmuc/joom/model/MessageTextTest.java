package org.reconmuc.joom.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MessageTextTest {

    @Test
    void aMessageIsTaggedInTheBodyTooUnlessItAlreadyIs() {
        assertThat(MessageText.withHashtag(" Almodóvar tonight? ", "movies")).isEqualTo("Almodóvar tonight? #movies");
        assertThat(MessageText.withHashtag("the #Movies crowd", "movies")).isEqualTo("the #Movies crowd");
        assertThat(MessageText.withHashtag("no topic", null)).isEqualTo("no topic");
    }

    @Test
    void topicsComeFromTheElementsElseFromTheHashtags() {
        assertThat(MessageText.topics(List.of(" #Movies", "movies", "#"), "about #cinema")).containsExactly("movies");
        assertThat(MessageText.topics(List.of(), "about #cinema and #Tea")).containsExactly("cinema", "tea");
        assertThat(MessageText.topics(List.of(), null)).isEmpty();
    }

    @Test
    void mentionsAreWholeWordsInAnyCase() {
        assertThat(MessageText.mentions("alice: look", "Alice")).isTrue();
        assertThat(MessageText.mentions("hey @ALICE!", "Alice")).isTrue();
        assertThat(MessageText.mentions("Malice", "Alice")).isFalse();
        assertThat(MessageText.mentions("alice_2 here", "Alice")).isFalse();
        assertThat(MessageText.mentions("anything", "")).isFalse();
    }
}
