package org.reconmuc.component;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.metrics.ServiceMetrics;
import java.util.function.Consumer;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.muc.Outbox;
import org.reconmuc.component.muc.RoomThreads;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.store.StoreException;
import org.reconmuc.component.transport.ExternalComponentConnection;
import org.reconmuc.component.transport.OutgoingStanza;
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
    /** Null unless metrics were asked for ({@link ServiceConfig#metricsPort()}). */
    private ServiceMetrics metrics;

    private ReconMuc(ServiceConfig config, Consumer<OutgoingStanza> observer, Store store) {
        this.store = store;
        this.roomThreads = RoomThreads.start("room");
        // The rooms' text goes to the socket as rendered, nothing is serialised again.
        Outbox outbox = observer == null ? this::sendThroughConnection : stanza -> {
            observer.accept(stanza);
            sendThroughConnection(stanza);
        };
        this.service = new MucService(config, Clock.systemUTC(), roomThreads, outbox, null, store);
        this.connection = new ExternalComponentConnection(config, service);
    }

    /**
     * Opens the store, brings back its persistent rooms, and starts connecting (and reconnecting)
     * in the background; returns at once. A store that cannot be opened or read fails here.
     */
    public static ReconMuc start(ServiceConfig config) throws ComponentException, StoreException {
        return start(config, null);
    }

    /**
     * Like {@link #start(ServiceConfig)}, with every stanza the service sends shown to
     * {@code observer} first, on the sending thread (tests check them against the schemas).
     */
    public static ReconMuc start(ServiceConfig config, Consumer<OutgoingStanza> observer)
            throws ComponentException, StoreException {
        Store store = Store.open(config.storeLocation(), config.maxQueuedChars());
        ReconMuc muc = new ReconMuc(config, observer, store);
        try {
            muc.service.restoreRooms();
        } catch (StoreException e) {
            muc.close();
            throw e;
        }
        if (config.metricsPort() != 0) {
            muc.metrics = new ServiceMetrics(muc.service, muc.connection);
            try {
                muc.metrics.serve(config.metricsPort());
            } catch (java.io.IOException e) {
                muc.close();
                throw new ComponentException("cannot serve metrics on 127.0.0.1:" + config.metricsPort() + ": " + e.getMessage(), e);
            }
        }
        muc.connection.start();
        return muc;
    }

    /** Both fields exist before the first stanza is sent. */
    private void sendThroughConnection(OutgoingStanza stanza) {
        connection.send(stanza);
    }

    public boolean awaitConnected(Duration timeout) throws InterruptedException {
        return connection.awaitConnected(timeout);
    }

    public Termination awaitTermination() throws InterruptedException {
        return connection.awaitTermination();
    }

    public MucService service() {
        return service;
    }

    /** The connection to the server (its queue and counters). */
    public ExternalComponentConnection connection() {
        return connection;
    }

    /**
     * Stops: the connection (what is queued is sent), the rooms, then the store (what is queued is
     * committed; a stanza still held for a commit is never sent, so nothing unstored was acknowledged).
     */
    @Override
    public void close() {
        connection.close();
        if (metrics != null) {
            metrics.close();
        }
        RoomThreads.stop(roomThreads);
        store.close();
    }
}
