package org.reconmuc.joom.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsStoreTest {
    @TempDir
    Path dir;

    @Test
    void theLastAccountAndRoomAreRememberedButNotThePassword() throws Exception {
        SettingsStore store = new SettingsStore(dir.resolve("joom"));
        assertThat(store.load()).isEqualTo(Settings.DEFAULTS);
        Settings s = Settings.DEFAULTS.withAccount("xmpp.example.org", 5223, "alice@example.org", false)
                .withRoom("chat@conference.example.org", "Alice").withBounds(30, 10).withTopic("movies");
        store.save(s);
        assertThat(store.load()).isEqualTo(s);
        assertThat(Files.readString(store.file())).doesNotContainIgnoringCase("password");
    }

    @Test
    void aBrokenFileGivesTheDefaultsValueByValue() throws Exception {
        SettingsStore store = new SettingsStore(dir);
        Files.writeString(store.file(), "port=eighty\nvolume=-3\nnick=Bob\n");
        Settings loaded = store.load();
        assertThat(loaded.port()).isEqualTo(5222);
        assertThat(loaded.volume()).isEqualTo(Settings.DEFAULTS.volume());
        assertThat(loaded.nick()).isEqualTo("Bob");
    }
}
