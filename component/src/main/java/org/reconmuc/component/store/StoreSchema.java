package org.reconmuc.component.store;

import org.reconmuc.component.config.StoreLocation;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.reconmuc.component.config.StoreLocation.Kind;
import org.slf4j.LoggerFactory;

/**
 * The store's tables, by version: Flyway's migrations in {@code migration/} beside this class, one
 * per change of the schema, brought up to date whenever a store opens. Flyway keeps what it ran in
 * {@value #HISTORY_TABLE}.
 *
 * <p>A database made before the migrations existed (the tables were made with {@code CREATE TABLE
 * IF NOT EXISTS}, and never changed after) has no history: it is recognised by the tables and
 * columns it has ({@link #VERSIONS_WITHOUT_HISTORY}) and adopted at that version (Flyway's baseline),
 * so only the migrations after it run. A database without any of the store's tables gets them all.
 *
 * <p>Several instances on one PostgreSQL open it at once: an advisory lock held from the look at
 * the tables to the last migration makes them take turns, so that one decides and migrates and the
 * others find it done (Flyway's own lock covers only its migrations, not the adoption). SQLite and
 * H2 serve one process; in it, stores opening take turns too.
 */
final class StoreSchema {
    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(StoreSchema.class);

    static final String HISTORY_TABLE = "reconmuc_schema_history";
    /** The version of the last migration ({@code StoreUpgradeContract} checks it is): a database at it needs no Flyway. */
    static final int LATEST = 7;
    /** One folder, named exactly: Flyway looks nowhere else on the class path. */
    private static final String LOCATION = "classpath:org/reconmuc/component/store/migration";
    /** The advisory lock of the turn to look at the tables and migrate them (PostgreSQL). */
    static final long TURN = InstanceLock.advisoryKey("reconmuc-schema");
    private static final int LOCK_WAIT_SECONDS = 60;
    private static final Object EMBEDDED_TURN = new Object();

    /**
     * What each version's migration made, a table or table.column, for the versions a database
     * may be at without history (those made before the migrations: later ones always have it).
     */
    static final List<List<String>> VERSIONS_WITHOUT_HISTORY = List.of(
            List.of("reconmuc_room", "reconmuc_affiliation", "reconmuc_registration", "reconmuc_message"),
            List.of("reconmuc_lease", "reconmuc_instance", "reconmuc_occupant"),
            List.of("reconmuc_instance.connections"),
            List.of("reconmuc_lease.name", "reconmuc_lease.listed"),
            List.of("reconmuc_occupant_state", "reconmuc_room_state"),
            List.of("reconmuc_handover"));

    private StoreSchema() {
    }

