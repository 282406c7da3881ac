package org.reconmuc.component.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

import org.reconmuc.component.config.StoreLocation;
/** The store contract on SQLite, the default, in a temporary directory. */
class SqliteStoreTest extends StoreContract {
    @TempDir
    Path dir;

    @Override
    StoreLocation location() {
        return StoreLocation.parse("sqlite:" + dir.resolve("data/rooms.db"));
    }
}
