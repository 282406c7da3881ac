package org.reconmuc.component.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

import org.reconmuc.component.config.StoreLocation;
/** The store contract on H2 (the benchmarked alternative), in a temporary directory. */
class H2StoreTest extends StoreContract {
    @TempDir
    Path dir;

    @Override
    StoreLocation location() {
        return StoreLocation.parse("h2:" + dir.resolve("rooms"));
    }
}
