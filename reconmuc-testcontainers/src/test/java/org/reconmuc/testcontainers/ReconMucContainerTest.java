package org.reconmuc.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What ReconMucContainer hands the image, without starting it (no engine needed). */
class ReconMucContainerTest {

    @Test
    void theServerTheDomainTheSecretAndAnySettingBecomeTheImagesVariables() {
        try (ReconMucContainer muc = new ReconMucContainer("reconmuc:test")
                .withXmppServer("xmpp", 5347).withDomain("muc.verona.test").withSecret("s3cret")
                .withSetting("history-size", "20")) {
            assertThat(muc.getEnvMap()).containsEntry("RECONMUC_SERVER_HOST", "xmpp")
                    .containsEntry("RECONMUC_SERVER_PORT", "5347")
                    .containsEntry("RECONMUC_DOMAIN", "muc.verona.test")
                    .containsEntry("RECONMUC_SECRET", "s3cret")
                    .containsEntry("RECONMUC_HISTORY_SIZE", "20");
            assertThat(muc.roomAddress("balcony")).isEqualTo("balcony@muc.verona.test");
        }
    }

    @Test
    void aSettingIsNamedByItsKeyAndThePortIsAPort() {
        try (ReconMucContainer muc = new ReconMucContainer("reconmuc:test")) {
            assertThatThrownBy(() -> muc.withSetting("RECONMUC_HISTORY_SIZE", "20"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("history-size");
            assertThatThrownBy(() -> muc.withXmppServer("xmpp", 0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> muc.withStoreVolume("../etc")).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
