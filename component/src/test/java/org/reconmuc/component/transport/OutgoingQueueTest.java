package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.reconmuc.component.testing.Await;

import org.junit.jupiter.api.Test;

class OutgoingQueueTest {

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Await.until(condition, Duration.ofSeconds(5), what);
    }

    private static Thread putter(OutgoingQueue q, String s, boolean mayWait) {
        Thread t = new Thread(() -> q.put(s, mayWait), "putter");
        t.start();
        return t;
    }

    @Test
    void whileConnectedASenderWaitsAtTheBoundUntilTheWriterTakes() throws Exception {
        OutgoingQueue q = new OutgoingQueue(10);
        q.setConnected(true);
        assertThat(q.put("12345", true)).isEqualTo(OutgoingQueue.Offer.QUEUED);
        assertThat(q.put("12345", true)).isEqualTo(OutgoingQueue.Offer.QUEUED);
        Thread t = putter(q, "1", true);
        await(() -> t.getState() == Thread.State.WAITING, "the sender to wait");
        assertThat(q.waits()).isEqualTo(1);
        assertThat(q.size()).isEqualTo(2);

        List<String> out = new ArrayList<>();
        assertThat(q.drainTo(out, new ArrayList<>(), 0)).isEqualTo(2);
        t.join(5_000);
        assertThat(t.isAlive()).isFalse();
        q.drainTo(out, new ArrayList<>(), 0);
        assertThat(out).containsExactly("12345", "12345", "1");
        assertThat(q.evicted()).isZero();
    }

    @Test
    void aStanzaLargerThanTheBoundStillGoesIntoAnEmptyQueue() {
        OutgoingQueue q = new OutgoingQueue(4);
        q.setConnected(true);
        assertThat(q.put("much longer than four", true)).isEqualTo(OutgoingQueue.Offer.QUEUED);
        assertThat(q.queuedChars()).isEqualTo(21);
    }

    @Test
    void theReaderThreadGoesPastTheBoundUpToTwiceIt() throws Exception {
        OutgoingQueue q = new OutgoingQueue(10);
        q.setConnected(true);
        q.put("1234567890", true);
        assertThat(q.put("123456789", false)).isEqualTo(OutgoingQueue.Offer.QUEUED);   // 19 <= 20
        Thread t = putter(q, "12", false);                                               // 21 > 20
        await(() -> t.getState() == Thread.State.WAITING, "the reader to wait at twice the bound");
        q.drainTo(new ArrayList<>(), new ArrayList<>(), 0);
        t.join(5_000);
        assertThat(t.isAlive()).isFalse();
    }

    @Test
    void losingTheConnectionReleasesWaitingSendersAndKeepsTheirStanzas() throws Exception {
        OutgoingQueue q = new OutgoingQueue(10);
        q.setConnected(true);
        q.put("1234567890", true);
        Thread t = putter(q, "abc", true);
        await(() -> t.getState() == Thread.State.WAITING, "the sender to wait");
        q.setConnected(false);
        t.join(5_000);
        assertThat(t.isAlive()).isFalse();
        List<String> out = new ArrayList<>();
        q.drainTo(out, new ArrayList<>(), 0);
        assertThat(out).containsExactly("abc");   // past the bound while disconnected: the oldest went
        assertThat(q.evicted()).isEqualTo(1);
    }

    @Test
    void whileDisconnectedNobodyWaitsAndTheOldestAreRefused() {
        OutgoingQueue q = new OutgoingQueue(10);
        for (int i = 0; i < 5; i++) {
            assertThat(q.put("abcd" + i, true)).isEqualTo(OutgoingQueue.Offer.QUEUED);
        }
        assertThat(q.size()).isEqualTo(2);
        assertThat(q.evicted()).isEqualTo(3);
        assertThat(q.queuedChars()).isEqualTo(10);
        assertThat(q.waits()).isZero();
    }

    @Test
    void whatAWriterCouldNotSendGoesBackToTheFrontInOrder() throws Exception {
        OutgoingQueue q = new OutgoingQueue(100);
        q.put("a", true);
        q.put("b", true);
        List<String> taken = new ArrayList<>();
        q.drainTo(taken, new ArrayList<>(), 0);
        q.put("c", true);
        q.requeueFront(taken, List.of());
        List<String> out = new ArrayList<>();
        q.drainTo(out, new ArrayList<>(), 0);
        assertThat(out).containsExactly("a", "b", "c");
    }

    @Test
    void aMarkIsTakenWithTheStanzasBeforeItAndGoesBackWithThemWhenTheyCouldNotBeSent() throws Exception {
        OutgoingQueue q = new OutgoingQueue(100);
        List<String> events = new ArrayList<>();
        q.put("a", true);
        q.mark(() -> events.add("a written"));
        List<String> taken = new ArrayList<>();
        List<Runnable> marks = new ArrayList<>();
        assertThat(q.drainTo(taken, marks, 0)).isEqualTo(2);
        assertThat(taken).containsExactly("a");
        assertThat(marks).hasSize(1);
        q.put("b", true);
        q.mark(() -> events.add("b written"));
        q.requeueFront(taken, marks);   // the connection broke before "a" was written
        taken.clear();
        marks.clear();
        q.drainTo(taken, marks, 0);
        assertThat(taken).containsExactly("a", "b");
        marks.forEach(Runnable::run);
        assertThat(events).containsExactly("a written", "b written");
    }

    @Test
    void aMarkAloneWakesTheWriterAndOneGivenAfterTheEndNeverRuns() throws Exception {
        OutgoingQueue q = new OutgoingQueue(100);
        List<Runnable> marks = new ArrayList<>();
        assertThat(q.mark(() -> { })).isTrue();
        assertThat(q.drainTo(new ArrayList<>(), marks, 5_000_000_000L)).as("at once, not after the timeout").isEqualTo(1);
        assertThat(q.mark(() -> { })).isTrue();
        assertThat(q.isDone()).isFalse();
        q.discard();
        assertThat(q.mark(() -> { })).isFalse();
        marks.clear();
        assertThat(q.drainTo(new ArrayList<>(), marks, 0)).isZero();
        assertThat(marks).as("thrown away with the stanzas").isEmpty();
    }

    @Test
    void finishAddsTheLastItemRefusesMoreAndReleasesWaiters() throws Exception {
        OutgoingQueue q = new OutgoingQueue(4);
        q.setConnected(true);
        q.put("abcd", true);
        Thread t = putter(q, "x", true);
        await(() -> t.getState() == Thread.State.WAITING, "the sender to wait");
        assertThat(q.finish("</stream:stream>")).isTrue();
        t.join(5_000);
        assertThat(t.isAlive()).isFalse();
        assertThat(q.finish("again")).isFalse();
        assertThat(q.put("y", true)).isEqualTo(OutgoingQueue.Offer.FINISHED);
        assertThat(q.isDone()).isFalse();
        List<String> out = new ArrayList<>();
        q.drainTo(out, new ArrayList<>(), 0);
        assertThat(out).containsExactly("abcd", "</stream:stream>");
        assertThat(q.isDone()).isTrue();
        assertThat(q.drainTo(out, new ArrayList<>(), 1_000_000_000L)).isZero();   // returns at once when done
    }

    @Test
    void anInterruptedSenderStillQueuesItsStanza() throws Exception {
        OutgoingQueue q = new OutgoingQueue(4);
        q.setConnected(true);
        q.put("abcd", true);
        boolean[] interruptedAfter = new boolean[1];
        Thread t = new Thread(() -> {
            q.put("x", true);
            interruptedAfter[0] = Thread.currentThread().isInterrupted();
        });
        t.start();
        await(() -> t.getState() == Thread.State.WAITING, "the sender to wait");
        t.interrupt();
        t.join(5_000);
        assertThat(interruptedAfter[0]).isTrue();
        assertThat(q.size()).isEqualTo(2);
    }

    @Test
    void drainWaitsForAnItemOrAWakeUp() throws Exception {
        OutgoingQueue q = new OutgoingQueue(100);
        List<String> out = new ArrayList<>();
        Thread t = new Thread(() -> {
            try {
                q.drainTo(out, new ArrayList<>(), 60_000_000_000L);
            } catch (InterruptedException ignored) {
                // test thread
            }
        });
        t.start();
        await(() -> t.getState() == Thread.State.TIMED_WAITING, "the writer to wait");
        q.wakeUp();
        t.join(5_000);
        assertThat(t.isAlive()).isFalse();
        assertThat(out).isEmpty();

        Thread late = putter(q, "late", true);
        assertThat(q.drainTo(out, new ArrayList<>(), 5_000_000_000L)).isEqualTo(1);
        assertThat(out).containsExactly("late");
        late.join();
    }

    @Test
    void discardThrowsAwayAndFinishes() {
        OutgoingQueue q = new OutgoingQueue(100);
        q.put("a", true);
        q.put("b", true);
        assertThat(q.discard()).isEqualTo(2);
        assertThat(q.isDone()).isTrue();
        assertThat(q.put("c", true)).isEqualTo(OutgoingQueue.Offer.FINISHED);
    }
}
