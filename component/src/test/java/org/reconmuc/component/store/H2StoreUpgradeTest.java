package org.reconmuc.component.store;

import org.reconmuc.component.config.StoreLocation;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/** Upgrades that keep the data on H2, in a temporary directory. */
class H2StoreUpgradeTest extends StoreUpgradeContract {
    @TempDir
    Path dir;
    private final AtomicInteger databases = new AtomicInteger();

    @Override
    StoreLocation newLocation() {
        return StoreLocation.parse("h2:" + dir.resolve("rooms" + databases.incrementAndGet()));
    }
}
