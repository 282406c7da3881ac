package org.reconmuc.component.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.reconmuc.component.config.StoreLocation;
import org.reconmuc.servers.PostgresServer;

/**
 * The store contract on a real PostgreSQL (Debian's package), started as a local process on a
 * free loopback port; each test gets a database of its own.
 */
class PostgresStoreIT extends StoreContract {
    private static PostgresServer postgres;
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private String url;

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
    StoreLocation location() throws Exception {
        if (url == null) {
            String db = "store" + DATABASES.incrementAndGet();
            try (Connection c = DriverManager.getConnection(postgres.jdbcUrl()); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + db);
            }
            url = postgres.jdbcUrl().replace("/postgres?", "/" + db + "?");
        }
        return StoreLocation.parse(url);
    }
}
