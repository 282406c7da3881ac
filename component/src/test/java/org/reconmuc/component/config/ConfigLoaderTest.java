package org.reconmuc.component.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
class ConfigLoaderTest {

    @Test
    void defaultsApplyWithOnlyTheSecretGiven() throws Exception {
        ServiceConfig c = ConfigLoader.load(new String[] {"--secret", "s"}, Map.of());
        assertThat(c.serverPort()).isEqualTo(5347);
        assertThat(c.domain()).isEqualTo("reconmuc.localhost");
        assertThat(c.historySize()).isEqualTo(100);
        assertThat(c.maxPendingStanzas()).isEqualTo(ServiceConfig.DEFAULT_MAX_PENDING_STANZAS);
        assertThat(c.metricsPort()).as("metrics are off by default").isZero();
        assertThat(c.roomLocking()).as("new rooms locked until configured").isEqualTo(ServiceConfig.RoomLocking.DEFAULT);
    }

    @Test
    void roomLockingCanBeTurnedOffOrGivenAnotherTimeout() throws Exception {
        assertThat(ConfigLoader.load(new String[] {"--secret", "s", "--lock-new-rooms", "false"}, Map.of())
                .roomLocking().enabled()).isFalse();
        assertThat(ConfigLoader.load(new String[] {"--secret", "s"}, Map.of("RECONMUC_ROOM_LOCK_TIMEOUT_SECONDS", "60"))
                .roomLocking().timeout()).hasSeconds(60);
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--room-lock-timeout-seconds", "0"}, Map.of()))
                .hasMessageContaining("room-lock-timeout-seconds");
    }

    @Test
    void bigRoomsLimitPresenceAbove500OccupantsAndZeroMeansNever() throws Exception {
        assertThat(ConfigLoader.load(new String[] {"--secret", "s"}, Map.of()).largeRoomOccupants()).isEqualTo(500);
        assertThat(ConfigLoader.load(new String[] {"--secret", "s", "--large-room-occupants", "0"}, Map.of())
                .largeRoomOccupants()).isZero();
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--large-room-occupants", "-1"}, Map.of()))
                .hasMessageContaining("large-room-occupants");
    }

    @Test
    void aRoomsBudgetOfMessagesAndPresencesIsOffByDefaultAndItsBoundsAreChecked() throws Exception {
        assertThat(ConfigLoader.load(new String[] {"--secret", "s"}, Map.of()).roomEventRate().limited()).isFalse();
        ServiceConfig c = ConfigLoader.load(new String[] {"--secret", "s", "--room-events-per-second", "0.5"},
                Map.of("RECONMUC_ROOM_EVENTS_BURST", "6"));
        assertThat(c.roomEventRate()).isEqualTo(new ServiceConfig.RoomEventRate(0.5, 6));
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--room-events-per-second", "-1"}, Map.of()))
                .hasMessageContaining("room-events-per-second must be >= 0");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--room-events-burst", "0"}, Map.of()))
                .hasMessageContaining("room-events-burst must be >= 1");
    }

    @Test
    void theSecretHasNoDefaultAndTheErrorSaysWhereToGiveIt(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> ConfigLoader.load(new String[0], Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("no component secret")
                .hasMessageContaining("--secret")
                .hasMessageContaining("RECONMUC_SECRET");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret="}, Map.of()))
                .hasMessageContaining("no component secret");
        assertThat(ConfigLoader.load(new String[0], Map.of("RECONMUC_SECRET", "from-env")).secret()).isEqualTo("from-env");
        Path file = dir.resolve("reconmuc.properties");
        Files.writeString(file, "secret=from-file\n");
        assertThat(ConfigLoader.load(new String[] {"--config", file.toString()}, Map.of()).secret()).isEqualTo("from-file");
        assertThat(ConfigLoader.help()).contains("none: required");
    }

    @Test
    void flagsBeatEnvironmentWhichBeatsTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("reconmuc.properties");
        Files.writeString(file, "server-port=1111\nhistory-size=7\ndomain=file.example\n");
        ServiceConfig c = ConfigLoader.load(
                new String[] {"--config", file.toString(), "--server-port=3333", "--secret", "s"},
                Map.of("RECONMUC_SERVER_PORT", "2222", "RECONMUC_DOMAIN", "env.example"));
        assertThat(c.serverPort()).isEqualTo(3333);
        assertThat(c.domain()).isEqualTo("env.example");
        assertThat(c.historySize()).isEqualTo(7);
    }

