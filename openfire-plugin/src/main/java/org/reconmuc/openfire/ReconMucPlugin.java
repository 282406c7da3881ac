package org.reconmuc.openfire;

import java.io.File;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import org.jivesoftware.openfire.XMPPServer;
import org.jivesoftware.openfire.component.InternalComponentManager;
import org.jivesoftware.openfire.container.Plugin;
import org.jivesoftware.openfire.container.PluginManager;
import org.jivesoftware.util.JiveGlobals;
import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.config.ConfigLoader.ConfigException;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.store.Store;
import org.reconmuc.component.store.StoreException;
import org.reconmuc.component.muc.RoomThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.component.ComponentException;

/**
 * ReConMUC inside Openfire: the same {@link MucService} the standalone component runs, registered
 * with Openfire's {@link InternalComponentManager} as {@code <reconmuc.subdomain>.<xmpp domain>}
 * (default {@code reconmuc}), with its settings from Openfire system properties
 * ({@link PluginSettings}). Unloading the plugin unregisters the service and stops its rooms
 * (rooms live in memory, as in the standalone component).
 */
public final class ReconMucPlugin implements Plugin {
    private static final Logger LOG = LoggerFactory.getLogger(ReconMucPlugin.class);

    private ExecutorService roomThreads;
    private InProcessService registered;
    private String subdomain;
    private Store store;

    @Override
    public void initializePlugin(PluginManager manager, File pluginDirectory) {
        String xmppDomain = XMPPServer.getInstance().getServerInfo().getXMPPDomain();
        PluginSettings.Read settings;
        try {
            settings = PluginSettings.read(xmppDomain, JiveGlobals::getProperty,
                    JiveGlobals.getPropertyNames(PluginSettings.PREFIX.substring(0, PluginSettings.PREFIX.length() - 1)),
                    "sqlite:" + JiveGlobals.getHomePath().resolve("reconmuc").resolve("rooms.db"));
        } catch (ConfigException e) {
            throw new IllegalStateException("ReConMUC not started: " + e.getMessage(), e);
        }
        for (String ignored : settings.ignored()) {
            LOG.warn("ReConMUC: the system property {} means nothing to the plugin (settings: {}, {})", ignored,
                    PluginSettings.SUBDOMAIN, PluginSettings.OPTIONS);
        }
        try {
            store = Store.open(settings.config().storeLocation(), settings.config().maxQueuedChars());
        } catch (StoreException e) {
            throw new IllegalStateException("ReConMUC not started: cannot open its store: " + e.getMessage(), e);
        }
        roomThreads = RoomThreads.start("reconmuc-room");
        MucService service = new MucService(settings.config(), Clock.systemUTC(), roomThreads, null, null, store, RoomFeatures.ALL);
        try {
            LOG.info("ReConMUC restored {} persistent rooms", service.restoreRooms());
        } catch (StoreException e) {
            stop();
            throw new IllegalStateException("ReConMUC not started: cannot read its store: " + e.getMessage(), e);
        }
        registered = new InProcessService(service, settings.config().maxStanzaBytes());
        subdomain = settings.subdomain();
        try {
            InternalComponentManager.getInstance().addComponent(subdomain, registered);
        } catch (ComponentException e) {
            stop();
            throw new IllegalStateException("ReConMUC could not register " + settings.config().domain() + ": "
                    + e.getMessage(), e);
        }
        LOG.info("ReConMUC registered as {} ({})", settings.config().domain(), settings.config());
    }

    @Override
    public void destroyPlugin() {
        if (registered != null) {
            InternalComponentManager.getInstance().removeComponent(subdomain, registered); // calls shutdown()
            registered = null;
        }
        stop();
    }

    /** The rooms, then the store (what is queued is committed). */
    private void stop() {
        if (roomThreads != null) {
            RoomThreads.stop(roomThreads);
            roomThreads = null;
        }
        if (store != null) {
            store.close();
            store = null;
        }
    }
}
