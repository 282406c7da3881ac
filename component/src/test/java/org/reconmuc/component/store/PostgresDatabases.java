package org.reconmuc.component.store;

import org.reconmuc.component.config.StoreLocation;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.reconmuc.servers.PostgresServer;

/**
 * A real PostgreSQL (Debian's package) for a test class, started as a local process on a free
 * loopback port before its first test and stopped after its last; each database a new one in it.
 */
final class PostgresDatabases implements BeforeAllCallback, AfterAllCallback {
    private final String prefix;
    private final AtomicInteger databases = new AtomicInteger();
    private PostgresServer postgres;

    PostgresDatabases(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        postgres = PostgresServer.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (postgres != null) {
            postgres.close();
        }
    }

    /** A new, empty database. */
    StoreLocation newLocation() throws SQLException {
        return StoreLocation.parse(postgres.newDatabase(prefix + databases.incrementAndGet()));
    }
}
