package org.reconmuc.component.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.config.StoreLocation;
import org.xmpp.packet.Message;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.Outbox;

/**
 * What every database under the store must do, run against each ({@link SqliteStoreTest},
 * {@link H2StoreTest}, and PostgreSQL in {@code PostgresStoreIT}): round trips of rooms and
 * messages, replacement and deletion, idempotent appends, and archive pages computed in SQL
 * exactly as {@link ArchiveQuery#over} computes them in memory.
 */
abstract class StoreContract {
    static final String ROOM = "lobby@chat.example";
    static final Instant T0 = Instant.parse("2026-01-01T10:00:00.123456Z");

    /** A new, empty store location for one test. */
    abstract StoreLocation location() throws Exception;

    private Store store;
    private final List<OutgoingStanza> sent = new ArrayList<>();

    @BeforeEach
    void open() throws Exception {
        store = Store.openWithoutThreads(location());
    }

    @AfterEach
    void close() {
        store.close();
    }

    private Store reopen() throws Exception {
        store.close();
        store = Store.openWithoutThreads(location());
        return store;
    }

    static RoomRecord record(String room, Map<String, String> affiliations) {
        return new RoomRecord(room, "<x xmlns='jabber:x:data' type='form'/>", "<message type='groupchat'><subject>s</subject></message>",
                T0, "a2V5", affiliations, Map.of("romeo@montague.lit", "Romeo"));
    }

    static ArchivedMessage message(long seq, String nick, String sender) {
        return new ArchivedMessage(seq, "id-" + seq, T0.plusSeconds(60 * seq), nick, sender,
                "<message xmlns=\"jabber:client\" from=\"" + ROOM + "/" + nick + "\" type=\"groupchat\"><body>m" + seq
                        + " &amp; more</body></message>");
    }

    private RoomJournal journal(String room) {
        return store.journal(room, sent::add);
    }

    @Test
    void aRoomAndItsNewestMessagesComeBack() throws Exception {
        RoomJournal j = journal(ROOM);
        j.save(record(ROOM, Map.of("juliet@capulet.lit", "owner", "tybalt@capulet.lit", "outcast")));
        for (long seq = 1; seq <= 5; seq++) {
            j.archive(message(seq, seq % 2 == 0 ? "Romeo" : "Juliet", seq % 2 == 0 ? "romeo@montague.lit" : null));
        }
        store.commitQueued();
        List<StoredRoom> rooms = reopen().loadRooms(3);
        assertThat(rooms).hasSize(1);
        StoredRoom r = rooms.get(0);
        assertThat(r.record()).isEqualTo(record(ROOM, Map.of("juliet@capulet.lit", "owner", "tybalt@capulet.lit", "outcast")));
        assertThat(r.lastSeq()).isEqualTo(5);
        assertThat(r.newest()).containsExactly(message(3, "Juliet", null), message(4, "Romeo", "romeo@montague.lit"),
                message(5, "Juliet", null));
    }

    @Test
    void aSavedRecordReplacesTheOldAndADeletedRoomIsGoneWithItsArchive() throws Exception {
        RoomJournal lobby = journal(ROOM);
        RoomJournal other = journal("other@chat.example");
        lobby.save(record(ROOM, Map.of("a@x", "owner", "b@x", "member")));
        lobby.archive(message(1, "A", "a@x"));
        other.save(record("other@chat.example", Map.of("c@x", "owner")));
        other.archive(message(1, "C", "c@x"));
        lobby.save(record(ROOM, Map.of("a@x", "owner")));
        other.delete();
        store.commitQueued();
        List<StoredRoom> rooms = reopen().loadRooms(10);
        assertThat(rooms).hasSize(1);
        assertThat(rooms.get(0).record().affiliations()).isEqualTo(Map.of("a@x", "owner"));
        // A room deleted and made again starts a new archive.
        RoomJournal again = journal("other@chat.example");
        again.save(record("other@chat.example", Map.of()));
        store.commitQueued();
        assertThat(store.loadRooms(10)).filteredOn(r -> r.record().jid().equals("other@chat.example"))
                .singleElement().satisfies(r -> assertThat(r.newest()).isEmpty());
    }

    @Test
    void oneUsersAffiliationAndReservedNickAreWrittenAloneAndTheOthersStay() throws Exception {
        // An invitation into a members-only room adds one row; it does not write every member again.
        RoomJournal j = journal(ROOM);
        j.save(record(ROOM, Map.of("juliet@capulet.lit", "owner", "romeo@montague.lit", "member")));
        j.affiliation("nurse@capulet.lit", "member", "Angelica");
        j.affiliation("romeo@montague.lit", "outcast", null);
        j.affiliation("tybalt@capulet.lit", null, null);   // nothing to remove: nothing happens
        store.commitQueued();
        RoomRecord r = reopen().loadRooms(10).get(0).record();
        assertThat(r.affiliations()).isEqualTo(Map.of("juliet@capulet.lit", "owner", "romeo@montague.lit", "outcast",
                "nurse@capulet.lit", "member"));
        assertThat(r.registrations()).isEqualTo(Map.of("nurse@capulet.lit", "Angelica"));
        assertThat(r.config()).isEqualTo(record(ROOM, Map.of()).config());
    }

