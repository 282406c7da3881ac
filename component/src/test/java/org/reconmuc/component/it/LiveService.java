package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.reconmuc.component.ReconMuc;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.reconmuc.component.config.RoomCreation;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * A real XMPP server with ReConMUC attached, for one integration-test class. Every stanza the
 * component sends is kept; {@link #closeAndValidate()} checks its protocol elements against the
 * schema after everything has stopped.
 */
final class LiveService {
    final XmppServer server;
    private final ReconMuc muc;
    private final EmittedStanzas emitted;

    private LiveService(XmppServer server, ReconMuc muc, EmittedStanzas emitted) {
        this.server = server;
        this.muc = muc;
        this.emitted = emitted;
    }

    /** Starts {@code kind} in {@code target/<runDir>} and attaches the component, configured by {@code adjust}. */
    static LiveService start(String kind, String runDir, UnaryOperator<ServiceConfig> adjust) throws Exception {
        return start(kind, runDir, adjust, java.time.Clock.systemUTC(), server -> { });
    }

    /** Like the above, the service's rooms reading the time from {@code clock}. */
    static LiveService start(String kind, String runDir, UnaryOperator<ServiceConfig> adjust, java.time.Clock clock)
            throws Exception {
        return start(kind, runDir, adjust, clock, server -> { });
    }

    /** Something to do on the server before the component attaches (e.g. publish what it will read). */
    interface BeforeAttach {
        void accept(XmppServer server) throws Exception;
    }

    /** As the first, {@code before} done on the started server before the component attaches. */
    static LiveService start(String kind, String runDir, UnaryOperator<ServiceConfig> adjust, BeforeAttach before)
            throws Exception {
        return start(kind, runDir, adjust, java.time.Clock.systemUTC(), before);
    }

    /** The rooms reading the time from {@code clock}, {@code before} done on the server before the component attaches. */
    static LiveService start(String kind, String runDir, UnaryOperator<ServiceConfig> adjust, java.time.Clock clock,
            BeforeAttach before)
            throws Exception {
        XmppServer server = XmppServers.start(kind, Files.createDirectories(Path.of("target", runDir)));
        try {
            before.accept(server);
            return attach(server, adjust, clock);
        } catch (Exception | AssertionError e) {
            server.close();
            throw e;
        }
    }

    /**
     * Attaches the component, configured by {@code adjust}, to a server that runs already (an
     * ejabberd cluster's first node); {@link #closeAndValidate()} stops that server too.
     */
    static LiveService attach(XmppServer server, UnaryOperator<ServiceConfig> adjust, java.time.Clock clock) throws Exception {
        // The ITs make a room per test from the same few accounts, who stay in them: no limit per user
        // here (RoomCreationTest has it).
        ServiceConfig config = adjust.apply(ServiceConfig.builder().server(server.host(), server.componentPort())
                .domain(server.componentDomain()).secret(server.componentSecret())
                .roomCreation(RoomCreation.parse("anyone", "", 0)).build());
        EmittedStanzas emitted = new EmittedStanzas();
        LiveService live = new LiveService(server, ReconMuc.start(config, emitted, clock), emitted);
        if (!live.muc.awaitConnected(Duration.ofSeconds(20))) {
            live.muc.close();
            throw new AssertionError("the component did not attach to " + server);
        }
        return live;
    }

    /**
     * A server that runs the service itself (Openfire with the plugin): nothing to attach, and what
     * the service emits is not observed here.
     */
    static LiveService inProcess(XmppServer server) {
        return new LiveService(server, null, null);
    }

    /** The component's connection to the server, or null when the service runs in the server's process. */
    ExternalComponentConnection connection() {
        return muc == null ? null : muc.connection();
    }

    /** The component's service, or null when the service runs in the server's process. */
    MucService service() {
        return muc == null ? null : muc.service();
    }

    /** True when {@link #closeAndValidate()} checks what the service emitted. */
    boolean observesEmitted() {
        return emitted != null;
    }

    /**
     * Stops the component, then the server, then checks what the component emitted; returns how
     * many elements (0 for a service in the server's process).
     */
    int closeAndValidate() {
        if (muc != null) {
            muc.close();
        }
        server.close();
        return emitted == null ? 0 : emitted.assertProtocolElementsValid();
    }
}
