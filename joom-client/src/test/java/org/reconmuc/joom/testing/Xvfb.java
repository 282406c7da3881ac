package org.reconmuc.joom.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A virtual X display (Debian's {@code xvfb}) on a free display number, for tests that draw real
 * windows. Started and stopped by its own process handle; a start that does not come up in ten
 * seconds fails.
 */
public final class Xvfb implements AutoCloseable {
    private final Process process;
    private final int display;

    private Xvfb(Process process, int display) {
        this.process = process;
        this.display = display;
    }

    /** Starts a {@code width}×{@code height} 24-bit screen on the first free display from :90. */
    public static Xvfb start(int width, int height, Path log) throws IOException, InterruptedException {
        for (int n = 90; n < 190; n++) {
            if (Files.exists(Path.of("/tmp/.X" + n + "-lock")) || Files.exists(Path.of("/tmp/.X11-unix/X" + n))) {
                continue;
            }
            Files.createDirectories(log.getParent());
            Process p = new ProcessBuilder("Xvfb", ":" + n, "-screen", "0", width + "x" + height + "x24", "-nolisten", "tcp")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < deadline && p.isAlive()) {
                if (Files.exists(Path.of("/tmp/.X11-unix/X" + n))) {
                    return new Xvfb(p, n);
                }
                Thread.sleep(50);
            }
            p.destroy();
            p.waitFor();
            if (!Files.readString(log).contains("already active")) {
                throw new IOException("Xvfb :" + n + " did not start: " + Files.readString(log));
            }
        }
        throw new IOException("no free X display between :90 and :189");
    }

    /** The value for {@code DISPLAY}. */
    public String display() {
        return ":" + display;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}
