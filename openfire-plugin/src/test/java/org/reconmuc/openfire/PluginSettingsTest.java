package org.reconmuc.openfire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.config.ConfigLoader.ConfigException;
import org.reconmuc.component.config.ServiceConfig;

class PluginSettingsTest {

    private static PluginSettings.Read read(Map<String, String> properties) throws ConfigException {
        return PluginSettings.read("example.org", properties::get, properties.keySet(), "sqlite:/openfire/reconmuc/rooms.db");
    }

    @Test
    void withNothingSetTheServiceIsReconmucUnderTheServersDomainWithTheDefaults() throws Exception {
        PluginSettings.Read read = read(Map.of());
        assertThat(read.subdomain()).isEqualTo("reconmuc");
        assertThat(read.config().domain()).isEqualTo("reconmuc.example.org");
        assertThat(read.config().historySize()).isEqualTo(100);
        assertThat(read.config().roomLocking()).isEqualTo(ServiceConfig.RoomLocking.DEFAULT);
        assertThat(read.config().store()).as("persistent rooms kept under Openfire's home").isEqualTo("sqlite:/openfire/reconmuc/rooms.db");
        assertThat(read.ignored()).isEmpty();
    }

    @Test
    void everyMucSettingOfTheComponentIsAPropertyOfTheSameName() throws Exception {
        ServiceConfig wanted = ServiceConfig.defaults().toBuilder().historySize(7).maxFilterEntries(3).maxTimeSeconds(60)
                .presencesAndIqsPerSecond(2.5).presenceAndIqBurst(4).occupantIds(false)
                .roomLocking(new ServiceConfig.RoomLocking(false, Duration.ofSeconds(30)))
                .store("h2:/var/lib/openfire/rooms").roomDefaultPersistent(true)
                .roomCreation(new org.reconmuc.component.config.RoomCreation(java.util.List.of("local", "capulet.lit"),
                        java.util.Set.of("nurse@capulet.lit"), 3)).build();
        Map<String, String> properties = new HashMap<>(PluginProperties.of(wanted));
        properties.put(PluginSettings.SUBDOMAIN, "chat");
        ServiceConfig read = read(properties).config();
        assertThat(read.domain()).isEqualTo("chat.example.org");
        assertThat(read).usingRecursiveComparison()
                .ignoringFields("serverHost", "serverPort", "domain", "secret", "keepaliveInterval",
                        "reconnectMaxBackoff", "maxQueuedChars", "metricsPort")
                .isEqualTo(wanted);
    }

    @Test
    void badValuesStopThePluginWithTheReasonAndUnknownNamesAreReported() throws Exception {
        assertThatThrownBy(() -> read(Map.of("reconmuc.history-size", "lots")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("history-size");
        assertThatThrownBy(() -> read(Map.of(PluginSettings.SUBDOMAIN, "muc.example")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("one DNS label");
        assertThat(read(Map.of("reconmuc.histroy-size", "5", "reconmuc.secret", "x")).ignored())
                .containsExactlyInAnyOrder("reconmuc.histroy-size", "reconmuc.secret");
    }
}