    /**
     * Brings the tables of the database {@code c} is connected to up to date; Flyway works on
     * connections of its own from {@code connector}.
     */
    static void migrate(Connection c, Kind kind, RoomLeases.Connector connector) throws SQLException {
        if (atLatest(c)) {
            return;   // the common start: Flyway (some 400 ms of loading and checking) is not needed
        }
        if (kind != Kind.POSTGRESQL) {
            synchronized (EMBEDDED_TURN) {
                migrateInTurn(c, kind, connector);
            }
            return;
        }
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);   // the lock is the session's, whatever transactions run meanwhile
        try (PreparedStatement p = c.prepareStatement("SELECT pg_advisory_lock(?)")) {
            p.setQueryTimeout(LOCK_WAIT_SECONDS);
            p.setLong(1, TURN);
            p.executeQuery().close();
        } catch (SQLException e) {
            throw new SQLException("another instance has been bringing the store's tables up to date for "
                    + LOCK_WAIT_SECONDS + " s, or the turn could not be taken: " + e.getMessage(), e);
        }
        try {
            migrateInTurn(c, kind, connector);
        } finally {
            try {
                InstanceLock.unlock(c, TURN);
                c.setAutoCommit(autoCommit);
            } catch (SQLException e) {
                LOG.debug("the schema's turn is given back with the session: {}", e.getMessage());
            }
        }
    }

    private static void migrateInTurn(Connection c, Kind kind, RoomLeases.Connector connector) throws SQLException {
        Set<String> found = tablesAndColumns(c);
        FluentConfiguration config = flyway(kind, connector);
        String adopted = null;
        if (!found.contains(HISTORY_TABLE)) {
            adopted = Integer.toString(versionWithoutHistory(found));
            // An empty database is not adopted (Flyway makes every table); one with tables of
            // others but none of ours is adopted at 0, below the first version.
            config.baselineOnMigrate(true).baselineVersion(adopted)
                    .baselineDescription("tables made before versioned migrations");
        }
        MigrateResult result;
        try {
            result = config.load().migrate();
        } catch (FlywayException e) {
            throw new SQLException("cannot bring the store's tables up to date: " + e.getMessage(), e);
        }
        if (result.initialSchemaVersion == null && adopted != null && found.isEmpty()) {
            LOG.info("store tables made, at version {}", result.targetSchemaVersion);
        } else if (result.migrationsExecuted > 0) {
            LOG.info("store tables upgraded from version {} to {}{}", adopted != null ? adopted : result.initialSchemaVersion,
                    result.targetSchemaVersion, adopted != null ? " (found without history: adopted at version " + adopted + ")" : "");
        } else if (adopted != null) {
            LOG.info("store tables found without history, at version {}: adopted", adopted);
        }
    }

    /**
     * Whether the history says the tables are at {@link #LATEST} (or a later version's) and no
     * migration failed. A history written as a migration runs shows it only once it is done.
     */
    static boolean atLatest(Connection c) throws SQLException {
        try (ResultSet rs = c.getMetaData().getTables(c.getCatalog(), c.getSchema(), HISTORY_TABLE, new String[] {"TABLE"})) {
            if (!rs.next()) {
                return false;
            }
        }
        BigDecimal highest = BigDecimal.ZERO;
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"version\", \"success\" FROM \"" + HISTORY_TABLE + "\"")) {
            while (rs.next()) {
                String version = rs.getString(1);
                if (!rs.getBoolean(2)) {
                    return false;
                }
                if (version != null) {
                    try {
                        highest = highest.max(new BigDecimal(version));
                    } catch (NumberFormatException e) {
                        return false;   // a version such as 7.1.2: Flyway reads it
                    }
                }
            }
        }
        return highest.compareTo(BigDecimal.valueOf(LATEST)) >= 0;
    }

    /** Flyway on the store's migrations, on connections from {@code connector}. */
    static FluentConfiguration flyway(Kind kind, RoomLeases.Connector connector) {
        return Flyway.configure(StoreSchema.class.getClassLoader())
                .dataSource(new Connections(connector))
                .locations(LOCATION)
                .failOnMissingLocations(true)
                .table(HISTORY_TABLE)
                .placeholders(Map.of("text", kind.textType()))
                .loggers("slf4j");
    }

    /**
     * The version a database without history is at: the last of {@link #VERSIONS_WITHOUT_HISTORY}
     * whose tables and columns it has, all earlier ones with them and no later one's.
     */
    static int versionWithoutHistory(Set<String> found) throws SQLException {
        int version = 0;
        for (int v = 1; v <= VERSIONS_WITHOUT_HISTORY.size(); v++) {
            List<String> made = VERSIONS_WITHOUT_HISTORY.get(v - 1);
            List<String> there = made.stream().filter(found::contains).toList();
            if (there.size() == made.size() && version == v - 1) {
                version = v;
            } else if (!there.isEmpty()) {
                throw new SQLException("the store's tables are of no version ReConMUC made: they are all of version "
                        + version + " and, of version " + v + "'s " + made + ", " + there + " (found " + found + ")");
            }
        }
        return version;
    }

    /**
     * The store's tables ({@code reconmuc_…}) in the connection's schema, and their columns as
     * {@code table.column}, in lower case.
     */
    static Set<String> tablesAndColumns(Connection c) throws SQLException {
        DatabaseMetaData meta = c.getMetaData();
        String catalog = c.getCatalog();
        String schema = c.getSchema();
        List<String> tables = new ArrayList<>();
        try (ResultSet rs = meta.getTables(catalog, schema, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                String table = rs.getString("TABLE_NAME");
                if (table.toLowerCase(Locale.ROOT).startsWith("reconmuc_")) {
                    tables.add(table);
                }
            }
        }
        Set<String> found = new TreeSet<>();
        for (String table : tables) {
            String name = table.toLowerCase(Locale.ROOT);
            found.add(name);
            try (ResultSet rs = meta.getColumns(catalog, schema, table, "%")) {
                while (rs.next()) {
                    found.add(name + "." + rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                }
            }
        }
        return found;
    }

    /** Flyway's connections: new ones from the store's connector (the same driver and settings), closed by Flyway. */
    private record Connections(RoomLeases.Connector connector) implements DataSource {
        @Override
        public Connection getConnection() throws SQLException {
            return connector.connect();
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return connector.connect();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    }
}
