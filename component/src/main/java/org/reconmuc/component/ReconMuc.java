package org.reconmuc.component;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.reconmuc.component.activity.ActivitySubscriptions;
import org.reconmuc.component.activity.SharedSubscriptions;
import org.reconmuc.component.cluster.ClusterNode;
import org.reconmuc.component.cluster.ConnectionOfInstance;
import org.reconmuc.component.config.ClusterConfig;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.metrics.ServiceMetrics;
import java.util.function.Consumer;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.transport.Outbox;
import org.reconmuc.component.muc.RoomThreads;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.store.StoreException;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.reconmuc.component.transport.OutgoingStanza;
import org.reconmuc.component.transport.RenderedStanza;
import org.reconmuc.component.transport.Termination;
import org.xmpp.component.ComponentException;

/**
 * A running ReConMUC: the MUC service, the room executor, and the XEP-0114 connection to the
 * server. Used by {@link Main} and by the integration tests, so both run the same assembly.
 */
public final class ReconMuc implements AutoCloseable {
    private final ExecutorService roomThreads;
    private final MucService service;
    private final ExternalComponentConnection connection;
    private final Store store;
    /** Null when the service runs alone. */
    private ClusterNode cluster;
    /** XEP-0437 subscribers shared with the other instances; null when the service runs alone. */
    private SharedSubscriptions activitySubscribers;
    /** Null unless metrics were asked for ({@link ServiceConfig#metricsPort()}). */
    private ServiceMetrics metrics;

    private ReconMuc(ServiceConfig config, Consumer<OutgoingStanza> observer, Store store, boolean clustered, Clock clock) {
        this.store = store;
        this.roomThreads = RoomThreads.start("room");
        // The rooms' text goes to the socket as rendered, nothing is serialised again.
        Outbox outbox = new Outbox() {
            @Override
            public void send(OutgoingStanza stanza) {
                if (observer != null) {
                    observer.accept(stanza);
                }
                sendThroughConnection(stanza);
            }

            @Override
            public void broadcast(RenderedStanza stanza, List<String> recipients) {
                if (observer != null) {
                    recipients.forEach(r -> observer.accept(stanza.to(r)));
                }
                if (cluster != null) {
                    cluster.broadcast(stanza, recipients);
                } else {
                    connection.broadcast(stanza, recipients);
                }
            }

            @Override
            public void whenWritten(String from, Runnable then) {
                if (cluster != null) {
                    cluster.whenWritten(from, then);
                } else {
                    connection.whenWritten(then);
                }
            }
        };
        this.service = new MucService(config, clock, roomThreads, outbox, null, store, RoomFeatures.ALL);
        this.connection = clustered ? null : new ExternalComponentConnection(config, service);
    }

    /**
     * One of several instances serving {@code config.domain()}: rooms are leased from the shared
     * store (never restored at start; each is loaded by whoever gets its stanzas), and this
     * instance holds {@code cluster.connections()} connections to the server.
     */
    public static ReconMuc start(ServiceConfig config, ClusterConfig clusterConfig)
            throws ComponentException, StoreException {
        ExternalComponentConnection.requireSecret(config);   // before a store is opened or a thread started
        if (!clusterConfig.clustered()) {
            return start(config);
        }
        String instance = clusterConfig.instance() + "-" + Long.toHexString(new java.security.SecureRandom().nextLong() & 0xffffffL);
        Store store = Store.openFenced(config.storeLocation(), config.maxQueuedChars(), instance);
        ReconMuc muc = new ReconMuc(config, null, store, true, Clock.systemUTC());
        muc.cluster = new ClusterNode(clusterConfig, muc.service, () -> store.leases(instance), Clock.systemUTC(),
                i -> new ExternalComponentConnection(config, new ConnectionOfInstance(muc.service, i)));
        muc.serveMetrics(config, () -> new ServiceMetrics(muc.service, muc.cluster::connections));
        muc.activitySubscribers = SharedSubscriptions.start(muc.service.feature(ActivitySubscriptions.class),
                store.leases(instance), Clock.systemUTC());
        try {
            muc.cluster.start();
        } catch (java.sql.SQLException e) {
            muc.close();
            throw new StoreException("cannot register instance " + instance + " in " + store.describe() + ": "
                    + e.getMessage(), e);
        }
        return muc;
    }

