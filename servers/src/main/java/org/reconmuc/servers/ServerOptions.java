package org.reconmuc.servers;

import java.util.Objects;

/**
 * How a server is started beyond its kind: where it runs ({@link ServerPlacement}), and whether its
 * own MUC archives rooms (XEP-0313 for MUC: every groupchat message then carries the room's
 * XEP-0359 stanza-id, as ReConMUC's do; the like-for-like baseline for byte counts).
 */
public record ServerOptions(ServerPlacement placement, boolean nativeMucArchive, int componentBuckets) {
    /** Loopback, the server's MUC without an archive: what tests and the run script use. */
    public static final ServerOptions DEFAULT = new ServerOptions(ServerPlacement.LOOPBACK, false, 0);

    public ServerOptions {
        Objects.requireNonNull(placement, "placement");
        if (componentBuckets < 0 || componentBuckets == 1 || componentBuckets > 1000) {
            throw new IllegalArgumentException("component buckets must be 0 (one connection) or 2..1000");
        }
    }

    public ServerOptions(ServerPlacement placement, boolean nativeMucArchive) {
        this(placement, nativeMucArchive, 0);
    }

    public ServerOptions withPlacement(ServerPlacement p) {
        return new ServerOptions(p, nativeMucArchive, componentBuckets);
    }

    public ServerOptions withNativeMucArchive(boolean archive) {
        return new ServerOptions(placement, archive, componentBuckets);
    }

    /**
     * The component domain takes {@code buckets} connections, and the server keeps every stanza
     * for one room on one of them (ejabberd: {@code domain_balancing}, {@code type:
     * bare_destination}, {@code component_number}); only ejabberd can.
     */
    public ServerOptions withComponentBuckets(int buckets) {
        return new ServerOptions(placement, nativeMucArchive, buckets);
    }
}