    @Test
    void badInputIsExplained() {
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--server-port", "http", "--secret", "s"}, Map.of()))
                .hasMessageContaining("server-port");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--metrics-port", "70000", "--secret", "s"}, Map.of()))
                .hasMessageContaining("metrics-port");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--colour", "red"}, Map.of()))
                .hasMessageContaining("unknown option --colour");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--history-size", "-1", "--secret", "s"}, Map.of()))
                .hasMessageContaining("history-size");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--domain"}, Map.of()))
                .hasMessageContaining("needs a value");
    }

    @Test
    void helpNamesEveryOptionAndItsVariable() {
        String help = ConfigLoader.help();
        for (ConfigLoader.Option o : ConfigLoader.OPTIONS) {
            assertThat(help).contains("--" + o.key()).contains(o.environmentVariable());
        }
        assertThat(ServiceConfig.defaults().toString()).doesNotContain("s3cret");
    }

    @Test
    void theStoreIsEmbeddedByDefaultAndComesFromAFlagAVariableOrTheFile(@TempDir Path dir) throws Exception {
        ServiceConfig defaults = ConfigLoader.load(new String[] {"--secret", "s"}, Map.of());
        assertThat(defaults.storeLocation().kind()).isEqualTo(StoreLocation.Kind.SQLITE);
        assertThat(defaults.roomDefaultPersistent()).isFalse();
        assertThat(ConfigLoader.load(new String[] {"--secret", "s"}, Map.of("RECONMUC_STORE", "none")).storeLocation())
                .isEqualTo(StoreLocation.NONE);
        Path file = dir.resolve("reconmuc.properties");
        Files.writeString(file, "store=jdbc:postgresql://db:5432/muc?user=muc&password=pw\nroom-default-persistent=true\n");
        ServiceConfig fromFile = ConfigLoader.load(new String[] {"--config", file.toString(), "--secret", "s"}, Map.of());
        assertThat(fromFile.storeLocation().kind()).isEqualTo(StoreLocation.Kind.POSTGRESQL);
        assertThat(fromFile.roomDefaultPersistent()).isTrue();
        assertThat(fromFile.toString()).doesNotContain("pw").contains("password=***");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--store", "mongodb://x"}, Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class).hasMessageContaining("store must be 'none', 'sqlite:PATH'");
    }

    @Test
    void theRequirementSetsAndTheAbsentRoomsAreBoundedBySettings() throws Exception {
        ServiceConfig defaults = ConfigLoader.load(new String[] {"--secret", "s"}, Map.of());
        assertThat(defaults.requirementsCacheBytes()).isEqualTo(4L * 1024 * 1024);
        assertThat(defaults.absentRoomsRemembered()).isEqualTo(10_000);
        ServiceConfig set = ConfigLoader.load(new String[] {"--secret", "s", "--requirements-cache-bytes", "65536"},
                Map.of("RECONMUC_ABSENT_ROOMS_REMEMBERED", "50"));
        assertThat(set.requirementsCacheBytes()).isEqualTo(65_536);
        assertThat(set.absentRoomsRemembered()).isEqualTo(50);
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--requirements-cache-bytes", "-1"}, Map.of()))
                .hasMessageContaining("requirements-cache-bytes must be >= 0");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--absent-rooms-remembered", "many"}, Map.of()))
                .hasMessageContaining("absent-rooms-remembered must be a whole number");
        assertThat(ConfigLoader.help()).contains("--requirements-cache-bytes").contains("--absent-rooms-remembered");
    }

