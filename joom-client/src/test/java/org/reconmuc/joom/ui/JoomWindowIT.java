package org.reconmuc.joom.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.reconmuc.joom.testing.LightBots;
import org.reconmuc.joom.testing.LiveRooms;
import org.reconmuc.joom.testing.Xvfb;

/**
 * The real Joom window under Xvfb (its own display, its own JVM: the X display is chosen before
 * the toolkit starts), against a real Prosody with ReConMUC: two Joom windows and a plain Smack
 * client chat in one room ({@link JoomWindowDriver} plays and checks the conversation). The
 * screenshots are the test's artefacts, in {@code target/joom-screenshots/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JoomWindowIT {
    private static final Path SHOTS = Path.of("target", "joom-screenshots");
    /** The big room's crowd: a few hundred, so that a Joom told "big is past 100" lists it in three pages. */
    private static final int BOTS = 250;

    private LiveRooms live;

    @BeforeAll
    void start() throws Exception {
        live = LiveRooms.start("it-joom-window");
    }

    @AfterAll
    void stop() {
        if (live != null) {
            live.close();
        }
    }

    /** Runs the driver in {@code mode} on a fresh Xvfb screen in a new room; returns its output. */
    private String drive(String mode, int width, int height, String... jvmOptions) throws Exception {
        return drive(mode, live.newRoom("joom-window-" + mode), width, height, jvmOptions);
    }

    /** Runs the driver in {@code mode} on a fresh Xvfb screen in {@code room}; returns its output. */
    private String drive(String mode, String room, int width, int height, String... jvmOptions) throws Exception {
        Path log = Path.of("target", "joom-window-" + mode + ".log");
        try (Xvfb x = Xvfb.start(width, height, Path.of("target", "xvfb-" + mode + ".log"))) {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "-Djava.awt.headless=false"));
            command.addAll(List.of(jvmOptions));
            command.addAll(List.of(JoomWindowDriver.class.getName(), mode, live.server.host(),
                    Integer.toString(live.server.c2sPort()), live.server.loginDomain(), room,
                    SHOTS.toString(), Files.createDirectories(Path.of("target", "joom-window-" + mode)).toString()));
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("DISPLAY", x.display());
            pb.environment().remove("GDK_SCALE");
            Process driver = pb.start();
            if (!driver.waitFor(120, TimeUnit.SECONDS)) {
                driver.destroyForcibly().waitFor();
                throw new AssertionError("the driver did not finish in 120 s:\n" + Files.readString(log));
            }
            String out = Files.readString(log);
            System.out.println(out);
            assertThat(driver.exitValue()).as("the driver's checks:\n" + out).isZero();
            return out;
        }
    }

    @Test
    void twoJoomWindowsAndAPlainClientChatOnA1366x768Screen() throws Exception {
        String out = drive("full", 1366, 768);
        assertThat(out).contains("ok: the backlog arrives at once", "ok: Bob gets Alice's reply at once", "DRIVER OK");
        for (String shot : List.of("01-alice-movies-at-once", "02-alice-batch-with-delay-marks", "03-alice-switched-to-gossip",
                "04-bob-reply-and-mention-highlighted", "05-alice-search", "06-whole-display")) {
            BufferedImage image = ImageIO.read(SHOTS.resolve(shot + ".png").toFile());
            assertThat(image.getWidth()).as(shot).isBetween(700, 1366);
            assertThat(image.getHeight()).as(shot).isBetween(400, 768);
        }
    }

    /**
     * A big room at a modest size: {@value #BOTS} light bots (irc-replay's fill) and Joom told that
     * rooms past {@value JoomWindowDriver#BIG_ROOM} occupants are big. What the driver checks: the
     * join at presence level moderators (only the moderator's presence and her own come), a digest
     * by the clock, the history, and the occupant list a page at a time as it is scrolled.
     */
    @Test
    void inABigRoomJoomJoinsAtLevelModeratorsWithADigestAndListsTheOccupantsAPageAtATime() throws Exception {
        String room = live.newRoom("joom-big-room");
        try (LightBots crowd = LightBots.fill(live, room, BOTS, Path.of("target", "joom-big-room-bots", "fill.err"))) {
            String out = drive("big", room, 1366, 768);
            assertThat(out).contains("ok: joined at presence level moderators", "ok: only the page in view is loaded",
                    "ok: the whole list, " + (BOTS + 2), "ok: the rest in the digest, by the clock", "DRIVER OK");
        }
    }

    @Test
    void onAHiDpiScreenTheWindowFitsAndDrawsAtTwiceTheResolution() throws Exception {
        drive("hidpi", 2732, 1536, "-Dsun.java2d.uiScale=2");
        BufferedImage image = ImageIO.read(SHOTS.resolve("07-hidpi-alice.png").toFile());
        assertThat(image.getWidth()).as("device pixels").isGreaterThan(1366);
    }
}
