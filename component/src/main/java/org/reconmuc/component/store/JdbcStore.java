package org.reconmuc.component.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.dom4j.DocumentException;
import org.reconmuc.component.config.StoreLocation;
import org.reconmuc.component.protocol.TakenBack;
import org.reconmuc.component.transport.Outbox;
import org.reconmuc.component.config.StoreLocation.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store on a JDBC database: SQLite (WAL journal, {@code synchronous=NORMAL}), H2
 * ({@code WRITE_DELAY=0}) or PostgreSQL, with the same tables and statements. Writes come from
 * the {@link StoreWriter}'s thread on a connection of their own; loading and archive queries use
 * another, on one reader thread, so a long query never holds up a commit.
 *
 * <p>Durability: a commit returns once the transaction is in the database's log in the operating
 * system (SQLite's WAL file, H2's file, PostgreSQL's WAL): it survives the component being killed.
 * Whether it survives a power loss is the database's setting (SQLite {@code synchronous=FULL},
 * PostgreSQL {@code fsync}/{@code synchronous_commit}); SQLite is opened with NORMAL, which does not.
 */
final class JdbcStore implements Store, StoreWriter.Sink, StoreStats {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcStore.class);
    static final int MAX_QUEUED_WRITES = 8192;
    static final int MAX_BATCH = 1024;
    private static final int MAX_QUEUED_QUERIES = 256;
    /** An occupant gone, or a row in the way of a nick change. */
    private static final String DELETE_OCCUPANT_STATE = "DELETE FROM reconmuc_occupant_state WHERE room = ? AND nick = ?";

    private final StoreLocation location;
    private final StoreWriter writer;
    private final HeldBudget budget;
    private final ThreadPoolExecutor reader;
    /** The writer thread's connection and statements; null until (re)connected. */
    private Connection writeConnection;
    private PreparedStatement insertMessage;
    /** The reader thread's connection (also used to load the rooms before the threads start). */
    private Connection readConnection;

    /** False: no threads; writes wait for {@link #commitQueued()}, queries run on the caller's thread. */
    private final boolean threads;
    /** The instance whose leases fence this store's writes ({@link RoomLeases}); null when the service runs alone. */
    private final String fenceOwner;

    private JdbcStore(StoreLocation location, long maxHeldChars, boolean threads, String fenceOwner) {
        this.location = location;
        this.threads = threads;
        this.fenceOwner = fenceOwner;
        this.budget = new HeldBudget(maxHeldChars);
        this.writer = new StoreWriter(this, MAX_QUEUED_WRITES, MAX_BATCH);
        this.reader = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(MAX_QUEUED_QUERIES),
                r -> {
                    Thread t = new Thread(r, "store-reader");
                    t.setDaemon(true);
                    return t;
                });
    }

    static JdbcStore open(StoreLocation location, long maxHeldChars, boolean threads) throws StoreException {
        return open(location, maxHeldChars, threads, null);
    }

    static JdbcStore open(StoreLocation location, long maxHeldChars, boolean threads, String fenceOwner)
            throws StoreException {
        JdbcStore store = new JdbcStore(location, maxHeldChars, threads, fenceOwner);
        try {
            store.readConnection = store.connect();
            StoreSchema.migrate(store.readConnection, location.kind(), store::newConnection);
        } catch (SQLException | IOException e) {
            store.closeConnections();
            throw new StoreException("cannot open the store " + location.display() + ": " + location.redact(e.getMessage()), e);
        }
        if (threads) {
            store.writer.start();
        }
        LOG.info("store: {}", location.display());
        return store;
    }

    // ---- connections and schema ----------------------------------------------------------------

    /**
     * The driver for the store's URL, looked up by this class's own loader: inside an Openfire
     * plugin the drivers are in the plugin's class loader, which DriverManager does not search.
     */
    private java.sql.Driver driver() throws SQLException {
        for (java.sql.Driver d : java.util.ServiceLoader.load(java.sql.Driver.class, JdbcStore.class.getClassLoader())) {
            if (d.acceptsURL(location.jdbcUrl())) {
                return d;
            }
        }
        return DriverManager.getDriver(location.jdbcUrl());
    }

    private Connection connect() throws SQLException, IOException {
        if (location.kind() == Kind.SQLITE || location.kind() == Kind.H2) {
            Path file = embeddedFile();
            if (file != null && file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
        }
        DriverManager.setLoginTimeout(10);
        Connection c = driver().connect(location.jdbcUrl(), new java.util.Properties());
        if (c == null) {
            throw new SQLException("the JDBC driver refused " + location.display());
        }
        try (Statement s = c.createStatement()) {
            if (location.kind() == Kind.SQLITE) {
                s.execute("PRAGMA busy_timeout=10000");
                walJournal(s);
                s.execute("PRAGMA synchronous=NORMAL");
            }
        }
        return c;
    }

    /**
     * Turns the SQLite file's journal to WAL. Another store opening the same file at that moment
     * holds the lock the change takes, and SQLite answers SQLITE_BUSY at once, busy timeout or
     * not: it is asked again, for up to 10 s.
     */
    private static void walJournal(Statement s) throws SQLException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try {
                s.execute("PRAGMA journal_mode=WAL");
                return;
            } catch (SQLException e) {
                if (!String.valueOf(e.getMessage()).contains("SQLITE_BUSY") || System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** The database file of an embedded store given by path, or null. */
    private Path embeddedFile() {
        String url = location.jdbcUrl();
        String path;
        if (url.startsWith("jdbc:sqlite:")) {
            path = url.substring("jdbc:sqlite:".length());
        } else if (url.startsWith("jdbc:h2:file:")) {
            path = url.substring("jdbc:h2:file:".length()).split(";", 2)[0];
        } else {
            return null;
        }
        if (path.isEmpty() || path.startsWith(":memory:") || path.startsWith("file:")) {
            return null;
        }
        return Path.of(path);
    }

    /** Adding a message twice (a retried commit whose first try did commit) leaves one row. */
    private String insertMessageSql() {
        String columns = "reconmuc_message (room, seq, stanza_id, at_us, nick, sender, xml)";
        return switch (location.kind()) {
            case SQLITE -> "INSERT OR IGNORE INTO " + columns + " VALUES (?, ?, ?, ?, ?, ?, ?)";
            case H2 -> "MERGE INTO " + columns + " KEY (room, seq) VALUES (?, ?, ?, ?, ?, ?, ?)";
            case POSTGRESQL -> "INSERT INTO " + columns + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
            case NONE -> throw new IllegalStateException();
        };
    }

    // ---- writing (the writer thread) -------------------------------------------------------------

    @Override
    public Set<String> commit(List<Write> batch) throws SQLException, IOException {
        if (writeConnection == null) {
            writeConnection = connect();
            writeConnection.setAutoCommit(false);
            insertMessage = writeConnection.prepareStatement(insertMessageSql());
        }
        try {
            Set<String> fencedOut = checkFences(writeConnection, batch);
            int batched = 0;
            for (Write w : batch) {
                if (fencedOut.contains(w.room())) {
                    continue;
                }
                if (w instanceof Write.Archive a) {
                    bindMessage(insertMessage, a.room(), a.message());
                    insertMessage.addBatch();
                    batched++;
                    continue;
                }
                if (batched > 0) {
                    insertMessage.executeBatch();
                    batched = 0;
                }
                if (w instanceof Write.Save save) {
                    saveRoom(writeConnection, save.record());
                } else if (w instanceof Write.Affiliation aff) {
                    replacePair(writeConnection, "reconmuc_affiliation", "affiliation", aff.room(), aff.jid(), aff.affiliation());
                    replacePair(writeConnection, "reconmuc_registration", "nick", aff.room(), aff.jid(), aff.reservedNick());
                } else if (w instanceof Write.Tombstone t) {
                    tombstone(writeConnection, t);
                } else if (w instanceof Write.Delete d) {
                    deleteRoom(writeConnection, d.room());
                } else if (w instanceof Write.OccupantIn in) {
                    update(writeConnection, "DELETE FROM reconmuc_occupant WHERE room = ? AND session = ?", in.room(),
                            in.session());
                    update(writeConnection, "INSERT INTO reconmuc_occupant (room, session, nick) VALUES (?, ?, ?)",
                            in.room(), in.session(), in.nick());
                } else if (w instanceof Write.Listing l) {
                    update(writeConnection, "UPDATE reconmuc_lease SET name = ?, listed = ? WHERE room = ?", l.name(),
                            l.listed() ? 1 : 0, l.room());
                } else if (w instanceof Write.Release r) {
                    update(writeConnection, RoomLeases.RELEASE, r.room(), fenceOwner, r.fence());
                    if (r.forGood()) {   // empty, or destroyed: nobody carries on in it
                        update(writeConnection, "DELETE FROM reconmuc_occupant_state WHERE room = ?", r.room());
                        update(writeConnection, "DELETE FROM reconmuc_room_state WHERE room = ?", r.room());
                    }
                } else if (w instanceof Write.OccupantState st) {
                    if (st.state() == null) {
                        update(writeConnection, DELETE_OCCUPANT_STATE, st.room(), st.nick());
                    } else if (update(writeConnection, "UPDATE reconmuc_occupant_state SET state = ?,"
                            + " position = COALESCE(?, position) WHERE room = ? AND nick = ?",
                            st.state(), st.startPosition(), st.room(), st.nick()) == 0) {
                        // A new state keeps the delivery position: without one the next owner takes the occupant
                        // to have had everything (a status change before a kill lost a relaxed occupant's pointers).
                        update(writeConnection, "INSERT INTO reconmuc_occupant_state (room, nick, state, position) VALUES (?, ?, ?, ?)",
                                st.room(), st.nick(), st.state(), st.startPosition());
                    }
                } else if (w instanceof Write.OccupantRenamed rn) {
                    update(writeConnection, DELETE_OCCUPANT_STATE, rn.room(), rn.to());
                    update(writeConnection, "UPDATE reconmuc_occupant_state SET nick = ? WHERE room = ? AND nick = ?",
                            rn.to(), rn.room(), rn.from());
                } else if (w instanceof Write.RoomKey k) {
                    upsertRoomState(writeConnection, k.room(), "occupant_id_key", k.occupantIdKey());
                } else if (w instanceof Write.CarriedForm f) {
                    upsertRoomState(writeConnection, f.room(), "config", f.form());
                } else if (w instanceof Write.Positions pos) {
                    writePositions(writeConnection, pos);
                } else if (w instanceof Write.OccupantOut out) {
                    update(writeConnection, "DELETE FROM reconmuc_occupant WHERE room = ? AND session = ?", out.room(),
                            out.session());
                }
            }
            if (batched > 0) {
                insertMessage.executeBatch();
            }
            writeConnection.commit();
            return fencedOut;
        } catch (SQLException | RuntimeException e) {
            try {
                writeConnection.rollback();
            } catch (SQLException ignored) {
                // the connection is going anyway
            }
            closeQuietly(writeConnection);
            writeConnection = null;
            insertMessage = null;
            throw e;
        }
    }

    /** One update per occupant whose position moved, one per room whose fan-out did: never per message. */
    private static void writePositions(Connection c, Write.Positions w) throws SQLException {
        if (!w.positions().isEmpty()) {
            try (PreparedStatement p = c.prepareStatement(
                    "UPDATE reconmuc_occupant_state SET position = ? WHERE room = ? AND nick = ?")) {
                for (Map.Entry<String, String> e : w.positions().entrySet()) {
                    p.setString(1, e.getValue());
                    p.setString(2, w.room());
                    p.setString(3, e.getKey());
                    p.addBatch();
                }
                p.executeBatch();
            }
        }
        if (w.fannedOutUpTo() > 0) {
            upsertRoomState(c, w.room(), "fanned_out_seq", w.fannedOutUpTo());
        }
    }

    private static void upsertRoomState(Connection c, String room, String column, Object value) throws SQLException {
        if (update(c, "UPDATE reconmuc_room_state SET " + column + " = ? WHERE room = ?", value, room) == 0) {
            update(c, "INSERT INTO reconmuc_room_state (room, " + column + ") VALUES (?, ?)", room, value);
        }
    }

    /** Replaces an archived message by its tombstone; a message the archive lacks, or cannot read, stays as it is. */
    private void tombstone(Connection c, Write.Tombstone t) throws SQLException {
        String xml;
        try (PreparedStatement p = c.prepareStatement("SELECT xml FROM reconmuc_message WHERE room = ? AND stanza_id = ?")) {
            p.setString(1, t.room());
            p.setString(2, t.stanzaId());
            try (ResultSet r = p.executeQuery()) {
                if (!r.next()) {
                    return;
                }
                xml = r.getString(1);
            }
        }
        try {
            update(c, "UPDATE reconmuc_message SET xml = ? WHERE room = ? AND stanza_id = ?",
                    TakenBack.tombstoneXml(xml, t.at(), t.moderatedXml(), t.reason()), t.room(), t.stanzaId());
        } catch (DocumentException e) {
            LOG.warn("room {}: archived message {} is unreadable; it was not replaced by its tombstone", t.room(), t.stanzaId());
        }
    }

    /**
     * The fence: each room written under a lease must still be ours at that epoch. The update
     * changes nothing but locks the lease's row until this transaction ends, so a takeover (which
     * raises the epoch) commits either before — and this room's writes are left out — or after
     * them, and then finds them in the archive. Returns the rooms that are no longer ours.
     */
    private Set<String> checkFences(Connection c, List<Write> batch) throws SQLException {
        if (fenceOwner == null) {
            return Set.of();
        }
        // In room order: two transactions that lock several lease rows never wait for each other in a circle.
        Map<String, Long> fences = new java.util.TreeMap<>();
        for (Write w : batch) {
            if (w.fence() != 0) {
                fences.putIfAbsent(w.room(), w.fence());
            }
        }
        if (fences.isEmpty()) {
            return Set.of();
        }
        Set<String> lost = new HashSet<>();
        try (PreparedStatement p = c.prepareStatement(
                "UPDATE reconmuc_lease SET epoch = epoch WHERE room = ? AND owner = ? AND epoch = ?")) {
            for (Map.Entry<String, Long> f : fences.entrySet()) {
                p.setString(1, f.getKey());
                p.setString(2, fenceOwner);
                p.setLong(3, f.getValue());
                if (p.executeUpdate() == 0) {
                    lost.add(f.getKey());
                }
            }
        }
        if (!lost.isEmpty()) {
            LOG.warn("store: {} rooms are no longer ours (another instance took them over); their writes are dropped: {}",
                    lost.size(), lost);
        }
        return lost;
    }

    private static void bindMessage(PreparedStatement p, String room, ArchivedMessage m) throws SQLException {
        p.setString(1, room);
        p.setLong(2, m.seq());
        p.setString(3, m.stanzaId());
        p.setLong(4, micros(m.at()));
        p.setString(5, m.nick());
        if (m.sender() == null) {
            p.setNull(6, Types.VARCHAR);
        } else {
            p.setString(6, m.sender());
        }
        p.setString(7, m.xml());
    }

    private static void saveRoom(Connection c, RoomRecord r) throws SQLException {
        update(c, "DELETE FROM reconmuc_room WHERE jid = ?", r.jid());
        try (PreparedStatement p = c.prepareStatement("INSERT INTO reconmuc_room"
                + " (jid, config, subject, subject_at_us, occupant_id_key, saved_at_us) VALUES (?, ?, ?, ?, ?, ?)")) {
            p.setString(1, r.jid());
            p.setString(2, r.config());
            p.setString(3, r.subject());
            if (r.subjectAt() == null) {
                p.setNull(4, Types.BIGINT);
            } else {
                p.setLong(4, micros(r.subjectAt()));
            }
            p.setString(5, r.occupantIdKey());
            p.setLong(6, micros(Instant.now()));
            p.executeUpdate();
        }
        replacePairs(c, "reconmuc_affiliation", "affiliation", r.jid(), r.affiliations());
        replacePairs(c, "reconmuc_registration", "nick", r.jid(), r.registrations());
    }

    private static void replacePairs(Connection c, String table, String valueColumn, String room,
                                     Map<String, String> byJid) throws SQLException {
        update(c, "DELETE FROM " + table + " WHERE room = ?", room);
        if (byJid.isEmpty()) {
            return;
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " (room, jid, " + valueColumn
                + ") VALUES (?, ?, ?)")) {
            for (Map.Entry<String, String> e : byJid.entrySet()) {
                p.setString(1, room);
                p.setString(2, e.getKey());
                p.setString(3, e.getValue());
                p.addBatch();
            }
            p.executeBatch();
        }
    }

    /** One user's row of a pair table: replaced by {@code value}, or gone if it is null. */
    private static void replacePair(Connection c, String table, String valueColumn, String room, String jid, String value)
            throws SQLException {
        update(c, "DELETE FROM " + table + " WHERE room = ? AND jid = ?", room, jid);
        if (value != null) {
            update(c, "INSERT INTO " + table + " (room, jid, " + valueColumn + ") VALUES (?, ?, ?)", room, jid, value);
        }
    }

    private static void deleteRoom(Connection c, String room) throws SQLException {
        update(c, "DELETE FROM reconmuc_room WHERE jid = ?", room);
        update(c, "DELETE FROM reconmuc_affiliation WHERE room = ?", room);
        update(c, "DELETE FROM reconmuc_registration WHERE room = ?", room);
        update(c, "DELETE FROM reconmuc_message WHERE room = ?", room);
    }

    /** Runs {@code sql} with {@code args} (strings, ints, longs) bound in order. */
    private static int update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                p.setObject(i + 1, args[i]);
            }
            return p.executeUpdate();
        }
    }

    // ---- reading ---------------------------------------------------------------------------------

    @Override
    public synchronized List<StoredRoom> loadRooms(int newestPerRoom) throws StoreException {
        try {
            Connection c = readConnection();
            List<String> jids = new ArrayList<>();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT jid FROM reconmuc_room ORDER BY jid")) {
                while (rs.next()) {
                    jids.add(rs.getString(1));
                }
            }
            List<StoredRoom> rooms = new ArrayList<>();
            for (String jid : jids) {
                StoredRoom room = loadRoom(c, jid, newestPerRoom);
                if (room != null) {
                    rooms.add(room);
                }
            }
            return rooms;
        } catch (SQLException | IOException e) {
            dropReadConnection();
            throw new StoreException("cannot read the rooms from " + location.display() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized Optional<StoredRoom> loadRoom(String jid, int newest) throws StoreException {
        try {
            return Optional.ofNullable(loadRoom(readConnection(), jid, newest));
        } catch (SQLException | IOException e) {
            dropReadConnection();
            throw new StoreException("cannot read the room " + jid + " from " + location.display() + ": "
                    + e.getMessage(), e);
        }
    }

    /** One persistent room with its newest messages, or null if the store has no such room. */
    private static StoredRoom loadRoom(Connection c, String jid, int newestPerRoom) throws SQLException {
        RoomRecord r;
        try (PreparedStatement p = c.prepareStatement("SELECT jid, config, subject, subject_at_us, occupant_id_key"
                + " FROM reconmuc_room WHERE jid = ?")) {
            p.setString(1, jid);
            try (ResultSet rs = p.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long subjectAt = rs.getLong(4);
                Instant at = rs.wasNull() ? null : instant(subjectAt);
                r = new RoomRecord(rs.getString(1), rs.getString(2), rs.getString(3), at, rs.getString(5),
                        pairs(c, "SELECT jid, affiliation FROM reconmuc_affiliation WHERE room = ?", jid),
                        pairs(c, "SELECT jid, nick FROM reconmuc_registration WHERE room = ?", jid));
            }
        }
        List<ArchivedMessage> newest = new ArrayList<>();
        if (newestPerRoom > 0) {
            try (PreparedStatement p = c.prepareStatement(SELECT_MESSAGE
                    + " WHERE room = ? ORDER BY seq DESC LIMIT " + newestPerRoom)) {
                p.setString(1, jid);
                readMessages(p, newest);
            }
            Collections.reverse(newest);
        }
        long lastSeq = 0;
        try (PreparedStatement p = c.prepareStatement("SELECT MAX(seq) FROM reconmuc_message WHERE room = ?")) {
            p.setString(1, jid);
            try (ResultSet rs = p.executeQuery()) {
                if (rs.next()) {
                    lastSeq = rs.getLong(1);
                }
            }
        }
        return new StoredRoom(r, newest, lastSeq);
    }

    @Override
    public synchronized Map<String, String> listedRooms() throws StoreException {
        try (Statement s = readConnection().createStatement();
             ResultSet rs = s.executeQuery("SELECT room, name FROM reconmuc_lease WHERE listed = 1 ORDER BY room")) {
            Map<String, String> rooms = new LinkedHashMap<>();
            while (rs.next()) {
                rooms.put(rs.getString(1), rs.getString(2));
            }
            return rooms;
        } catch (SQLException | IOException e) {
            dropReadConnection();
            throw new StoreException("cannot read the room list: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized StoredOccupants occupants(String room) throws StoreException {
        try {
            Connection c = readConnection();
            Map<String, String> sessions = pairs(c, "SELECT session, nick FROM reconmuc_occupant WHERE room = ?", room);
            if (sessions.isEmpty()) {
                return StoredOccupants.NONE;
            }
            Map<String, StoredOccupants.Carried> occupants = new LinkedHashMap<>();
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT nick, state, position FROM reconmuc_occupant_state WHERE room = ?")) {
                p.setString(1, room);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        occupants.put(rs.getString(1), new StoredOccupants.Carried(rs.getString(2), rs.getString(3)));
                    }
                }
            }
            long fannedOut = 0;
            String key = null;
            String form = null;
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT fanned_out_seq, occupant_id_key, config FROM reconmuc_room_state WHERE room = ?")) {
                p.setString(1, room);
                try (ResultSet rs = p.executeQuery()) {
                    if (rs.next()) {
                        fannedOut = rs.getLong(1);
                        key = rs.getString(2);
                        form = rs.getString(3);
                    }
                }
            }
            return new StoredOccupants(sessions, occupants, fannedOut, key, form);
        } catch (SQLException | IOException e) {
            dropReadConnection();
            throw new StoreException("cannot read the occupants of " + room + ": " + e.getMessage(), e);
        }
    }

    private static final String SELECT_MESSAGE = "SELECT seq, stanza_id, at_us, nick, sender, xml FROM reconmuc_message";

    private static void readMessages(PreparedStatement p, List<ArchivedMessage> into) throws SQLException {
        try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
                into.add(new ArchivedMessage(rs.getLong(1), rs.getString(2), instant(rs.getLong(3)), rs.getString(4),
                        rs.getString(5), rs.getString(6)));
            }
        }
    }

    private static Map<String, String> pairs(Connection c, String sql, String room) throws SQLException {
        Map<String, String> map = new LinkedHashMap<>();
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setString(1, room);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    map.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return map;
    }

    @Override
    public void query(String roomJid, ArchiveQuery query, Consumer<ArchiveQuery.Page> result,
                      Consumer<Exception> failure) {
        Runnable task = () -> {
            ArchiveQuery.Page page;
            try {
                page = page(roomJid, query);
            } catch (Exception e) {
                if (!(e instanceof ArchiveQuery.UnknownIdException)) {
                    LOG.warn("store: an archive query on {} failed: {}", roomJid, e.toString());
                    dropReadConnection();
                }
                failure.accept(e);
                return;
            }
            result.accept(page);
        };
        if (!threads) {
            task.run();
            return;
        }
        try {
            reader.execute(task);
        } catch (RejectedExecutionException e) {
            failure.accept(e);
        }
    }

    @Override
    public void commitQueued() {
        if (threads) {
            throw new IllegalStateException("the writer thread commits this store");
        }
        writer.commitQueued();
    }

    /** {@link ArchiveQuery#over} in SQL. */
    synchronized ArchiveQuery.Page page(String room, ArchiveQuery q)
            throws SQLException, IOException, ArchiveQuery.UnknownIdException {
        Connection c = readConnection();
        long afterSeq = q.after() == null ? Long.MIN_VALUE : seqOf(c, room, q.after());
        long beforeSeq = q.before() == null || q.before().isEmpty() ? Long.MAX_VALUE : seqOf(c, room, q.before());
        List<Object> args = new ArrayList<>();
        StringBuilder where = new StringBuilder(" WHERE room = ?");
        args.add(room);
        if (q.start() != null) {
            where.append(" AND at_us >= ?");
            args.add(micros(q.start()));
        }
        if (q.end() != null) {
            where.append(" AND at_us <= ?");
            args.add(micros(q.end()));
        }
        if (q.withNick() != null) {
            where.append(" AND nick = ?");
            args.add(q.withNick());
        }
        if (q.withSender() != null) {
            where.append(" AND sender = ?");
            args.add(q.withSender());
        }
        int count;
        try (PreparedStatement p = c.prepareStatement("SELECT COUNT(*) FROM reconmuc_message" + where)) {
            bind(p, args);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                count = rs.getInt(1);
            }
        }
        if (afterSeq != Long.MIN_VALUE) {
            where.append(" AND seq > ?");
            args.add(afterSeq);
        }
        if (beforeSeq != Long.MAX_VALUE) {
            where.append(" AND seq < ?");
            args.add(beforeSeq);
        }
        List<ArchivedMessage> rows = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement(SELECT_MESSAGE + where + " ORDER BY seq "
                + (q.backwards() ? "DESC" : "ASC") + " LIMIT " + (q.max() + 1))) {
            bind(p, args);
            readMessages(p, rows);
        }
        boolean complete = rows.size() <= q.max();
        List<ArchivedMessage> page = new ArrayList<>(rows.subList(0, Math.min(q.max(), rows.size())));
        if (q.backwards()) {
            Collections.reverse(page);
        }
        return new ArchiveQuery.Page(page, count, complete);
    }

    private static long seqOf(Connection c, String room, String stanzaId)
            throws SQLException, ArchiveQuery.UnknownIdException {
        try (PreparedStatement p = c.prepareStatement("SELECT seq FROM reconmuc_message WHERE room = ? AND stanza_id = ?")) {
            p.setString(1, room);
            p.setString(2, stanzaId);
            try (ResultSet rs = p.executeQuery()) {
                if (rs.next()) {
                    return rs.getLong(1);
                }
            }
        }
        throw new ArchiveQuery.UnknownIdException(stanzaId);
    }

    private static void bind(PreparedStatement p, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            Object a = args.get(i);
            if (a instanceof Long l) {
                p.setLong(i + 1, l);
            } else {
                p.setString(i + 1, (String) a);
            }
        }
    }

    private synchronized Connection readConnection() throws SQLException, IOException {
        if (readConnection == null) {
            readConnection = connect();
        }
        return readConnection;
    }

    private synchronized void dropReadConnection() {
        closeQuietly(readConnection);
        readConnection = null;
    }

    static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }

    // ---- the rest of Store ---------------------------------------------------------------------------

    @Override
    public LeaseStore leases(String instance) {
        return new RoomLeases(location, this::newConnection, instance);
    }

    /** A connection of its own, for the leases and the schema's migrations. */
    private Connection newConnection() throws SQLException {
        try {
            return connect();
        } catch (IOException e) {
            throw new SQLException(e.getMessage(), e);
        }
    }

    @Override
    public RoomJournal journal(String roomJid, Outbox outbox) {
        return new RoomJournal(roomJid, writer, budget, outbox);
    }

    @Override
    public StoreStats stats() {
        return this;
    }

    @Override
    public String describe() {
        return location.display();
    }

    @Override
    public void close() {
        writer.close();
        budget.close();
        reader.shutdown();
        try {
            if (!reader.awaitTermination(5, TimeUnit.SECONDS)) {
                reader.shutdownNow();
            }
        } catch (InterruptedException e) {
            reader.shutdownNow();
            Thread.currentThread().interrupt();
        }
        closeConnections();
    }

    private synchronized void closeConnections() {
        closeQuietly(writeConnection);
        writeConnection = null;
        closeQuietly(readConnection);
        readConnection = null;
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
    }

    // ---- StoreStats ----------------------------------------------------------------------------------

    @Override
    public long commits() {
        return writer.commits();
    }

    @Override
    public double commitSeconds() {
        return writer.commitNanos() / 1e9;
    }

    @Override
    public double lastCommitSeconds() {
        return writer.lastCommitNanos() / 1e9;
    }

    @Override
    public long writesCommitted() {
        return writer.writesCommitted();
    }

    @Override
    public int lastBatchSize() {
        return writer.lastBatch();
    }

    @Override
    public int queuedWrites() {
        return writer.queued();
    }

    @Override
    public long heldStanzas() {
        return budget.stanzas();
    }

    @Override
    public long failures() {
        return writer.failures();
    }

    @Override
    public boolean available() {
        return writer.available();
    }
}
