package org.reconmuc.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Prosody 0.12 in the foreground ({@code prosody --config FILE -F}); the PID is the server's.
 * Config from {@code deploy/prosody/prosody.cfg.lua.template}, plugins from {@code deploy/prosody/plugins/}.
 */
final class ProsodyServer extends LocalXmppServer {
    static final String TEMPLATE = "deploy/prosody/prosody.cfg.lua.template";
    /** Ready in ~0.1 s on a quiet machine; the bound is for a busy one (it costs nothing otherwise). */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private ProsodyServer(ServerPlacement placement, Path runDir, int c2sPort, int componentPort) {
        super("prosody", placement, runDir, c2sPort, componentPort);
    }

    static ProsodyServer start(Path repoRoot, Path runDir, int[] ports, ServerOptions options)
            throws XmppServerStartException, IOException {
        ProsodyServer server = new ProsodyServer(options.placement(), runDir, ports[0], ports[1]);
        Files.createDirectories(runDir.resolve("data"));
        Files.createDirectories(runDir.resolve("certs"));
        Path plugins = Files.createDirectories(runDir.resolve("plugins"));
        try (Stream<Path> files = Files.list(repoRoot.resolve("deploy/prosody/plugins"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, plugins.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path config = runDir.resolve("prosody.cfg.lua");
        Files.writeString(config, Templates.render(Files.readString(repoRoot.resolve(TEMPLATE)), Map.of(
                "DIR", runDir.toString(),
                "LISTEN_ADDRESS", options.placement().listenAddress(),
                "MUC_MODULES", options.nativeMucArchive() ? "\"muc_mam\"" : "",
                "C2S_PORT", Integer.toString(server.c2sPort()),
                "COMPONENT_PORT", Integer.toString(server.componentPort()),
                "COMPONENT_DOMAIN", COMPONENT_DOMAIN,
                "COMPONENT_SECRET", COMPONENT_SECRET)));
        String prosody = Files.isExecutable(Path.of("/usr/bin/prosody")) ? "/usr/bin/prosody" : "prosody";
        server.launch(new ProcessBuilder(prosody, "--config", config.toString(), "-F"), READY_TIMEOUT);
        return server;
    }

    @Override
    Path consoleFile() {
        return runDir().resolve("prosody.log");
    }

    @Override
    List<Path> logFiles() {
        return List.of(consoleFile());
    }
}
