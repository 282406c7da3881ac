package org.reconmuc.component.store;

import org.reconmuc.component.config.StoreLocation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Upgrades that keep the data, on each database under the store ({@link SqliteStoreUpgradeTest},
 * {@link H2StoreUpgradeTest}, and PostgreSQL in {@code PostgresStoreUpgradeIT}): a database made by
 * an earlier version of the store, with rows in every table it had, is opened by today's store and
 * has every row after, the columns added since with their defaults, and today's tables; each
 * migration makes exactly the tables the store's code made at its version ({@link EarlierSchemas}).
 */
abstract class StoreUpgradeContract {

    /** A new, empty database; each call another. */
    abstract StoreLocation newLocation() throws Exception;

    static Connection connect(StoreLocation location) throws SQLException {
        return DriverManager.getConnection(location.jdbcUrl());
    }

    private static String text(StoreLocation location) {
        return location.kind().textType();
    }

    /** Migrates an empty database with the store's migrations up to {@code version}, as an earlier store did. */
    private static void migrateTo(StoreLocation location, int version) {
        StoreSchema.flyway(location.kind(), () -> connect(location)).target(Integer.toString(version)).load().migrate();
    }

    @ParameterizedTest(name = "made by version {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void aDatabaseMadeBeforeMigrationsKeepsEveryRowAndGetsTodaysTables(int version) throws Exception {
        StoreLocation location = newLocation();
        Map<String, List<Map<String, String>>> before;
        try (Connection c = connect(location)) {
            EarlierSchemas.make(c, version, text(location));
            EarlierSchemas.fill(c, version);
            before = rows(c);
        }
        openAndCheck(location, version, before);
        assertThat(history(location).get(0)).isEqualTo(version + " BASELINE true");
    }

