package org.reconmuc.component.store;

import org.reconmuc.component.config.StoreLocation;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/** Upgrades that keep the data on SQLite, the default, in a temporary directory. */
class SqliteStoreUpgradeTest extends StoreUpgradeContract {
    @TempDir
    Path dir;
    private final AtomicInteger databases = new AtomicInteger();

    @Override
    StoreLocation newLocation() {
        return StoreLocation.parse("sqlite:" + dir.resolve("rooms" + databases.incrementAndGet() + ".db"));
    }
}
