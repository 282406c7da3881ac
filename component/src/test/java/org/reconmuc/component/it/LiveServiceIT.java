package org.reconmuc.component.it;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.servers.XmppServer;

/**
 * An integration-test class's life with one real XMPP server and the service attached to it: both
 * started before its tests (in {@code target/it-<server>-<class>}), the service's emitted stanzas
 * validated after them. A subclass names the server; the conversations of an abstract subclass
 * are the same on each. What a class needs before its tests beyond this is its own
 * {@code @BeforeAll}, which runs after this one (and its {@code @AfterAll} before the stop).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LiveServiceIT {
    LiveService live;
    XmppServer server;
    private final AtomicInteger rooms = new AtomicInteger();

    /** The server the class runs against ({@code prosody}, {@code ejabberd}, {@code openfire}). */
    abstract String serverKind();

    /** The service's configuration for this class: as the server's template makes it, unless the class says. */
    ServiceConfig configured(ServiceConfig config) {
        return config;
    }

    /** Done on the started server before the service attaches (e.g. publish what it will read); nothing unless the class says. */
    void beforeAttach(XmppServer started) throws Exception {
    }

    /** The clock the service's rooms read. */
    Clock clock() {
        return Clock.systemUTC();
    }

    /** Where under {@code target} the server runs. */
    String runDir() {
        return "it-" + serverKind() + "-" + getClass().getSimpleName();
    }

    /** Starts the server and attaches the service (as an external component; the Openfire plugin's ITs load it instead). */
    LiveService startService() throws Exception {
        return LiveService.start(serverKind(), runDir(), this::configured, clock(), this::beforeAttach);
    }

    @BeforeAll
    final void startServerAndService() throws Exception {
        live = startService();
        server = live.server;
    }

    @AfterAll
    final void stopAndValidate() {
        if (live != null) {
            boolean observed = live.observesEmitted();
            validated(observed, live.closeAndValidate());
        }
    }

    /** After the stop: {@code count} protocol elements the service emitted were valid ({@code observed}: they were watched). */
    void validated(boolean observed, int count) {
    }

    /** A room of the service nobody has used: {@code prefix}, a number, and a few digits of the time (runs leave rooms behind). */
    EntityBareJid newRoom(String prefix) throws Exception {
        return JidCreate.entityBareFrom(prefix + rooms.incrementAndGet() + "-" + System.nanoTime() % 100000 + "@"
                + server.componentDomain());
    }
}
