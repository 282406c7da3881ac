package org.reconmuc.component.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.config.StoreLocation;
import org.reconmuc.component.transport.OutgoingStanza;
import org.xmpp.packet.Message;

/**
 * Group commit without a database: batching, order, retries, and the settings it is opened with
 * (driven by hand, without threads); and, on its threads, that a slow server holds up no commit.
 */
class StoreWriterTest {
    private final List<List<Write>> committed = new ArrayList<>();
    private int failuresToCome;
    private final StoreWriter writer = new StoreWriter(batch -> {
        if (failuresToCome > 0) {
            failuresToCome--;
            throw new SQLException("the database is down");
        }
        committed.add(List.copyOf(batch));
        return Set.of();
    }, 100, 3);
    private final List<OutgoingStanza> sent = new ArrayList<>();
    private final RoomJournal journal = new RoomJournal("r@x", writer, new HeldBudget(1 << 20), sent::add);

    private static ArchivedMessage message(long seq) {
        return new ArchivedMessage(seq, "id" + seq, Instant.EPOCH, "n", null, "<message/>");
    }

    private static String bodyOf(OutgoingStanza p) {
        String xml = p.xml();
        return xml.substring(xml.indexOf("<body>") + 6, xml.indexOf("</body>"));
    }

    private static OutgoingStanza body(String text) {
        Message m = new Message();
        m.setBody(text);
        return OutgoingStanza.of(m);
    }

    @Test
    void whatQueuedUpIsCommittedTogetherInBatchesInOrder() {
        for (int i = 1; i <= 5; i++) {
            journal.archive(message(i));
            journal.send(body("echo " + i));
        }
        assertThat(sent).isEmpty();
        assertThat(writer.queued()).isEqualTo(5);
        assertThat(writer.commitQueued()).isTrue();
        assertThat(committed.get(0)).hasSize(3);
        assertThat(sent).extracting(StoreWriterTest::bodyOf).containsExactly("echo 1", "echo 2", "echo 3");
        assertThat(writer.commitQueued()).isTrue();
        assertThat(sent).extracting(StoreWriterTest::bodyOf)
                .containsExactly("echo 1", "echo 2", "echo 3", "echo 4", "echo 5");
        assertThat(writer.commits()).isEqualTo(2);
        assertThat(writer.writesCommitted()).isEqualTo(5);
        assertThat(writer.lastBatch()).isEqualTo(2);
    }

    @Test
    void aFailedCommitKeepsItsWritesAndTheirStanzasUntilARetrySucceeds() {
        journal.archive(message(1));
        journal.send(body("echo"));
        failuresToCome = 2;
        assertThat(writer.commitQueued()).isFalse();
        assertThat(writer.available()).isFalse();
        assertThat(writer.commitQueued()).isFalse();
        assertThat(sent).isEmpty();
        assertThat(writer.queued()).isEqualTo(1);
        assertThat(writer.commitQueued()).isTrue();
        assertThat(writer.available()).isTrue();
        assertThat(committed).hasSize(1);
        assertThat(sent).hasSize(1);
        assertThat(writer.failures()).isEqualTo(2);
    }

    @Test
    void aServerThatReadsSlowlyHoldsUpNoRoomsCommit() throws Exception {
        java.util.concurrent.CountDownLatch aIsSending = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch serverReads = new java.util.concurrent.CountDownLatch(1);
        // a's write commits only once its echo waits behind it, so that the echo goes out when the
        // commit releases it, on the store's release thread (committed first, the echo would be sent on
        // this thread, which would then wait for the server itself).
        java.util.concurrent.CountDownLatch echoHeld = new java.util.concurrent.CountDownLatch(1);
        StoreWriter started = new StoreWriter(batch -> {
            echoHeld.await(10, java.util.concurrent.TimeUnit.SECONDS);
            return Set.of();
        }, 100, 3);
        HeldBudget budget = new HeldBudget(1 << 20);
        RoomJournal a = new RoomJournal("a@x", started, budget, stanza -> {
            aIsSending.countDown();
            try {
                serverReads.await(20, java.util.concurrent.TimeUnit.SECONDS);   // the server does not read
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        RoomJournal b = new RoomJournal("b@x", started, budget, stanza -> { });
        started.start();
        try {
            a.archive(message(1));
            a.send(body("echo in a"));
            echoHeld.countDown();
            assertThat(aIsSending.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

            b.archive(message(1));
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (started.committed() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(started.committed()).as("room b's write, committed while a's echo waits for the server")
                    .isEqualTo(2);
        } finally {
            serverReads.countDown();
            started.close();
        }
    }

    @Test
    void theSettingNamesTheStore() {
        assertThat(StoreLocation.parse("none").kind()).isEqualTo(StoreLocation.Kind.NONE);
        assertThat(StoreLocation.parse("sqlite:/var/lib/reconmuc/rooms.db").jdbcUrl())
                .isEqualTo("jdbc:sqlite:/var/lib/reconmuc/rooms.db");
        assertThat(StoreLocation.parse("h2:/data/rooms").jdbcUrl()).isEqualTo("jdbc:h2:file:/data/rooms;WRITE_DELAY=0");
        StoreLocation pg = StoreLocation.parse("jdbc:postgresql://127.0.0.1:5432/muc?user=muc&password=secret");
        assertThat(pg.kind()).isEqualTo(StoreLocation.Kind.POSTGRESQL);
        assertThat(pg.display()).contains("password=***").doesNotContain("secret");
        assertThatThrownBy(() -> StoreLocation.parse("mysql://x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sqlite:PATH");
    }

    @Test
    void anUnreachableDatabaseIsAClearErrorAtStart() {
        assertThatThrownBy(() -> Store.open(StoreLocation.parse("jdbc:postgresql://127.0.0.1:1/none?user=x"), 1000))
                .isInstanceOf(StoreException.class).hasMessageContaining("cannot open the store jdbc:postgresql://127.0.0.1:1/none");
    }
}
