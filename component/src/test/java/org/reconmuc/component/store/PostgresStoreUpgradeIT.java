package org.reconmuc.component.store;

import org.reconmuc.component.config.StoreLocation;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Upgrades that keep the data on a real PostgreSQL ({@link PostgresDatabases}). Here too: a store
 * opening while another instance has the turn waits for it.
 */
class PostgresStoreUpgradeIT extends StoreUpgradeContract {
    @RegisterExtension
    static final PostgresDatabases POSTGRES = new PostgresDatabases("upgrade");

    @Override
    StoreLocation newLocation() throws Exception {
        return POSTGRES.newLocation();
    }

    @Test
    void aStoreOpeningWhileAnotherInstanceHasTheTurnWaitsAndFindsWhatItMade() throws Exception {
        StoreLocation location = newLocation();
        ExecutorService opener = Executors.newSingleThreadExecutor();
        try (Connection other = connect(location)) {
            assertThat(InstanceLock.tryLock(other, StoreSchema.TURN)).isTrue();
            Future<Store> opening = opener.submit(() -> Store.openWithoutThreads(location));
            awaitWaitingForTheTurn(other);
            // Meanwhile the other instance, of the version before migrations, makes its tables and writes.
            EarlierSchemas.make(other, EarlierSchemas.LAST, location.kind().textType());
            EarlierSchemas.fill(other, EarlierSchemas.LAST);
            InstanceLock.unlock(other, StoreSchema.TURN);
            try (Store store = opening.get(60, TimeUnit.SECONDS)) {
                assertThat(store.loadRooms(10)).hasSize(2);
            }
        } finally {
            opener.shutdownNow();
        }
        assertThat(history(location)).first().isEqualTo(EarlierSchemas.LAST + " BASELINE true");
    }

    /** Until another session of this database waits for an advisory lock (pg_locks). */
    private static void awaitWaitingForTheTurn(Connection c) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_locks"
                    + " WHERE locktype = 'advisory' AND NOT granted"
                    + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")) {
                rs.next();
                if (rs.getInt(1) > 0) {
                    return;
                }
            }
            assertThat(System.nanoTime()).as("a store waiting for the turn").isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