    @Test
    void theActivitySubscribersAreBoundedAsProsodyBoundsThem() throws Exception {
        assertThat(ConfigLoader.load(new String[] {"--secret", "s"}, Map.of()).raiMaxSubscribers()).isEqualTo(1024);
        assertThat(ConfigLoader.load(new String[] {"--secret", "s"}, Map.of("RECONMUC_RAI_MAX_SUBSCRIBERS", "10"))
                .raiMaxSubscribers()).isEqualTo(10);
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--rai-max-subscribers", "-1"}, Map.of()))
                .hasMessageContaining("rai-max-subscribers must be >= 0");
        assertThat(ConfigLoader.help()).contains("--rai-max-subscribers").contains("muc_rai_max_subscribers");
    }

    @Test
    void aBlockListIsFollowedOnlyWhenNamedAndRoomAvatarsAreBounded() throws Exception {
        ServiceConfig defaults = ConfigLoader.load(new String[] {"--secret", "s"}, Map.of());
        assertThat(defaults.rtblService()).isNull();
        assertThat(defaults.rtblNode()).isEqualTo("muc_bans_sha256");
        assertThat(defaults.maxAvatarBytes()).isEqualTo(128 * 1024);
        ServiceConfig set = ConfigLoader.load(new String[] {"--secret", "s", "--rtbl-service", "xmppbl.org",
                "--max-avatar-bytes", "0"}, Map.of("RECONMUC_RTBL_NODE", "other_node"));
        assertThat(set.rtblService()).isEqualTo("xmppbl.org");
        assertThat(set.rtblNode()).isEqualTo("other_node");
        assertThat(set.maxAvatarBytes()).isZero();
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--rtbl-service", "a@b@c"}, Map.of()))
                .hasMessageContaining("rtbl-service must be the JID of a pubsub service, not 'a@b@c'");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--rtbl-node", " "}, Map.of()))
                .hasMessageContaining("rtbl-node must name a pubsub node");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--max-avatar-bytes", "-1"}, Map.of()))
                .hasMessageContaining("max-avatar-bytes must be >= 0");
    }

