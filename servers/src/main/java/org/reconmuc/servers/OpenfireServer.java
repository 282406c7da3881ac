package org.reconmuc.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jxmpp.jid.impl.JidCreate;

/**
 * Openfire 5.1.1 from the distribution in {@code ../shared/openfire/} (it is neither on Maven
 * Central nor in Debian), unpacked into the run directory and set up headless by its autosetup
 * template: domain {@code localhost}, embedded HSQLDB, every listener on 127.0.0.1, the XEP-0114
 * port with one shared secret. {@code openfire.sh} execs the JVM, so the PID is the server's.
 * Clients log in with SASL ANONYMOUS on {@code localhost} (the template has no catch-all
 * accounts): every client is a distinct user with a random node (and a resource Openfire picks).
 */
final class OpenfireServer extends LocalXmppServer {
    static final String DISTRIBUTION = "shared/openfire/openfire-5.1.1.tar.gz";
    static final String DOMAIN = "localhost";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private OpenfireServer(Path runDir, int c2sPort, int componentPort) {
        super("openfire", runDir, c2sPort, componentPort);
    }

    /** The distribution beside the repository ({@code ../shared}), or {@code -Dreconmuc.openfire=FILE}. */
    static Path distribution(Path repoRoot) {
        String property = System.getProperty("reconmuc.openfire");
        Path tarball = property != null && !property.isBlank() ? Path.of(property)
                : repoRoot.toAbsolutePath().getParent().resolve(DISTRIBUTION);
        if (!Files.isRegularFile(tarball)) {
            throw new IllegalStateException("Openfire 5.1.1 is not at " + tarball + ": it comes from ../shared/openfire/"
                    + " beside the repository (or give -Dreconmuc.openfire=FILE)");
        }
        return tarball;
    }

    static OpenfireServer start(Path repoRoot, Path runDir, int[] ports) throws XmppServerStartException, IOException {
        return start(repoRoot, runDir, ports, null, Map.of());
    }

    /**
     * Like {@link #start(Path, Path, int[])}, with {@code plugin} (a jar, or null) in {@code plugins/}
     * before the first start and {@code properties} (name to value) among the system properties the
     * autosetup writes into the database. With a plugin, ready also means that
     * {@link #componentDomain()} answers a client's disco#info: the plugin serves it.
     */
    static OpenfireServer start(Path repoRoot, Path runDir, int[] ports, Path plugin, Map<String, String> properties)
            throws XmppServerStartException, IOException {
        OpenfireServer server = new OpenfireServer(runDir, ports[0], ports[1]);
        Path tarball = distribution(repoRoot);
        run(new ProcessBuilder("tar", "-C", runDir.toString(), "-xzf", tarball.toString()));
        Path home = runDir.resolve("openfire");
        String config = Templates.render(Files.readString(home.resolve("conf/openfire.xml.template")), Map.of(
                "C2S_PORT", Integer.toString(server.c2sPort()),
                "COMPONENT_PORT", Integer.toString(server.componentPort()),
                "SECRET", COMPONENT_SECRET));
        Files.writeString(home.resolve("conf/openfire.xml"), withProperties(config, properties));
        if (plugin != null) {
            Files.copy(plugin, home.resolve("plugins").resolve(plugin.getFileName()));
        }
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/openfire.sh").toString());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        server.launch(builder, READY_TIMEOUT);
        // The plugin holds the component domain: probe the component port under another name.
        server.awaitComponentHandshake(plugin == null ? COMPONENT_DOMAIN : "probe." + DOMAIN);
        if (plugin != null) {
            server.awaitServiceAnswers(server.componentDomain());
        }
        return server;
    }

    /**
     * The autosetup copies every property of openfire.xml into the database on the first start:
     * {@code a.b=v} and {@code a.c=w} become {@code <a><b>v</b><c>w</c></a>} before {@code </jive>}
     * (one element per name part: Openfire reads only the first of two sibling {@code <a>}s).
     */
    static String withProperties(String config, Map<String, String> properties) {
        Map<String, Object> tree = new java.util.TreeMap<>();
        properties.forEach((name, value) -> {
            Map<String, Object> node = tree;
            String[] parts = name.split("\\.");
            for (int i = 0; i < parts.length - 1; i++) {
                @SuppressWarnings("unchecked")
                Map<String, Object> child = (Map<String, Object>) node.computeIfAbsent(parts[i],
                        k -> new java.util.TreeMap<String, Object>());
                node = child;
            }
            node.put(parts[parts.length - 1], value);
        });
        StringBuilder xml = new StringBuilder();
        appendTree(tree, xml);
        int end = config.lastIndexOf("</jive>");
        return config.substring(0, end) + xml + config.substring(end);
    }

