package org.reconmuc.servers;

import java.nio.file.Path;
import java.util.function.Consumer;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;

/**
 * A real XMPP server (Prosody or ejabberd from Debian's packages, Openfire from ../shared/openfire)
 * running as a local process on
 * loopback, started by {@link XmppServers}. Every listener is on 127.0.0.1 (or, for a load run's
 * real-link measurement, on the server's end of a veth pair: {@link ServerPlacement}), on ports
 * chosen free at start. {@link #close()} stops the process and every client made by {@link #newClient}.
 */
public interface XmppServer extends AutoCloseable {
    /** {@code "prosody"}, {@code "ejabberd"} or {@code "openfire"}. */
    String kind();

    /** The address clients connect to: {@code "127.0.0.1"} unless placed in a network namespace. */
    String host();

    int c2sPort();

    /** The XEP-0114 component port. */
    int componentPort();

    /** {@code "reconmuc.localhost"}. */
    String componentDomain();

    /** {@code "s3cret"}. */
    String componentSecret();

    /** The server's own MUC service, {@code "conference.localhost"}. */
    String nativeMucDomain();

    /**
     * The host {@link #newClient} logs into: {@code "insecure.localhost"}, where any user name and
     * password log in with SASL PLAIN. Both servers also have {@code "anon.localhost"} (SASL
     * ANONYMOUS) and {@code "localhost"} (in-band registration).
     */
    String loginDomain();

    /**
     * A new real Smack connection, connected and logged in on {@link #loginDomain()} as
     * {@code <name>-<n>@insecure.localhost/<name>}: every call yields a distinct bare JID.
     * No TLS, reply timeout 10 s. Closed by {@link #close()}.
     */
    XMPPTCPConnection newClient(String name) throws Exception;

    /**
     * Like {@link #newClient(String)}, with the configuration adjusted before the connection is
     * built, e.g. {@code b -> b.setSendPresence(false)}, or {@code b -> b.setCompressionEnabled(true)}
     * (XEP-0138 needs smack-compression-java7 on the class path).
     */
    XMPPTCPConnection newClient(String name, Consumer<XMPPTCPConnectionConfiguration.Builder> adjust)
            throws Exception;

    /**
     * A new connection logged in with SASL ANONYMOUS on {@code anon.localhost}: the server picks a
     * random node. Resource {@code name}. Closed by {@link #close()}.
     */
    XMPPTCPConnection newAnonymousClient(String name) throws Exception;

    /** The configuration {@link #newClient(String)} uses, with a fresh unique user; not tracked. */
    XMPPTCPConnectionConfiguration.Builder clientConfig(String name) throws Exception;

    /** The directory holding the generated configuration, the server's state and its logs. */
    Path runDir();

    /** The server's main log file (its console output). */
    Path logFile();

    long pid();

    boolean isAlive();

    /** The last lines of the server's logs, for failure messages. */
    String logTail(int lines);

    /**
     * Stops the server process (SIGTERM, as an operator's restart does) and starts it again on the
     * same ports with the same configuration and data; returns when it answers again. Clients made
     * by {@link #newClient} lose their connections. Fault tests.
     */
    void restart() throws Exception;

    /** Freezes the server process (SIGSTOP): its sockets stay open but nothing is read. Fault tests. */
    void suspend() throws Exception;

    /** Lets a {@link #suspend()}ed server run again (SIGCONT). */
    void resume() throws Exception;

    /**
     * Closes the clients made by {@link #newClient}, then stops the server by its PID: SIGTERM,
     * wait, SIGKILL after a bound. Idempotent; never throws.
     */
    @Override
    void close();
}
