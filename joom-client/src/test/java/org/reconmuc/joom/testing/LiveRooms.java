package org.reconmuc.joom.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.reconmuc.component.ReconMuc;
import org.reconmuc.component.config.RoomCreation;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * A real Prosody on loopback with the real ReConMUC component attached (in this JVM), for Joom's
 * integration tests. Rooms are on {@link #serviceDomain()}; Prosody's own MUC (a plain room, for
 * standard mode) is {@code server.nativeMucDomain()}.
 */
public final class LiveRooms implements AutoCloseable {
    public final XmppServer server;
    private final ReconMuc muc;
    private int rooms;

    private LiveRooms(XmppServer server, ReconMuc muc) {
        this.server = server;
        this.muc = muc;
    }

    /** Starts Prosody in {@code target/<runDir>} and attaches the component. */
    public static LiveRooms start(String runDir) throws Exception {
        XmppServer server = XmppServers.start("prosody", Files.createDirectories(Path.of("target", runDir)));
        try {
            // The tests make a room each from the same few accounts: no limit per user here.
            ServiceConfig config = ServiceConfig.builder().server(server.host(), server.componentPort())
                    .domain(server.componentDomain()).secret(server.componentSecret())
                    .roomCreation(RoomCreation.parse("anyone", "", 0)).build();
            ReconMuc muc = ReconMuc.start(config);
            if (!muc.awaitConnected(Duration.ofSeconds(20))) {
                muc.close();
                throw new AssertionError("the component did not attach to Prosody");
            }
            return new LiveRooms(server, muc);
        } catch (Exception | AssertionError e) {
            server.close();
            throw e;
        }
    }

    public String serviceDomain() {
        return server.componentDomain();
    }

    /** A fresh room JID on the ReConMUC service. */
    public String newRoom(String name) {
        return name + (++rooms) + "-" + System.nanoTime() % 100_000 + "@" + serviceDomain();
    }

    /** Waits until the component is attached again (after a server restart). */
    public boolean awaitComponent(Duration timeout) throws InterruptedException {
        return muc.awaitConnected(timeout);
    }

    @Override
    public void close() {
        muc.close();
        server.close();
    }
}
