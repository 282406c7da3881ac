package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class OutgoingQueueTest {

    @Test
    void boundedByTotalChars() throws Exception {
        OutgoingQueue q = new OutgoingQueue(10);
        assertThat(q.offer("12345")).isEqualTo(OutgoingQueue.Offer.QUEUED);
        assertThat(q.offer("12345")).isEqualTo(OutgoingQueue.Offer.QUEUED);
        assertThat(q.offer("1")).isEqualTo(OutgoingQueue.Offer.FULL);
        assertThat(q.queuedChars()).isEqualTo(10);

        List<String> out = new ArrayList<>();
        assertThat(q.drainTo(out, 0)).isEqualTo(2);
        assertThat(out).containsExactly("12345", "12345");
        assertThat(q.offer("1234567890")).isEqualTo(OutgoingQueue.Offer.QUEUED);
    }

    @Test
    void finishAddsTheLastItemAndRefusesMore() throws Exception {
        OutgoingQueue q = new OutgoingQueue(4);
        q.offer("abcd");
        assertThat(q.finish("</stream:stream>")).isTrue();
        assertThat(q.finish("again")).isFalse();
        assertThat(q.offer("x")).isEqualTo(OutgoingQueue.Offer.FINISHED);
        assertThat(q.isDone()).isFalse();
        List<String> out = new ArrayList<>();
        q.drainTo(out, 0);
        assertThat(out).containsExactly("abcd", "</stream:stream>");
        assertThat(q.isDone()).isTrue();
        assertThat(q.drainTo(out, 1_000_000_000L)).isZero();   // returns at once when done
    }

    @Test
    void drainWaitsForAnItem() throws Exception {
        OutgoingQueue q = new OutgoingQueue(100);
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException ignored) {
                // test thread
            }
            q.offer("late");
        });
        t.start();
        List<String> out = new ArrayList<>();
        assertThat(q.drainTo(out, 2_000_000_000L)).isEqualTo(1);
        assertThat(out).containsExactly("late");
        t.join();
    }

    @Test
    void discardThrowsAwayAndFinishes() {
        OutgoingQueue q = new OutgoingQueue(100);
        q.offer("a");
        q.offer("b");
        assertThat(q.discard()).isEqualTo(2);
        assertThat(q.isDone()).isTrue();
        assertThat(q.offer("c")).isEqualTo(OutgoingQueue.Offer.FINISHED);
    }
}
