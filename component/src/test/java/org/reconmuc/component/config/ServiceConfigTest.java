package org.reconmuc.component.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.ReconMuc;
import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.transport.ExternalComponentConnection;

/** Issue 27 part 5: settings built one by one, and no secret anyone could read in the source. */
class ServiceConfigTest {

    @Test
    void theDefaultsHaveNoSecretAndNothingAttachesToAServerWithoutOne() {
        ServiceConfig defaults = ServiceConfig.defaults();
        assertThat(defaults.secret()).isNull();
        assertThat(defaults.hasSecret()).isFalse();
        assertThat(defaults.toString()).contains("secret=not set");
        MucService service = new MucService(defaults, Clock.systemUTC(), Runnable::run, RoomFeatures.ALL);
        assertThatThrownBy(() -> new ExternalComponentConnection(defaults, service))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no component secret").hasMessageContaining("--secret");
        assertThatThrownBy(() -> ReconMuc.start(defaults)).hasMessageContaining("no component secret");
        assertThatThrownBy(() -> ServiceConfig.builder().secret("").build()).hasMessageContaining("secret must not be empty");
    }

    @Test
    void theBuilderStartsFromTheDefaultsTheLoaderDocuments() throws Exception {
        ServiceConfig loaded = ConfigLoader.load(new String[] {"--secret", "s", "--store", "none"}, java.util.Map.of());
        assertThat(ServiceConfig.builder().secret("s").build()).isEqualTo(loaded);
    }

    @Test
    void theBuilderChangesOnlyWhatItIsTold() {
        ServiceConfig c = ServiceConfig.builder().server("xmpp.example", 5348).domain("muc.example").secret("k")
                .historySize(7).messageRate(2.5, 4).reconnectMaxBackoff(Duration.ofSeconds(3))
                .roomCreation(RoomCreation.parse("anyone", "", 2)).build();
        assertThat(c.serverHost()).isEqualTo("xmpp.example");
        assertThat(c.serverPort()).isEqualTo(5348);
        assertThat(c.secret()).isEqualTo("k");
        assertThat(c.historySize()).isEqualTo(7);
        assertThat(c.messagesPerSecond()).isEqualTo(2.5);
        assertThat(c.messageBurst()).isEqualTo(4);
        assertThat(c.roomCreation().maxRoomsPerUser()).isEqualTo(2);
        assertThat(c.maxOccupantsPerRoom()).isEqualTo(ServiceConfig.defaults().maxOccupantsPerRoom());
        ServiceConfig eight = c.toBuilder().historySize(8).build();
        assertThat(eight.historySize()).isEqualTo(8);
        assertThat(eight).isNotEqualTo(c);
        assertThat(eight.toBuilder().historySize(7).build()).as("nothing else changed").isEqualTo(c);
        assertThatThrownBy(() -> ServiceConfig.builder().historySize(-1).build()).hasMessageContaining("history-size");
    }
}
