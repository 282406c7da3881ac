package org.reconmuc.component.store;

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
