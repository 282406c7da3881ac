package org.reconmuc.component.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.reconmuc.component.config.StoreLocation;
import org.reconmuc.servers.PostgresServer;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The store contract on a real PostgreSQL ({@link PostgresDatabases}); each test gets a database of its own. */
class PostgresStoreIT extends StoreContract {
    @RegisterExtension
    static final PostgresDatabases POSTGRES = new PostgresDatabases("store");
    private StoreLocation location;

    @Override
    StoreLocation location() throws Exception {
        if (location == null) {
            location = POSTGRES.newLocation();
        }
        return location;
    }
}
