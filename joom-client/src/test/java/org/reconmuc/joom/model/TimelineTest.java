package org.reconmuc.joom.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.joom.model.Messages.batched;
import static org.reconmuc.joom.model.Messages.live;

import org.junit.jupiter.api.Test;

class TimelineTest {

    @Test
    void messagesWithTheSameTimeKeepTheirArrivalOrder() {
        Timeline t = new Timeline();
        assertThat(t.add(live("Bob", "first", 5))).isEqualTo(0);
        assertThat(t.add(live("Bob", "second", 5))).isEqualTo(1);
        assertThat(t.add(batched("Carol", "earlier", 4))).isEqualTo(0);
        assertThat(t.add(batched("Carol", "third", 5))).isEqualTo(3);
        assertThat(t.messages()).extracting(ChatMessage::body).containsExactly("earlier", "first", "second", "third");
        assertThat(t.byStanzaId(t.get(1).stanzaId()).body()).isEqualTo("first");
        assertThat(t.byStanzaId("nope")).isNull();
    }
}
