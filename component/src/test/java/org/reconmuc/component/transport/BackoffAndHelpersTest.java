package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class BackoffAndHelpersTest {

    @Test
    void backoffDoublesUpToTheCapWithDownwardJitterAndResets() {
        Backoff b = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
        long[] expected = {1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000};
        for (long ms : expected) {
            assertThat(b.next().toMillis()).isBetween((long) (ms * 0.8) - 1, ms);
        }
        b.reset();
        assertThat(b.next().toMillis()).isBetween(799L, 1000L);
    }

    @Test
    void backoffCapBelowTheInitialDelay() {
        Backoff b = new Backoff(Duration.ofSeconds(1), Duration.ofMillis(200));
        for (int i = 0; i < 5; i++) {
            assertThat(b.next().toMillis()).isBetween(159L, 200L);
        }
    }

    @Test
    void handshakeDigestIsLowercaseHexSha1() {
        // sha1("abc") is a well-known test vector.
        assertThat(ExternalComponentConnection.handshakeDigest("a", "bc"))
                .isEqualTo("a9993e364706816aba3e25717850c26c9cd0d89d");
    }

    @Test
    void domainOfAJid() {
        assertThat(ExternalComponentConnection.domainOf("room@muc.example/nick@x/y")).isEqualTo("muc.example");
        assertThat(ExternalComponentConnection.domainOf("muc.example")).isEqualTo("muc.example");
        assertThat(ExternalComponentConnection.domainOf("muc.example/res")).isEqualTo("muc.example");
    }

    @Test
    void forbiddenCharacters() {
        assertThat(ExternalComponentConnection.firstForbiddenCharacter("<a>ok \t\n\r é 𝄞 \uFFFD</a>")).isEqualTo(-1);
        assertThat(ExternalComponentConnection.firstForbiddenCharacter("<a>\u0007</a>")).isEqualTo(7);
        assertThat(ExternalComponentConnection.firstForbiddenCharacter("<a>&#7;</a>")).isEqualTo(7);
        assertThat(ExternalComponentConnection.firstForbiddenCharacter("<a>&#x0;</a>")).isEqualTo(0);
        assertThat(ExternalComponentConnection.firstForbiddenCharacter("<a>&#65;&amp;&#x1F600;</a>")).isEqualTo(-1);
        assertThat(ExternalComponentConnection.firstForbiddenCharacter("<a>\uFFFE</a>")).isEqualTo(0xFFFE);
        assertThat(ExternalComponentConnection.firstForbiddenCharacter("<a>\uD800</a>")).isEqualTo(0xD800);
        assertThat(ExternalComponentConnection.firstForbiddenCharacter("<a>\uDC00x</a>")).isEqualTo(0xDC00);
    }
}
