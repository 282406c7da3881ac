package org.reconmuc.testcontainers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.reconmuc.servers.XmppServers;
import org.testcontainers.DockerClientFactory;

/**
 * The image under test and the engine that runs it. The image is {@code -Dreconmuc.image=NAME} if
 * given, else the one {@code scripts/container-image.sh} builds from this checkout's jar (once per
 * test JVM; the base images it needs are cached by the engine). Without a container engine the
 * tests are skipped, unless {@code RECONMUC_CONTAINER_TESTS=required} (set by scripts/test.sh once
 * it has started one): then they fail.
 */
final class LocalImage {
    private static String name;

    private LocalImage() {
    }

    /** Skips (or, where required, fails) the calling test when no engine answers. */
    static void requireEngine() {
        boolean available = DockerClientFactory.instance().isDockerAvailable();
        if (!available && "required".equals(System.getenv("RECONMUC_CONTAINER_TESTS"))) {
            throw new IllegalStateException("RECONMUC_CONTAINER_TESTS=required, but no container engine answers at DOCKER_HOST="
                    + System.getenv("DOCKER_HOST"));
        }
        Assumptions.assumeTrue(available, "no container engine (Docker, or podman's Docker API at DOCKER_HOST):"
                + " the container tests are skipped; scripts/test.sh starts one");
    }

    static synchronized String name() throws IOException, InterruptedException {
        requireEngine();
        if (name == null) {
            String given = System.getProperty("reconmuc.image", "");
            name = given.isBlank() ? build() : given;
        }
        return name;
    }

    /** The command line engine: podman where installed, else docker. */
    static String engine() {
        return onPath("podman") ? "podman" : "docker";
    }

    static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code command} in the repository's root; its output goes to {@code log}; returns it. */
    static String run(Path log, long timeoutSeconds, List<String> command) throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(command).directory(XmppServers.repoRoot().toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long before = Files.size(log);
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s; log " + log);
        }
        String output;
        try (var in = Files.newInputStream(log)) {
            in.skipNBytes(before);
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + p.exitValue() + ":\n" + output);
        }
        return output;
    }

    private static String build() throws IOException, InterruptedException {
        Path log = Path.of("target", "container-image.log").toAbsolutePath();
        String output = run(log, 900, List.of("scripts/container-image.sh"));
        String[] lines = output.strip().split("\n");
        return lines[lines.length - 1].strip();
    }
}
