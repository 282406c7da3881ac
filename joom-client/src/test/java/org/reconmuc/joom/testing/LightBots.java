package org.reconmuc.joom.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.reconmuc.replay.irc.IrcLogs;

/**
 * A crowd in a room: irc-replay's {@code fill} (light bots, in JVMs of their own, from this test's
 * class path) logs {@code bots} bots in to the server's client port and keeps them in the room
 * (bot 0 makes it, and owns it) until {@link #close}. Started once they are all in.
 */
public final class LightBots implements AutoCloseable {
    private final Process process;

    private LightBots(Process process) {
        this.process = process;
    }

    /** Fills {@code room} with {@code bots} bots, 90 % of them relaxed, at presence level none; waits for {@code filled N}. */
    public static LightBots fill(LiveRooms live, String room, int bots, Path log) throws IOException, InterruptedException {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "org.reconmuc.replay.Main", "fill",
                "--endpoint", live.server.host() + ":" + live.server.c2sPort(), "--room", room, "--bots", Integer.toString(bots),
                "--login-domain", live.server.loginDomain(), "--relaxed-share", "0.9", "--presence-level", "none",
                "--logs", IrcLogs.defaultDir().toString(), "--worker-errors", log.getParent().toString());
        java.nio.file.Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.equals("filled " + bots)) {
                Thread drain = new Thread(() -> drain(out), "light-bots-out");
                drain.setDaemon(true);
                drain.start();
                return new LightBots(p);
            }
        }
        p.waitFor(10, TimeUnit.SECONDS);
        throw new IOException("fill ended before the room was filled (exit " + (p.isAlive() ? "?" : p.exitValue()) + "): see " + log);
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // progress lines: nobody reads them
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** Closes fill's input: it logs the bots out and ends. */
    @Override
    public void close() throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
