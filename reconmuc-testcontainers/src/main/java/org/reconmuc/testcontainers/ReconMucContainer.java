package org.reconmuc.testcontainers;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Volume;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The ReConMUC image (the repository's {@code Dockerfile}) as a Testcontainers container: a MUC
 * service (XEP-0045) attached to an XMPP server's XEP-0114 component port, for the tests of an
 * application that talks to chat rooms. {@link #start()} returns once the component has attached
 * (its log says {@code component connected to HOST:PORT as DOMAIN}); a wrong secret or domain fails
 * the start, with the container's log in the exception.
 *
 * <p>The server must have a component slot for {@linkplain #withDomain the domain} with
 * {@linkplain #withSecret the secret}. Where it runs decides the network:
 * <pre>{@code
 * // a server on the test's own machine (Linux), listening on 127.0.0.1:5347
 * new ReconMucContainer("reconmuc:latest").withNetworkMode("host")
 *         .withXmppServer("127.0.0.1", 5347).withDomain("muc.localhost").withSecret("secret");
 * // a server in a container on the network `network`, under the alias "xmpp"
 * new ReconMucContainer("reconmuc:latest").withNetwork(network)
 *         .withXmppServer("xmpp", 5347).withDomain("muc.localhost").withSecret("secret");
 * }</pre>
 * Clients then join rooms at {@code room@DOMAIN} through the server; {@link #roomAddress} spells it.
 * Every other setting of the component is {@link #withSetting}{@code (key, value)}, e.g.
 * {@code withSetting("history-size", "20")}.
 */
public class ReconMucContainer extends GenericContainer<ReconMucContainer> {
    /** Where the image keeps persistent rooms: mount a volume here to keep them across containers. */
    public static final String STORE_PATH = "/var/lib/reconmuc";
    /** The image's domain unless {@link #withDomain} says otherwise. */
    public static final String DEFAULT_DOMAIN = "reconmuc.localhost";
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);

    private String domain = DEFAULT_DOMAIN;

    public ReconMucContainer(String image) {
        this(DockerImageName.parse(image));
    }

    public ReconMucContainer(DockerImageName image) {
        super(image);
        waitForAttachment();
    }

    /** The XMPP server's component port, as the container reaches it (image default 127.0.0.1:5347). */
    public ReconMucContainer withXmppServer(String host, int componentPort) {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("the XMPP server's host must not be empty");
        }
        if (componentPort < 1 || componentPort > 65535) {
            throw new IllegalArgumentException("the component port must be in 1..65535, not " + componentPort);
        }
        return withEnv("RECONMUC_SERVER_HOST", host).withEnv("RECONMUC_SERVER_PORT", Integer.toString(componentPort));
    }

    /** The component's domain, the one the server's component slot has (default {@value #DEFAULT_DOMAIN}). */
    public ReconMucContainer withDomain(String domain) {
        if (domain == null || domain.isBlank()) {
            throw new IllegalArgumentException("the domain must not be empty");
        }
        this.domain = domain;
        waitForAttachment();
        return withEnv("RECONMUC_DOMAIN", domain);
    }

    /**
     * The component secret the server expects. Required (or {@code withSetting("secret-file", path)} with the
     * file mounted): the image has none and refuses to start without.
     */
    public ReconMucContainer withSecret(String secret) {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("the secret must not be empty");
        }
        return withEnv("RECONMUC_SECRET", secret);
    }

    /**
     * Keeps the store (persistent rooms and their archives) in the named volume, made if missing: a
     * later container given the same volume finds the rooms again.
     */
    public ReconMucContainer withStoreVolume(String volume) {
        if (volume == null || !volume.matches("[A-Za-z0-9][A-Za-z0-9_.-]*")) {
            throw new IllegalArgumentException("a volume's name is letters, digits, '_', '.' and '-'; not " + volume);
        }
        return withCreateContainerCmdModifier(cmd -> cmd.getHostConfig()
                .withBinds(new Bind(volume, new Volume(STORE_PATH))));
    }

    /** Any setting of the component by its key ({@code docker run --rm IMAGE --help} lists them). */
    public ReconMucContainer withSetting(String key, String value) {
        if (key == null || !key.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("a setting's key is lower-case words joined by '-', like history-size; not " + key);
        }
        return withEnv("RECONMUC_" + key.toUpperCase(Locale.ROOT).replace('-', '_'), value);
    }

    public String getDomain() {
        return domain;
    }

    /** {@code local@DOMAIN}: the address of a room of this service. */
    public String roomAddress(String local) {
        return local + "@" + domain;
    }

    @Override
    protected void configure() {
        if (!getEnvMap().containsKey("RECONMUC_SECRET") && !getEnvMap().containsKey("RECONMUC_SECRET_FILE")) {
            throw new IllegalStateException("ReconMucContainer needs withSecret(...) (or the setting secret-file): the"
                    + " component secret the XMPP server expects for " + domain);
        }
        super.configure();
    }

    private void waitForAttachment() {
        waitingFor(Wait.forLogMessage(".*component connected to \\S+ as " + Pattern.quote(domain) + "\\b.*", 1)
                .withStartupTimeout(STARTUP_TIMEOUT));
    }
}