    @Test
    void aTombstoneReplacesTheArchivedContentUnderTheSameIdAndTime() throws Exception {
        RoomJournal j = journal(ROOM);
        j.save(record(ROOM, Map.of()));
        j.archive(message(1, "A", null));
        j.archive(message(2, "B", null));
        store.commitQueued();
        Instant at = Instant.parse("2026-01-01T11:00:00Z");
        j.tombstone("id-1", at, "<moderated xmlns=\"urn:xmpp:message-moderate:1\" by=\"" + ROOM + "/Mod\"/>", "spam");
        j.tombstone("no-such-id", at, null, null);   // nothing to replace: nothing happens
        store.commitQueued();
        List<ArchivedMessage> newest = reopen().loadRooms(10).get(0).newest();
        assertThat(newest).hasSize(2);
        assertThat(newest.get(1)).isEqualTo(message(2, "B", null));
        ArchivedMessage tombstone = newest.get(0);
        assertThat(tombstone.stanzaId()).isEqualTo("id-1");
        assertThat(tombstone.at()).isEqualTo(message(1, "A", null).at());
        assertThat(tombstone.xml()).doesNotContain("<body").contains("from=\"" + ROOM + "/A\"")
                .contains("<retracted xmlns=\"urn:xmpp:message-retract:1\" stamp=\"2026-01-01T11:00:00Z\">")
                .contains("by=\"" + ROOM + "/Mod\"").contains(">spam</reason>");
    }

    @Test
    void theSameMessageTwiceIsStoredOnce() throws Exception {
        RoomJournal j = journal(ROOM);
        j.save(record(ROOM, Map.of()));
        j.archive(message(1, "A", null));
        j.archive(message(1, "A", null));
        store.commitQueued();
        assertThat(store.loadRooms(10).get(0).newest()).hasSize(1);
    }

    @Test
    void stanzasWaitForTheirWritesAndLeaveInOrder() {
        RoomJournal j = journal(ROOM);
        j.send(stanza("first"));   // nothing pending: straight out
        assertThat(sent).hasSize(1);
        j.save(record(ROOM, Map.of()));
        j.archive(message(1, "A", null));
        OutgoingStanza echo = stanza("echo");
        j.send(echo);
        j.sendNow(stanza("refused"));   // an error for a refused message overtakes
        assertThat(sent).hasSize(2);
        assertThat(sent.get(1).xml()).contains("refused");
        store.commitQueued();
        assertThat(sent).hasSize(3);
        assertThat(sent.get(2)).isSameAs(echo);   // held as rendered, not rendered again
        assertThat(store.stats().commits()).isEqualTo(1);
        assertThat(store.stats().writesCommitted()).isEqualTo(2);
        assertThat(store.stats().heldStanzas()).isZero();
    }

    private static OutgoingStanza stanza(String body) {
        Message m = new Message();
        m.setFrom(ROOM);
        m.setBody(body);
        return OutgoingStanza.of(m);
    }

    /** Six messages alternating Juliet (odd) and Romeo (even), one a minute. */
    private List<ArchivedMessage> archiveSix() {
        RoomJournal j = journal(ROOM);
        j.save(record(ROOM, Map.of()));
        List<ArchivedMessage> log = new ArrayList<>();
        for (long seq = 1; seq <= 6; seq++) {
            ArchivedMessage m = seq % 2 == 0 ? message(seq, "Romeo", "romeo@montague.lit")
                    : message(seq, "Juliet", "juliet@capulet.lit");
            log.add(m);
            j.archive(m);
        }
        store.commitQueued();
        return log;
    }

    private ArchiveQuery.Page page(ArchiveQuery q) throws Exception {
        AtomicReference<Object> answer = new AtomicReference<>();
        store.query(ROOM, q, answer::set, answer::set);
        if (answer.get() instanceof Exception e) {
            throw e;
        }
        return (ArchiveQuery.Page) answer.get();
    }