    private static void appendTree(Map<String, Object> tree, StringBuilder xml) {
        tree.forEach((name, value) -> {
            xml.append('<').append(name).append('>');
            if (value instanceof Map<?, ?> children) {
                @SuppressWarnings("unchecked")
                Map<String, Object> typed = (Map<String, Object>) children;
                appendTree(typed, xml);
            } else {
                xml.append(value.toString().replace("&", "&amp;").replace("<", "&lt;"));
            }
            xml.append("</").append(name).append(">\n");
        });
    }

    /** Until {@code address} answers a client's disco#info with a result (not 503: nothing serves it yet). */
    private void awaitServiceAnswers(String address) throws XmppServerStartException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = null;
        while (System.nanoTime() < deadline) {
            XMPPTCPConnection c = null;
            try {
                c = new XMPPTCPConnection(clientConfig("probe").build());
                c.connect().login();
                DiscoInfoProbe probe = new DiscoInfoProbe(JidCreate.domainBareFrom(address));
                org.jivesoftware.smack.packet.IQ answer = c.createStanzaCollectorAndSend(probe).nextResult(5_000);
                if (answer != null && answer.getType() == org.jivesoftware.smack.packet.IQ.Type.result) {
                    return;
                }
                last = answer == null ? "no answer" : answer.toXML().toString();
            } catch (Exception e) {
                last = e.toString();
            } finally {
                if (c != null) {
                    c.disconnect();
                }
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        close();
        throw new XmppServerStartException("openfire: nothing answered at " + address + " (last: " + last + ")\n"
                + logTail(60), false);
    }

    /** A bare disco#info request (smack-extensions is not a dependency of this module). */
    private static final class DiscoInfoProbe extends org.jivesoftware.smack.packet.IQ {
        DiscoInfoProbe(org.jxmpp.jid.Jid to) {
            super("query", "http://jabber.org/protocol/disco#info");
            setType(Type.get);
            setTo(to);
        }

        @Override
        protected IQChildElementXmlStringBuilder getIQChildElementBuilder(IQChildElementXmlStringBuilder xml) {
            xml.setEmptyElement();
            return xml;
        }
    }

    /**
     * Openfire answers on its component port before it can create component sessions (a
     * handshake in its first second fails with internal-server-error): ready means a real
     * handshake succeeds.
     */
    private void awaitComponentHandshake(String domain) throws XmppServerStartException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = StreamProbe.componentHandshake(HOST, componentPort(), domain, COMPONENT_SECRET,
                        Duration.ofSeconds(5));
                if (StreamProbe.handshakeSucceeded(last)) {
                    return;
                }
            } catch (IOException e) {
                last = e.toString();
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        close();
        throw new XmppServerStartException("openfire never accepted a component handshake (last answer: " + last + ")\n"
                + logTail(60), false);
    }

    private static void run(ProcessBuilder command) throws IOException {
        try {
            Process p = command.redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IOException(String.join(" ", command.command()) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command.command()), e);
        }
    }

    @Override
    public XMPPTCPConnectionConfiguration.Builder clientConfig(String name) throws Exception {
        return XMPPTCPConnectionConfiguration.builder()
                .setXmppDomain(JidCreate.domainBareFrom(DOMAIN))
                .setHost(HOST)
                .setPort(c2sPort())
                .setSecurityMode(SecurityMode.disabled)
                .performSaslAnonymousAuthentication()
                .setResource(name == null || name.isBlank() ? "client" : name)
                .setConnectTimeout((int) REPLY_TIMEOUT_MS);
    }

    @Override
    public XMPPTCPConnection newAnonymousClient(String name) throws Exception {
        return newClient(name);
    }

    @Override
    public String loginDomain() {
        return DOMAIN;
    }

    @Override
    Path consoleFile() {
        return runDir().resolve("openfire.out");
    }

    @Override
    List<Path> logFiles() {
        return List.of(runDir().resolve("openfire/logs/openfire.log"), consoleFile());
    }
}
