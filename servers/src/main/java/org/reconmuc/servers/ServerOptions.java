package org.reconmuc.servers;

import java.util.Objects;

/**
 * How a server is started beyond its kind: where it runs ({@link ServerPlacement}), and whether its
 * own MUC archives rooms (XEP-0313 for MUC: every groupchat message then carries the room's
 * XEP-0359 stanza-id, as ReConMUC's do; the like-for-like baseline for byte counts).
 */
public record ServerOptions(ServerPlacement placement, boolean nativeMucArchive) {
    /** Loopback, the server's MUC without an archive: what tests and the run script use. */
    public static final ServerOptions DEFAULT = new ServerOptions(ServerPlacement.LOOPBACK, false);

    public ServerOptions {
        Objects.requireNonNull(placement, "placement");
    }

    public ServerOptions withPlacement(ServerPlacement p) {
        return new ServerOptions(p, nativeMucArchive);
    }

    public ServerOptions withNativeMucArchive(boolean archive) {
        return new ServerOptions(placement, archive);
    }
}