    @Test
    void archivePagesInSqlAreThePagesInMemory() throws Exception {
        List<ArchivedMessage> log = archiveSix();
        List<ArchiveQuery> queries = List.of(
                new ArchiveQuery(null, null, null, null, null, null, 100),
                new ArchiveQuery(null, null, null, null, null, null, 2),
                new ArchiveQuery(null, null, null, null, "id-2", null, 2),
                new ArchiveQuery(null, null, null, null, "id-2", null, 10),
                new ArchiveQuery(null, null, null, null, null, "", 2),
                new ArchiveQuery(null, null, null, null, null, "id-5", 2),
                new ArchiveQuery(null, null, null, null, null, "id-3", 5),
                new ArchiveQuery(T0.plusSeconds(120), T0.plusSeconds(240), null, null, null, null, 100),
                new ArchiveQuery(null, null, "Romeo", null, null, null, 100),
                new ArchiveQuery(null, null, null, "juliet@capulet.lit", "id-1", null, 1),
                new ArchiveQuery(null, null, "Nobody", null, null, "", 5),
                new ArchiveQuery(null, null, null, null, null, null, 0));
        for (ArchiveQuery q : queries) {
            assertThat(page(q)).as(q.toString()).isEqualTo(q.over(log));
        }
        assertThat(page(new ArchiveQuery(null, null, null, null, "id-2", null, 2)).items())
                .extracting(ArchivedMessage::seq).containsExactly(3L, 4L);
        assertThat(page(new ArchiveQuery(null, null, null, null, null, "", 2)).complete()).isFalse();
    }

    @Test
    void anUnknownIdIsNotFound() {
        archiveSix();
        assertThatThrownBy(() -> page(new ArchiveQuery(null, null, null, null, "nope", null, 5)))
                .isInstanceOf(ArchiveQuery.UnknownIdException.class);
        assertThatThrownBy(() -> page(new ArchiveQuery(null, null, null, null, null, "nope", 5)))
                .isInstanceOf(ArchiveQuery.UnknownIdException.class);
    }

    // ---- several instances: leases and the fence ------------------------------------------------

    private static final long LEASE = 3_000;

    @Test
    void aRoomIsServedUnderOneLeaseAtATimeAndTakenOverWhenItRunsOut() throws Exception {
        try (LeaseStore a = store.leases("a"); LeaseStore b = store.leases("b")) {
            assertThat(a.claim(ROOM, 1_000, LEASE)).isEqualTo(new LeaseStore.Granted(1));
            assertThat(b.claim(ROOM, 2_000, LEASE)).isEqualTo(new LeaseStore.Held("a", 2_000));
            assertThat(a.renew(3_000, 2)).containsExactly(Map.entry(ROOM, 1L));
            // a's heartbeat keeps its lease running past the claim's expiry (4 000)
            assertThat(b.claim(ROOM, 5_000, LEASE)).isEqualTo(new LeaseStore.Held("a", 1_000));
            // a stops renewing (paused, or dead): once its lease has run out, b takes the room under a new epoch
            assertThat(b.claim(ROOM, 6_001, LEASE)).isEqualTo(new LeaseStore.Granted(2));
            assertThat(a.renew(6_500, 2)).isEmpty();
            b.release(ROOM, 2);
            assertThat(a.claim(ROOM, 6_600, LEASE)).isEqualTo(new LeaseStore.Granted(3));
            assertThat(a.liveInstances(6_700, LEASE)).containsExactly("a");
        }
    }

    @Test
    void activitySubscribersAreOneRowPerSessionThatEveryInstanceReads() throws Exception {
        try (LeaseStore a = store.leases("a"); LeaseStore b = store.leases("b")) {
            a.activitySubscribed("juliet@capulet.lit/balcony", 1_000);
            a.activitySubscribed("juliet@capulet.lit/balcony", 2_000);   // a second presence: still one
            b.activitySubscribed("romeo@montague.lit/orchard", 3_000);
            assertThat(b.activitySubscribers()).containsExactlyInAnyOrder("juliet@capulet.lit/balcony",
                    "romeo@montague.lit/orchard");
            b.activityUnsubscribed("juliet@capulet.lit/balcony");
            b.activityUnsubscribed("nurse@capulet.lit/kitchen");   // never subscribed: nothing happens
            assertThat(a.activitySubscribers()).containsExactly("romeo@montague.lit/orchard");
        }
    }