    /**
     * Opens the store, brings back its persistent rooms, and starts connecting (and reconnecting)
     * in the background; returns at once. A store that cannot be opened or read fails here.
     */
    public static ReconMuc start(ServiceConfig config) throws ComponentException, StoreException {
        return start(config, (Consumer<OutgoingStanza>) null);
    }

    /**
     * Like {@link #start(ServiceConfig)}, with every stanza the service sends shown to
     * {@code observer} first, on the sending thread (tests check them against the schemas).
     */
    public static ReconMuc start(ServiceConfig config, Consumer<OutgoingStanza> observer)
            throws ComponentException, StoreException {
        return start(config, observer, Clock.systemUTC());
    }

    /** Like the above, the rooms' time read from {@code clock} (tests move it on an hour: XEP-0502). */
    public static ReconMuc start(ServiceConfig config, Consumer<OutgoingStanza> observer, Clock clock)
            throws ComponentException, StoreException {
        ExternalComponentConnection.requireSecret(config);   // before a store is opened or a thread started
        Store store = Store.open(config.storeLocation(), config.maxQueuedChars());
        ReconMuc muc = new ReconMuc(config, observer, store, false, clock);
        try {
            muc.service.restoreRooms();
        } catch (StoreException e) {
            muc.close();
            throw e;
        }
        muc.serveMetrics(config, () -> new ServiceMetrics(muc.service, muc.connection));
        muc.connection.start();
        return muc;
    }

    /** Serves {@code meters} when the configuration asks for metrics. */
    private void serveMetrics(ServiceConfig config, java.util.function.Supplier<ServiceMetrics> meters)
            throws ComponentException {
        if (config.metricsPort() == 0) {
            return;
        }
        metrics = meters.get();
        try {
            metrics.serve(config.metricsAddress(), config.metricsPort());
        } catch (java.io.IOException e) {
            close();
            throw new ComponentException("cannot serve metrics on " + config.metricsAddress() + ":" + config.metricsPort()
                    + ": " + e.getMessage(), e);
        }
    }

    /** Both fields exist before the first stanza is sent. */
    private void sendThroughConnection(OutgoingStanza stanza) {
        if (cluster != null) {
            cluster.send(stanza);
        } else {
            connection.send(stanza);
        }
    }

    /**
     * Waits up to {@code timeout} until the service is attached: its connection, or, for one of
     * several instances, any of its connections (a starting instance may open none until the
     * others hand it buckets).
     */
    public boolean awaitConnected(Duration timeout) throws InterruptedException {
        if (cluster == null) {
            return connection.awaitConnected(timeout);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (ExternalComponentConnection c : cluster.connections()) {
                if (c.isConnected()) {
                    return true;
                }
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(20);
        }
    }

    public Termination awaitTermination() throws InterruptedException {
        return cluster != null ? cluster.awaitTermination() : connection.awaitTermination();
    }

    public MucService service() {
        return service;
    }

    /** The connection to the server (its queue and counters); the first one of several (null while it has none). */
    public ExternalComponentConnection connection() {
        if (cluster == null) {
            return connection;
        }
        List<ExternalComponentConnection> all = cluster.connections();
        return all.isEmpty() ? null : all.get(0);
    }

    /** This instance among several, or null when the service runs alone. */
    public ClusterNode cluster() {
        return cluster;
    }

    /**
     * Stops: the connection (what is queued is sent), the rooms, then the store (what is queued is
     * committed; a stanza still held for a commit is never sent, so nothing unstored was acknowledged).
     * One of several instances first hands its buckets over to the others, each with its rooms
     * ({@link ClusterNode#handOverForStop}), and sends what its rooms still send until the end.
     */
    @Override
    public void close() {
        if (cluster != null) {
            cluster.handOverForStop();
            cluster.stopBeating();
            cluster.closeConnections();
            service.shutdown();
        } else if (connection != null) {
            connection.close();
        }
        if (metrics != null) {
            metrics.close();
        }
        if (activitySubscribers != null) {
            activitySubscribers.close();
        }
        RoomThreads.stop(roomThreads);
        store.close();
        if (cluster != null) {
            cluster.close();   // the rooms go back only once what they wrote is committed
        }
    }
}