    @Test
    void aMalformedStoreIsRefusedWithoutItsPassword() {
        // "jdbc:postgres" is not "jdbc:postgresql": the error quotes the setting, its passwords masked.
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--store",
                "jdbc:postgres://db/muc?user=muc&password=SECRET"}, Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("store must be").hasMessageContaining("password=***").hasMessageNotContaining("SECRET");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--store",
                "postgresql://muc:SECRET@db/muc"}, Map.of()))
                .hasMessageContaining("//muc:***@db").hasMessageNotContaining("SECRET");
        assertThatThrownBy(() -> ConfigLoader.loadCluster(new String[] {"--secret", "s", "--instance", "a", "--store",
                "jdbc:h2x:/tmp/x;PASSWORD=SECRET"}, Map.of()))
                .hasMessageContaining("PASSWORD=***").hasMessageNotContaining("SECRET");
    }

    @Test
    void theSecretComesFromTheFirstLineOfASecretFileNeverBothWays(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("secret");
        Files.writeString(file, "from-the-file\nsecond line ignored\n");
        assertThat(ConfigLoader.load(new String[] {"--secret-file", file.toString()}, Map.of()).secret())
                .isEqualTo("from-the-file");
        assertThat(ConfigLoader.load(new String[0], Map.of("RECONMUC_SECRET_FILE", file.toString())).secret())
                .isEqualTo("from-the-file");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret-file", file.toString()},
                Map.of("RECONMUC_SECRET", "other")))
                .hasMessageContaining("secret or secret-file, not both");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret-file", dir.resolve("missing").toString()}, Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("cannot read the secret file " + dir.resolve("missing"));
        Files.writeString(dir.resolve("empty"), "");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret-file", dir.resolve("empty").toString()}, Map.of()))
                .hasMessageContaining("is empty");
        assertThat(ConfigLoader.help()).contains("--secret-file").contains("RECONMUC_SECRET_FILE");
    }

    @Test
    void aMissingSecretFileStopsTheComponentWithExitCodeTwoAndSaysWhich(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("no-such-secret");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "org.reconmuc.component.Main",
                "--secret-file", missing.toString(), "--store", "none")
                .redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("RECONMUC_"));
        Process p = builder.start();
        assertThat(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(output).contains("cannot read the secret file " + missing);
    }

    @Test
    void aloneByDefaultAndSeveralInstancesOnlyWithASharedStore() throws Exception {
        assertThat(ConfigLoader.loadCluster(new String[] {"--secret", "s"}, Map.of())).isEqualTo(ClusterConfig.ALONE);
        ClusterConfig c = ConfigLoader.loadCluster(new String[] {"--secret", "s", "--instance", "muc-1", "--connections", "4",
                "--store", "jdbc:postgresql://db:5432/muc?user=u"}, Map.of("RECONMUC_LEASE_SECONDS", "3"));
        assertThat(c).isEqualTo(new ClusterConfig("muc-1", 4, java.time.Duration.ofSeconds(3)));
        assertThatThrownBy(() -> ConfigLoader.loadCluster(new String[] {"--secret", "s", "--instance", "muc-1",
                "--store", "none"}, Map.of()))
                .hasMessageContaining("--instance needs a store shared by the instances");
        assertThatThrownBy(() -> ConfigLoader.loadCluster(new String[] {"--secret", "s", "--instance", "a b"}, Map.of()))
                .hasMessageContaining("instance must be");
        assertThatThrownBy(() -> ConfigLoader.loadCluster(new String[] {"--secret", "s", "--connections", "0"}, Map.of()))
                .hasMessageContaining("connections must be in 1..1000");
    }

    @Test
    void anyoneMayCreateRoomsByDefaultAtMostTwentyEach() throws Exception {
        RoomCreation c = ConfigLoader.load(new String[] {"--secret", "s"}, Map.of()).roomCreation();
        assertThat(c).isEqualTo(RoomCreation.DEFAULT);
        assertThat(c.creators()).containsExactly("anyone");
        assertThat(c.admins()).isEmpty();
        assertThat(c.maxRoomsPerUser()).isEqualTo(20);
    }

    @Test
    void whoMayCreateRoomsAndHowManyComeFromFlagsVariablesOrTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("reconmuc.properties");
        Files.writeString(file, "admins=Boss@Example.org, nurse@capulet.lit\n");
        RoomCreation c = ConfigLoader.load(new String[] {"--config", file.toString(), "--secret", "s",
                "--room-creators", "local, Montague.LIT alice@Example.org"},
                Map.of("RECONMUC_MAX_ROOMS_PER_USER", "5")).roomCreation();
        assertThat(c.creators()).containsExactly("local", "montague.lit", "alice@example.org");
        assertThat(c.admins()).containsExactlyInAnyOrder("boss@example.org", "nurse@capulet.lit");
        assertThat(c.maxRoomsPerUser()).isEqualTo(5);
        assertThat(ConfigLoader.load(new String[] {"--secret", "s", "--room-creators", "admins", "--max-rooms-per-user",
                "0"}, Map.of()).roomCreation().describe()).contains("room-creators=admins", "max-rooms-per-user=no limit");
    }

    @Test
    void badRoomCreationSettingsAreExplained() {
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--max-rooms-per-user", "-1"}, Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("max-rooms-per-user must be >= 0 (0: no limit)");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--max-rooms-per-user", "many"}, Map.of()))
                .hasMessageContaining("max-rooms-per-user must be a whole number");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--room-creators", "anyone,local"}, Map.of()))
                .hasMessageContaining("'anyone' stands alone");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--room-creators= , "}, Map.of()))
                .hasMessageContaining("room-creators must not be empty");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--room-creators", "alice@example.org/phone"},
                Map.of())).hasMessageContaining("has a resource");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--admins", "example.org"}, Map.of()))
                .hasMessageContaining("admins: 'example.org' is not a bare JID");
        assertThatThrownBy(() -> ConfigLoader.load(new String[] {"--secret", "s", "--room-creators", "a@@b"}, Map.of()))
                .hasMessageContaining("room-creators: 'a@@b'");
    }
}