    /**
     * What {@code adopt} adopts once the lock is free: the server frees a closed session's advisory
     * locks when its backend ends, a moment after the client closed the connection (as for a
     * process that died), so a survivor looks again as it does every 200 ms.
     */
    private static LeaseStore.Adoption adoptedOnceFreed(java.util.concurrent.Callable<LeaseStore.Adoption> adopt)
            throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        LeaseStore.Adoption adopted = adopt.call();
        while (adopted.connections() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
            adopted = adopt.call();
        }
        return adopted;
    }

    @Test
    void aDeadInstanceIsAdoptedOnceAndWhereDeathIsCertainALateHeartbeatIsNotDeath() throws Exception {
        try (LeaseStore a = store.leases("a"); LeaseStore b = store.leases("b"); LeaseStore c = store.leases("c");
             LeaseStore.AliveLock aAlive = a.instanceLock(); LeaseStore.AliveLock bAlive = b.instanceLock();
             LeaseStore.AliveLock cAlive = c.instanceLock()) {
            aAlive.hold();
            bAlive.hold();
            cAlive.hold();
            a.renew(1_000, 2);
            b.renew(1_000, 1);
            c.renew(1_000, 1);
            assertThat(a.claim(ROOM, 1_000, LEASE)).isEqualTo(new LeaseStore.Granted(1));
            b.renew(9_000, 1);
            c.renew(9_000, 1);
            if (a.tellsDeathForCertain()) {
                // a has not beaten for two leases, but its session holds its lock: alive (slow, or paused)
                assertThat(b.adoptDeadInstances(9_000, LEASE)).isEqualTo(LeaseStore.Adoption.NONE);
                assertThat(c.adoptDeadInstances(9_000, LEASE)).isEqualTo(LeaseStore.Adoption.NONE);
                aAlive.close();   // a's session ends (the process died): adopted at once, by one survivor only,
                // and its rooms are given back, named to the adopter (their stanzas come to it next)
                assertThat(adoptedOnceFreed(() -> b.adoptDeadInstances(9_001, LEASE)))
                        .isEqualTo(new LeaseStore.Adoption(2, List.of(ROOM)));
                assertThat(c.adoptDeadInstances(9_001, LEASE)).isEqualTo(LeaseStore.Adoption.NONE);
                assertThat(b.owners()).containsEntry(ROOM, null);
                // a clean stop frees the lock last: adopted then
                c.unregister(1);
                assertThat(b.adoptDeadInstances(9_100, LEASE)).isEqualTo(LeaseStore.Adoption.NONE);
                cAlive.close();
                assertThat(adoptedOnceFreed(() -> b.adoptDeadInstances(9_100, LEASE)))
                        .isEqualTo(new LeaseStore.Adoption(1, List.of()));
            } else {
                // no lock to tell: a is adopted once its heartbeat is a lease old, and only once
                assertThat(b.adoptDeadInstances(3_900, LEASE)).isEqualTo(LeaseStore.Adoption.NONE);
                assertThat(b.adoptDeadInstances(4_001, LEASE)).isEqualTo(new LeaseStore.Adoption(2, List.of(ROOM)));
                assertThat(c.adoptDeadInstances(4_002, LEASE)).isEqualTo(LeaseStore.Adoption.NONE);
                // c stops cleanly: adopted at once, without waiting a lease
                c.unregister(1);
                assertThat(b.adoptDeadInstances(9_100, LEASE)).isEqualTo(new LeaseStore.Adoption(1, List.of()));
            }
            // a was alive after all (only its session cut, or paused): its next renewal says so, and registers again
            assertThat(warningsOf(() -> a.renew(9_200, 2))).singleElement().asString()
                    .contains("another instance adopted this one while it was alive");
            assertThat(warningsOf(() -> a.renew(9_300, 2))).isEmpty();
        }
    }

    /** The warnings the leases log while {@code work} runs. */
    private static List<String> warningsOf(java.util.concurrent.Callable<?> work) throws Exception {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(RoomLeases.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender =
                new ch.qos.logback.core.read.ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            work.call();
        } finally {
            logger.detachAppender(appender);
        }
        return appender.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void whereDeathIsCertainAFreeLockProvesItOnlyOfAnInstanceThatBeatSinceTheDatabaseStarted() throws Exception {
        try (LeaseStore a = store.leases("a"); LeaseStore b = store.leases("b"); LeaseStore c = store.leases("c");
             LeaseStore.AliveLock bAlive = b.instanceLock(); LeaseStore.AliveLock cAlive = c.instanceLock()) {
            org.junit.jupiter.api.Assumptions.assumeTrue(a.tellsDeathForCertain(), "only PostgreSQL's locks tell death");
            bAlive.hold();
            // a last beat before the database started (in 1970 here) and its lock is free, as every lock is
            // just after PostgreSQL restarts: that proves nothing; a is dead once that beat is a lease old
            a.renew(1_000_000, 2);
            b.renew(1_000_000, 1);
            assertThat(b.adoptDeadInstances(1_000_000 + LEASE / 2, LEASE)).isEqualTo(LeaseStore.Adoption.NONE);
            assertThat(b.adoptDeadInstances(1_000_000 + LEASE + 1, LEASE)).isEqualTo(new LeaseStore.Adoption(2, List.of()));
            // c beats now, since the database started, and its session ends: dead at once
            long now = System.currentTimeMillis();
            cAlive.hold();
            c.renew(now, 1);
            b.renew(now, 1);
            assertThat(b.adoptDeadInstances(now + 1, LEASE)).isEqualTo(LeaseStore.Adoption.NONE);
            cAlive.close();
            assertThat(adoptedOnceFreed(() -> b.adoptDeadInstances(now + 1, LEASE))).isEqualTo(new LeaseStore.Adoption(1, List.of()));
        }
    }

    @Test
    void whereDeathIsCertainALockFoundFreeAtOneLookOnlyIsNotDeath() throws Exception {
        try (LeaseStore a = store.leases("a"); LeaseStore b = store.leases("b"); LeaseStore.AliveLock aAlive = a.instanceLock()) {
            org.junit.jupiter.api.Assumptions.assumeTrue(a.tellsDeathForCertain(), "only PostgreSQL's locks tell death");
            long now = System.currentTimeMillis();
            aAlive.hold();
            a.renew(now, 2);
            // PostgreSQL shutting down ends a's session before b's: b's look finds a's lock free
            aAlive.close();
            awaitLockFree("a");
            assertThat(b.adoptDeadInstances(now + 1, LEASE)).as("free at one look").isEqualTo(LeaseStore.Adoption.NONE);
            // a takes it again (its renewal once the server is back): b's next look finds it held, a is alive
            aAlive.hold();
            assertThat(b.adoptDeadInstances(now + 2, LEASE)).isEqualTo(LeaseStore.Adoption.NONE);
            assertThat(b.adoptDeadInstances(now + 3, LEASE)).isEqualTo(LeaseStore.Adoption.NONE);
            // a dies: free at two looks in a row, adopted at the second
            aAlive.close();
            awaitLockFree("a");
            assertThat(b.adoptDeadInstances(now + 4, LEASE)).isEqualTo(LeaseStore.Adoption.NONE);
            assertThat(b.adoptDeadInstances(now + 5, LEASE)).isEqualTo(new LeaseStore.Adoption(2, List.of()));
        }
    }

    /** Until the database has ended the session that held {@code instance}'s lock (it does so after the close returns). */
    private void awaitLockFree(String instance) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(location().jdbcUrl());
             java.sql.PreparedStatement held = c.prepareStatement("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                     + " AND granted AND ((classid::bigint << 32) | objid::bigint) = ?")) {
            held.setLong(1, InstanceLock.key(instance));
            while (true) {
                try (java.sql.ResultSet rs = held.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) == 0) {
                        return;
                    }
                }
                assertThat(System.nanoTime()).as("the lock of " + instance + " freed").isLessThan(deadline);
                Thread.sleep(20);
            }
        }
    }

    @Test
    void aStoppingInstancesBucketsGoOneToEachTakerAndANewInstanceAsksOnlyForWhatWasAdopted() throws Exception {
        try (LeaseStore a = store.leases("a"); LeaseStore b = store.leases("b"); LeaseStore c = store.leases("c")) {
            a.renew(1_000, 2);
            b.renew(1_000, 2);
            c.renew(1_000, 2);
            // a stops: each of its two buckets is taken by one other instance only, never by a itself
            a.offerConnections(List.of(0, 1), 1_000);
            assertThat(a.nextToTake()).isNull();
            LeaseStore.HandOver toB = b.nextToTake();
            LeaseStore.HandOver toC = c.nextToTake();
            assertThat(List.of(toB.connection(), toC.connection())).containsExactlyInAnyOrder(0, 1);
            assertThat(b.nextToTake()).as("asked again: the same one, still b's").isEqualTo(toB);
            assertThat(a.readyToGive()).isEmpty();
            b.readyToTake(toB.id());
            assertThat(a.readyToGive()).containsExactly(toB);
            assertThat(b.vacant(toB.id())).isFalse();
            assertThat(a.vacated(toB.id())).isTrue();
            assertThat(b.vacant(toB.id())).isTrue();
            // a's stop ends its hand-overs, but the bucket it emptied stays for b to take
            a.endHandOvers();
            assertThat(b.vacant(toB.id())).isTrue();
            assertThat(c.vacant(toC.id())).as("withdrawn").isNull();
            assertThat(a.vacated(toC.id())).as("emptied after its taker gave up").isFalse();
            b.endHandOver(toB.id());
            assertThat(b.vacant(toB.id())).isNull();
            a.unregister(0);
            b.renew(2_000, 3);
            // a new instance asks only for the bucket b holds beyond its share, once
            try (LeaseStore d = store.leases("d")) {
                d.renew(2_000, 2);
                assertThat(d.askForShare(2, 2, 2_000)).isEqualTo(1);
                assertThat(d.askForShare(2, 2, 2_000)).isZero();
                LeaseStore.HandOver back = d.nextToTake();
                assertThat(back.giver()).isEqualTo("b");
                assertThat(back.connection()).isEqualTo(-1);
            }
        }
    }

    @Test
    void aPausedInstanceWhoseRoomMovedWritesNothingAndSendsNothingItHeldForTheWrite() throws Exception {
        Store paused = Store.openFencedWithoutThreads(location(), "a");
        Store survivor = Store.openFencedWithoutThreads(location(), "b");
        try (LeaseStore a = paused.leases("a"); LeaseStore b = survivor.leases("b")) {
            long epochA = ((LeaseStore.Granted) a.claim(ROOM, 0, LEASE)).epoch();
            List<OutgoingStanza> sentByA = new ArrayList<>();
            RoomJournal journalA = paused.journal(ROOM, sentByA::add);
            AtomicReference<String> lost = new AtomicReference<>();
            journalA.fence(epochA, () -> lost.set(ROOM));
            journalA.save(record(ROOM, Map.of()));
            journalA.archive(message(1, "Juliet", null));
            paused.commitQueued();
            // a is paused past its lease; b takes the room over and goes on from what a stored
            long epochB = ((LeaseStore.Granted) b.claim(ROOM, LEASE + 1, LEASE)).epoch();
            assertThat(epochB).isGreaterThan(epochA);
            RoomJournal journalB = survivor.journal(ROOM, sent::add);
            journalB.fence(epochB, () -> { });
            assertThat(survivor.loadRoom(ROOM, 10).orElseThrow().lastSeq()).isEqualTo(1);
            journalB.archive(message(2, "Romeo", "romeo@montague.lit"));
            survivor.commitQueued();
            // a resumes with a message and its echo: the write is refused, the echo never leaves
            journalA.archive(message(2, "Tybalt", null));
            journalA.send(OutgoingStanza.of(new Message()));
            paused.commitQueued();
            assertThat(lost.get()).isEqualTo(ROOM);
            assertThat(sentByA).isEmpty();
            journalA.archive(message(3, "Tybalt", null));
            journalA.send(OutgoingStanza.of(new Message()));
            paused.commitQueued();
            assertThat(sentByA).isEmpty();
            StoredRoom after = survivor.loadRoom(ROOM, 10).orElseThrow();
            assertThat(after.newest()).containsExactly(message(1, "Juliet", null), message(2, "Romeo", "romeo@montague.lit"));
        } finally {
            paused.close();
            survivor.close();
        }
    }

    @Test
    void theOccupantsAndListingOfARoomAreKeptForWhoeverServesItNext() throws Exception {
        Store fenced = Store.openFencedWithoutThreads(location(), "a");
        try (LeaseStore a = fenced.leases("a")) {
            RoomJournal j = fencedJournal(fenced, a);
            j.occupantIn("juliet@capulet.lit/balcony", "Juliet");
            j.occupantIn("romeo@montague.lit/orchard", "Romeo");
            j.occupantOut("juliet@capulet.lit/balcony");
            j.listing("Lobby", true);
            fenced.commitQueued();
            assertThat(fenced.occupants(ROOM).sessions()).containsExactly(Map.entry("romeo@montague.lit/orchard", "Romeo"));
            assertThat(fenced.listedRooms()).containsExactly(Map.entry(ROOM, "Lobby"));
            j.release();
            fenced.commitQueued();
            assertThat(a.owners()).containsEntry(ROOM, null);
            assertThat(fenced.listedRooms()).containsExactly(Map.entry(ROOM, "Lobby"));
        } finally {
            fenced.close();
        }
    }

    /**
     * Found by the two-hour soak: a destroyed room wrote "not listed" after its release, and stayed
     * in the directory whenever the two landed in different commits (fenced out). Whatever commit it
     * shares, nothing written after the release lands.
     */
    @Test
    void aReleasedRoomsLastWriteIsItsReleaseNothingAfterItLandsEvenInTheSameCommit() throws Exception {
        Store fenced = Store.openFencedWithoutThreads(location(), "a");
        try (LeaseStore a = fenced.leases("a")) {
            RoomJournal j = fencedJournal(fenced, a);
            j.occupantIn("carol@example.org/pda", "Carol");
            j.listing("Lobby", true);
            fenced.commitQueued();
            j.release();
            j.occupantState("Carol", "<occupant/>");
            j.listing("Lobby", false);
            fenced.commitQueued();
            assertThat(a.owners()).containsEntry(ROOM, null);
            assertThat(fenced.occupants(ROOM).occupants()).as("its occupants' state went with the release").isEmpty();
            assertThat(fenced.listedRooms()).containsExactly(Map.entry(ROOM, "Lobby"));
        } finally {
            fenced.close();
        }
    }

    @Test
    void deliveryPositionsAreWrittenByTheCommitAfterWhatTheyCoverWasHandedOverOncePerOccupantNeverPerMessage()
            throws Exception {
        Store fenced = Store.openFencedWithoutThreads(location(), "a");
        try (LeaseStore a = fenced.leases("a")) {
            RoomJournal j = carolIn(fencedJournal(fenced, a));
            j.occupantIdKey("a2V5");
            // Held behind the writes above, as the stanzas they follow would be.
            j.positions(Map.of("Carol", "1"));
            j.fannedOut(1);
            j.positions(Map.of("Carol", "3:5"));
            j.fannedOut(4);
            long commits = fenced.stats().commits();
            fenced.commitQueued();
            StoredOccupants stored = fenced.occupants(ROOM);
            assertThat(stored.occupants().get("Carol")).isEqualTo(new StoredOccupants.Carried("<occupant/>", null));
            assertThat(stored.fannedOutUpTo()).as("not yet handed over when that commit began").isZero();
            fenced.commitQueued();
            stored = fenced.occupants(ROOM);
            assertThat(stored.occupants().get("Carol").position()).isEqualTo("3:5");
            assertThat(stored.fannedOutUpTo()).isEqualTo(4);
            assertThat(stored.occupantIdKey()).isEqualTo("a2V5");
            assertThat(fenced.stats().commits() - commits).isEqualTo(2);
            assertThat(fenced.stats().lastBatchSize()).as("the four markers: one write").isEqualTo(1);
            fenced.commitQueued();
            assertThat(fenced.stats().commits() - commits).as("nothing new: no commit").isEqualTo(2);
            j.occupantOut("carol@example.org/pda");
            j.occupantState("Carol", null);
            j.release();
            fenced.commitQueued();
            assertThat(fenced.occupants(ROOM)).isEqualTo(StoredOccupants.NONE);
        } finally {
            fenced.close();
        }
    }

    /**
     * Found by the two-hour soak (2026-11-29-soak-2h-c): a relaxed occupant's status change rewrote its
     * row without its position, and an instance killed before its next flush left the next owner
     * thinking it had everything. A new state keeps the position; leaving drops both.
     */
    @Test
    void anOccupantsNewStateKeepsItsDeliveryPosition() throws Exception {
        Store fenced = Store.openFencedWithoutThreads(location(), "a");
        try (LeaseStore a = fenced.leases("a")) {
            RoomJournal j = carolIn(fencedJournal(fenced, a));
            j.positions(Map.of("Carol", "3:5"));
            fenced.commitQueued();
            fenced.commitQueued();
            assertThat(fenced.occupants(ROOM).occupants().get("Carol").position()).isEqualTo("3:5");
            j.occupantState("Carol", "<occupant show='away'/>");
            fenced.commitQueued();
            assertThat(fenced.occupants(ROOM).occupants().get("Carol"))
                    .isEqualTo(new StoredOccupants.Carried("<occupant show='away'/>", "3:5"));
            j.occupantState("Carol", null);
            j.occupantState("Carol", "<occupant/>");
            fenced.commitQueued();
            assertThat(fenced.occupants(ROOM).occupants().get("Carol").position()).as("she left: a new occupant").isNull();
        } finally {
            fenced.close();
        }
    }

    /** A relaxed occupant's first position comes with her state; a nick change takes her row, position and all. */
    @Test
    void aStartPositionLandsWithItsStateAndARenameTakesThePositionAlong() throws Exception {
        Store fenced = Store.openFencedWithoutThreads(location(), "a");
        try (LeaseStore a = fenced.leases("a")) {
            RoomJournal j = carolIn(fencedJournal(fenced, a));
            fenced.commitQueued();
            j.occupantState("Carol", "<occupant relaxed='yes'/>", "7");
            fenced.commitQueued();
            assertThat(fenced.occupants(ROOM).occupants().get("Carol"))
                    .isEqualTo(new StoredOccupants.Carried("<occupant relaxed='yes'/>", "7"));
            j.occupantState("Caz", "<occupant/>");   // a row left under the new nick is not in the way
            j.occupantRenamed("Carol", "Caz");
            j.occupantState("Caz", "<occupant relaxed='yes' show='away'/>");
            fenced.commitQueued();
            assertThat(fenced.occupants(ROOM).occupants()).doesNotContainKey("Carol")
                    .containsEntry("Caz", new StoredOccupants.Carried("<occupant relaxed='yes' show='away'/>", "7"));
        } finally {
            fenced.close();
        }
    }

    @Test
    void aRoomHandedOverWithItsOccupantsKeepsWhatTheyCarryOnWithButOneForgottenForGoodDoesNot() throws Exception {
        Store fenced = Store.openFencedWithoutThreads(location(), "a");
        try (LeaseStore a = fenced.leases("a")) {
            RoomJournal j = carolIn(fencedJournal(fenced, a));
            j.handOver();   // its connection's bucket goes to another instance, Carol still in the room
            fenced.commitQueued();   // the writes before it
            fenced.commitQueued();   // then the release, after what they held went out
            assertThat(a.owners()).containsEntry(ROOM, null);
            assertThat(fenced.occupants(ROOM).occupants().get("Carol"))
                    .isEqualTo(new StoredOccupants.Carried("<occupant/>", null));

            j.fence(((LeaseStore.Granted) a.claim(ROOM, 0, LEASE)).epoch(), () -> { });
            j.release();    // emptied or destroyed here
            fenced.commitQueued();
            assertThat(fenced.occupants(ROOM).occupants()).isEmpty();
        } finally {
            fenced.close();
        }
    }

    @Test
    void aRoomHandedOverGivesItsLeaseBackOnlyAfterThePositionsOfWhatItSentBeforeAreWritten() throws Exception {
        Store fenced = Store.openFencedWithoutThreads(location(), "a");
        try (LeaseStore a = fenced.leases("a")) {
            RoomJournal j = carolIn(fencedJournal(fenced, a));
            fenced.commitQueued();
            // A message is archived; Carol's batch with it waits for that write, and her position after it.
            j.archive(message(1, "Romeo", "romeo@montague.lit"));
            j.positions(Map.of("Carol", "1"));
            j.fannedOut(1);
            j.handOver();   // its bucket moves on: the room is let go right after
            fenced.commitQueued();   // the message's write; the batch and its position are released
            fenced.commitQueued();   // the position, then the release
            assertThat(a.owners()).containsEntry(ROOM, null);
            StoredOccupants stored = fenced.occupants(ROOM);
            assertThat(stored.occupants().get("Carol").position()).as("the next owner knows she had it").isEqualTo("1");
            assertThat(stored.fannedOutUpTo()).isEqualTo(1);
        } finally {
            fenced.close();
        }
    }

    /** {@code j} with Carol in its room, as a standard occupant (her state submitted, not yet committed). */
    private static RoomJournal carolIn(RoomJournal j) {
        j.occupantIn("carol@example.org/pda", "Carol");
        j.occupantState("Carol", "<occupant/>");
        return j;
    }

    /** The room's journal on {@code fenced}, under a lease {@code a} claims now; what it sends goes to {@link #sent}. */
    private RoomJournal fencedJournal(Store fenced, LeaseStore a) throws java.sql.SQLException {
        return fencedJournal(fenced, a, sent::add);
    }

    /** As above, sending through {@code outbox}. */
    private static RoomJournal fencedJournal(Store fenced, LeaseStore a, Outbox outbox) throws java.sql.SQLException {
        RoomJournal j = fenced.journal(ROOM, outbox);
        j.fence(((LeaseStore.Granted) a.claim(ROOM, 0, LEASE)).epoch(), () -> { });
        return j;
    }

    /** A connection that has written nothing yet: what waits for its writes is kept in {@code notYetWritten}. */
    private Outbox connectionNotYetWritten(List<Runnable> notYetWritten) {
        return new Outbox() {
            @Override
            public void send(OutgoingStanza stanza) {
                sent.add(stanza);
            }

            @Override
            public void whenWritten(String from, Runnable then) {
                assertThat(from).isEqualTo(ROOM);
                notYetWritten.add(then);
            }
        };
    }

    @Test
    void aPositionIsWrittenOnlyOnceTheConnectionHasWrittenWhatItCoversForAKillLosesWhatIsStillQueued() throws Exception {
        List<Runnable> notYetWritten = new ArrayList<>();
        Store fenced = Store.openFencedWithoutThreads(location(), "a");
        try (LeaseStore a = fenced.leases("a")) {
            RoomJournal j = carolIn(fencedJournal(fenced, a, connectionNotYetWritten(notYetWritten)));
            j.archive(message(1, "Romeo", "romeo@montague.lit"));
            fenced.commitQueued();
            // Message 1 went to the outgoing queue, to Carol (relaxed) and to everyone else; the
            // instance may die before the connection writes it.
            j.positions(Map.of("Carol", "2"));
            j.fannedOut(1);
            fenced.commitQueued();
            fenced.commitQueued();
            StoredOccupants stored = fenced.occupants(ROOM);
            assertThat(stored.occupants().get("Carol").position()).as("the next owner sends her message 1 again").isNull();
            assertThat(stored.fannedOutUpTo()).as("and everyone else").isZero();

            notYetWritten.forEach(Runnable::run);   // the connection wrote it
            fenced.commitQueued();
            stored = fenced.occupants(ROOM);
            assertThat(stored.occupants().get("Carol").position()).isEqualTo("2");
            assertThat(stored.fannedOutUpTo()).isEqualTo(1);
        } finally {
            fenced.close();
        }
    }

    @Test
    void aRoomHandedOverSaysWhatItsConnectionIsStillToWriteForThatConnectionWritesItBeforeItCloses() throws Exception {
        Store fenced = Store.openFencedWithoutThreads(location(), "a");
        try (LeaseStore a = fenced.leases("a")) {
            // Not yet written: the connection closes after the hand-over, writing what it holds.
            RoomJournal j = fencedJournal(fenced, a, connectionNotYetWritten(new ArrayList<>()));
            j.occupantIn("carol@example.org/pda", "Carol");
            j.occupantState("Carol", "<occupant/>");
            fenced.commitQueued();
            j.positions(Map.of("Carol", "2"));
            j.fannedOut(1);
            j.handOver();
            fenced.commitQueued();
            assertThat(a.owners()).containsEntry(ROOM, null);
            StoredOccupants stored = fenced.occupants(ROOM);
            assertThat(stored.occupants().get("Carol").position()).isEqualTo("2");
            assertThat(stored.fannedOutUpTo()).isEqualTo(1);
        } finally {
            fenced.close();
        }
    }

    @Test
    void aServiceRunningAloneWritesNoOccupantStatesNorPositions() throws Exception {
        Store alone = Store.openWithoutThreads(location());
        try {
            RoomJournal j = alone.journal(ROOM, sent::add);
            j.occupantState("Carol", "<occupant/>");
            j.occupantIdKey("a2V5");
            j.positions(Map.of("Carol", "3:5"));
            j.fannedOut(4);
            alone.commitQueued();
            assertThat(alone.stats().commits()).isZero();
        } finally {
            alone.close();
        }
    }
}