    @ParameterizedTest(name = "migrated to version {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void aDatabaseMigratedToAnEarlierVersionKeepsEveryRowAndGetsTodaysTables(int version) throws Exception {
        StoreLocation location = newLocation();
        migrateTo(location, version);
        Map<String, List<Map<String, String>>> before;
        try (Connection c = connect(location)) {
            assertThat(StoreSchema.atLatest(c)).isFalse();
            EarlierSchemas.fill(c, version);
            before = rows(c);
        }
        openAndCheck(location, version, before);
        assertThat(history(location).get(0)).isEqualTo("1 SQL true");
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void eachMigrationMakesTheTablesTheStoreMadeAtItsVersion(int version) throws Exception {
        StoreLocation migrated = newLocation();
        migrateTo(migrated, version);
        StoreLocation made = newLocation();
        try (Connection c = connect(made)) {
            EarlierSchemas.make(c, version, text(made));
        }
        assertThat(describe(migrated)).isEqualTo(describe(made));
    }

    @Test
    void anEmptyDatabaseGetsEveryTableAndAReopenChangesNothing() throws Exception {
        StoreLocation location = newLocation();
        Store.openWithoutThreads(location).close();
        List<String> history = history(location);
        Map<String, List<String>> tables = describe(location);
        try (Connection c = connect(location)) {
            assertThat(StoreSchema.atLatest(c)).as("a reopen needs no Flyway").isTrue();
        }
        Store.openWithoutThreads(location).close();
        // Every migration ran, the last one's version is the one the store takes for today's.
        assertThat(history(location)).isEqualTo(history).hasSize(StoreSchema.LATEST)
                .allSatisfy(row -> assertThat(row).endsWith(" SQL true")).last().asString()
                .startsWith(StoreSchema.LATEST + " ");
        assertThat(describe(location)).isEqualTo(tables);
        StoreLocation made = newLocation();
        try (Connection c = connect(made)) {
            EarlierSchemas.make(c, EarlierSchemas.LAST, text(made));
        }
        // Every table the last store without migrations made, with its columns (later ones add some).
        describe(made).forEach((table, columns) -> assertThat(tables.get(table)).as(table).containsAll(columns));
    }

    /** Databases raced on in each case: without turns, one of a few races goes wrong. */
    private static final int RACES = 3;

    @ParameterizedTest(name = "a database {0}")
    @ValueSource(strings = {"empty", "made by version 1", "made by version 6"})
    void twoStoresOpeningTogetherTakeTurns(String what) throws Exception {
        int version = what.equals("empty") ? 0 : Integer.parseInt(what.substring(what.length() - 1));
        for (int race = 1; race <= RACES; race++) {
            StoreLocation location = newLocation();
            if (version > 0) {
                try (Connection c = connect(location)) {
                    EarlierSchemas.make(c, version, text(location));
                    EarlierSchemas.fill(c, version);
                }
            }
            openTogether(location, "i-a", "i-b");
            assertThat(history(location)).as("race %d", race).doesNotHaveDuplicates()
                    .hasSize(StoreSchema.LATEST - version + (version > 0 ? 1 : 0))
                    .allSatisfy(row -> assertThat(row).endsWith(" true"));
            try (Store store = Store.openWithoutThreads(location)) {
                assertThat(store.loadRooms(10)).hasSize(version > 0 ? 2 : 0);
            }
        }
    }

    /** Opens a store of each instance on {@code location} at the same moment, and closes them. */
    private static void openTogether(StoreLocation location, String... instances) throws Exception {
        CyclicBarrier together = new CyclicBarrier(instances.length);
        ExecutorService threads = Executors.newFixedThreadPool(instances.length);
        try {
            List<Future<?>> opened = new ArrayList<>();
            for (String instance : instances) {
                opened.add(threads.submit(() -> {
                    together.await(30, TimeUnit.SECONDS);
                    Store.openFencedWithoutThreads(location, instance).close();
                    return null;
                }));
            }
            for (Future<?> f : opened) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void tablesOfNoVersionTheStoreMadeAreRefusedAndLeftAsTheyWere() throws Exception {
        StoreLocation location = newLocation();
        try (Connection c = connect(location); Statement s = c.createStatement()) {
            EarlierSchemas.make(c, EarlierSchemas.LAST, text(location));
            s.execute("DROP TABLE reconmuc_occupant_state");
        }
        Map<String, List<String>> tables = describe(location);
        assertThatThrownBy(() -> Store.openWithoutThreads(location)).isInstanceOf(StoreException.class)
                .hasMessageContaining("of no version ReConMUC made")
                .hasMessageContaining("[reconmuc_room_state]");
        assertThat(describe(location)).isEqualTo(tables);
    }

    @Test
    void anotherApplicationsTablesInTheDatabaseAreLeftAlone() throws Exception {
        StoreLocation location = newLocation();
        try (Connection c = connect(location); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE guestbook (line VARCHAR(80))");
            s.execute("INSERT INTO guestbook VALUES ('kept')");
        }
        try (Store store = Store.openWithoutThreads(location)) {
            assertThat(store.loadRooms(10)).isEmpty();
        }
        try (Connection c = connect(location); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT line FROM guestbook")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("kept");
        }
        assertThat(history(location)).contains("0 BASELINE true", "6 SQL true");
    }

    // ---- checks ------------------------------------------------------------------------------------

    /**
     * Opens {@code location} (at {@code version}, holding {@code before}) with today's store and
     * checks that every row is there with what it had, the columns added since hold their defaults,
     * the store reads the rooms, archives, occupants and leases back, and the tables are today's.
     */
    private void openAndCheck(StoreLocation location, int version, Map<String, List<Map<String, String>>> before)
            throws Exception {
        try (Store store = Store.openWithoutThreads(location)) {
            assertThat(store.loadRooms(10)).containsExactly(
                    new StoredRoom(EarlierSchemas.ATTIC_RECORD, EarlierSchemas.ATTIC_MESSAGES, 7),
                    new StoredRoom(EarlierSchemas.LOBBY_RECORD, EarlierSchemas.LOBBY_MESSAGES, 3));
            StoredOccupants lobby = store.occupants(EarlierSchemas.LOBBY);
            try (var leases = store.leases("i-c")) {
                if (version >= 2) {
                    assertThat(lobby.sessions()).isEqualTo(EarlierSchemas.LOBBY_SESSIONS);
                    assertThat(leases.owners()).isEqualTo(EarlierSchemas.OWNERS);
                } else {
                    assertThat(lobby).isEqualTo(StoredOccupants.NONE);
                    assertThat(leases.owners()).isEmpty();
                }
            }
            assertThat(lobby.occupants()).hasSize(version >= 5 ? 2 : 0);
            assertThat(store.listedRooms()).isEqualTo(version >= 4 ? Map.of(EarlierSchemas.LOBBY, "Lobby") : Map.of());
        }
        Map<String, List<Map<String, String>>> after;
        try (Connection c = connect(location)) {
            after = rows(c);
        }
        assertThat(after.keySet()).containsAll(before.keySet());
        for (Map.Entry<String, List<Map<String, String>>> table : before.entrySet()) {
            List<Map<String, String>> kept = new ArrayList<>();
            for (Map<String, String> row : after.get(table.getKey())) {
                Map<String, String> old = new TreeMap<>(row);
                old.keySet().retainAll(table.getValue().get(0).keySet());
                kept.add(old);
            }
            kept.sort(Comparator.comparing(Object::toString));
            assertThat(kept).as(table.getKey()).isEqualTo(table.getValue());
        }
        if (version >= 2) {
            assertThat(column(after, "reconmuc_instance", "connections")).containsExactly(version >= 3 ? "2" : "1");
            assertThat(column(after, "reconmuc_lease", "listed")).containsExactly("0", version >= 4 ? "1" : "0");
            assertThat(column(after, "reconmuc_lease", "name")).containsExactly(null, version >= 4 ? "Lobby" : null);
        }
        // Version 7: no temporary room's carried form yet, and no XEP-0437 subscriber.
        if (version >= 5) {
            assertThat(column(after, "reconmuc_room_state", "config")).isNotEmpty().containsOnlyNulls();
        }
        assertThat(after.get("reconmuc_rai_subscriber")).isEmpty();
        StoreLocation today = newLocation();
        Store.openWithoutThreads(today).close();
        assertThat(describe(location)).isEqualTo(describe(today));
        assertThat(history(location)).last().satisfies(row -> assertThat(row).startsWith(StoreSchema.LATEST + " ")
                .endsWith(" true"));
    }

    private static List<String> column(Map<String, List<Map<String, String>>> rows, String table, String column) {
        return rows.get(table).stream().map(r -> r.get(column)).toList();
    }

    /** Every row of every table of the store, by table, each row column to value (as text), in a fixed order. */
    private static Map<String, List<Map<String, String>>> rows(Connection c) throws SQLException {
        Map<String, List<Map<String, String>>> rows = new TreeMap<>();
        for (String table : tables(c)) {
            List<Map<String, String>> list = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
                ResultSetMetaData meta = rs.getMetaData();
                while (rs.next()) {
                    Map<String, String> row = new TreeMap<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        row.put(meta.getColumnLabel(i).toLowerCase(Locale.ROOT), rs.getString(i));
                    }
                    list.add(row);
                }
            }
            list.sort(Comparator.comparing(Object::toString));
            rows.put(table, list);
        }
        return rows;
    }

    /** The store's tables (its history aside), in lower case. */
    private static List<String> tables(Connection c) throws SQLException {
        return StoreSchema.tablesAndColumns(c).stream()
                .filter(n -> !n.contains(".") && !n.equals(StoreSchema.HISTORY_TABLE)).toList();
    }

    /**
     * The store's tables as the database describes them (its history aside): by table, each
     * column's name, type, size and nullability, the primary key, and each index's columns.
     */
    private static Map<String, List<String>> describe(StoreLocation location) throws SQLException {
        Map<String, List<String>> tables = new TreeMap<>();
        try (Connection c = connect(location)) {
            DatabaseMetaData meta = c.getMetaData();
            Map<String, String> names = new LinkedHashMap<>();
            try (ResultSet rs = meta.getTables(c.getCatalog(), c.getSchema(), "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    names.put(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT), rs.getString("TABLE_NAME"));
                }
            }
            for (String table : tables(c)) {
                String name = names.get(table);
                List<String> parts = new ArrayList<>();
                try (ResultSet rs = meta.getColumns(c.getCatalog(), c.getSchema(), name, "%")) {
                    while (rs.next()) {
                        parts.add("column " + rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT) + " "
                                + rs.getString("TYPE_NAME") + "(" + rs.getInt("COLUMN_SIZE") + ")"
                                + (rs.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls ? " not null" : ""));
                    }
                }
                TreeMap<Short, String> key = new TreeMap<>();
                try (ResultSet rs = meta.getPrimaryKeys(c.getCatalog(), c.getSchema(), name)) {
                    while (rs.next()) {
                        key.put(rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                    }
                }
                parts.add("primary key " + key.values());
                // Indexes by their columns: the names the database gives its own (H2 numbers them) vary.
                Map<String, TreeMap<Short, String>> indexes = new TreeMap<>();
                try (ResultSet rs = meta.getIndexInfo(c.getCatalog(), c.getSchema(), name, false, false)) {
                    while (rs.next()) {
                        String index = rs.getString("INDEX_NAME");
                        if (index != null && rs.getString("COLUMN_NAME") != null) {
                            String shown = (rs.getBoolean("NON_UNIQUE") ? "index " : "unique index ")
                                    + (index.toLowerCase(Locale.ROOT).startsWith("reconmuc_") ? index.toLowerCase(Locale.ROOT) : "");
                            indexes.computeIfAbsent(shown + "#" + index, k -> new TreeMap<>())
                                    .put(rs.getShort("ORDINAL_POSITION"), rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                        }
                    }
                }
                TreeSet<String> shownIndexes = new TreeSet<>();
                indexes.forEach((k, columns) -> shownIndexes.add(k.substring(0, k.indexOf('#')) + " " + columns.values()));
                parts.addAll(shownIndexes);
                tables.put(table, parts);
            }
        }
        return tables;
    }

    /** The schema history's versions, oldest first: "version type success" (not H2's marker of the table's making). */
    static List<String> history(StoreLocation location) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = connect(location); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"version\", \"type\", \"success\" FROM \"" + StoreSchema.HISTORY_TABLE
                     + "\" WHERE \"version\" IS NOT NULL ORDER BY \"installed_rank\"")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getBoolean(3));
            }
        }
        return rows;
    }
}
