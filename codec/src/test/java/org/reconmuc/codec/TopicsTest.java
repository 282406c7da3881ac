package org.reconmuc.codec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicsTest {

    @Test
    void normalisingTrimsOneHashAndLowercases() {
        assertThat(Topics.normalize("  #Gossip ")).isEqualTo("gossip");
        assertThat(Topics.normalize("##x")).isEqualTo("#x");
        assertThat(Topics.normalize("İSTANBUL")).isEqualTo("i̇stanbul");
        assertThat(Topics.isValid(Topics.normalize("#"))).isFalse();
        assertThat(Topics.isValid("a".repeat(64))).isTrue();
        assertThat(Topics.isValid("a".repeat(65))).isFalse();
    }

    @Test
    void hashtagsStartAWordAndEndAtTheFirstOtherCharacter() {
        assertThat(Topics.hashtags("#Android and #xmpp, not C# nor a#b; #xmpp again #émile-zola_2!"))
                .containsExactly("android", "xmpp", "émile-zola_2");
        assertThat(Topics.hashtags("#" + "a".repeat(65))).isEmpty();
        assertThat(Topics.hashtags("#a #b #c #d #e #f #g #h #i #j #k #l #m #n #o #p #q #r")).hasSize(Topics.MAX_PER_MESSAGE);
    }
}
