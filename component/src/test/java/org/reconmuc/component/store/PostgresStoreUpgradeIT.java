package org.reconmuc.component.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.reconmuc.servers.PostgresServer;

/**
 * Upgrades that keep the data on a real PostgreSQL (Debian's package), started as a local process
 * on a free loopback port; each database a new one in it.
 */
class PostgresStoreUpgradeIT extends StoreUpgradeContract {
    private static PostgresServer postgres;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = PostgresServer.start();
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Override
    StoreLocation newLocation() throws Exception {
        String db = "upgrade" + DATABASES.incrementAndGet();
        try (Connection c = DriverManager.getConnection(postgres.jdbcUrl()); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + db);
        }
        return StoreLocation.parse(postgres.jdbcUrl().replace("/postgres?", "/" + db + "?"));
    }
}
