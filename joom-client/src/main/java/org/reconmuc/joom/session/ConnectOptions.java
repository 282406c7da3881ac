package org.reconmuc.joom.session;

import java.util.Objects;

/**
 * How to log in.
 *
 * @param host the server's host name or address
 * @param port its client port (5222)
 * @param jid the account's bare JID ({@code alice@example.org}); for an anonymous login, the
 *     anonymous domain ({@code anon.example.org}) or any JID on it
 * @param password the password (ignored when anonymous)
 * @param anonymous SASL ANONYMOUS instead of a password
 * @param tls whether to insist on TLS: off only for a server on this machine
 */
public record ConnectOptions(String host, int port, String jid, String password, boolean anonymous, boolean tls) {

    public ConnectOptions {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(jid, "jid");
        password = password == null ? "" : password;
    }

    /** Options for {@code host}, with TLS unless the host is this machine (a local test server). */
    public static ConnectOptions of(String host, int port, String jid, String password, boolean anonymous) {
        boolean loopback = host.equals("localhost") || host.startsWith("127.") || host.equals("::1");
        return new ConnectOptions(host, port, jid, password, anonymous, !loopback);
    }

    /** The domain part of {@link #jid}. */
    public String domain() {
        int at = jid.indexOf('@');
        String rest = at < 0 ? jid : jid.substring(at + 1);
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }

    /** The local part of {@link #jid}, or an empty string. */
    public String user() {
        int at = jid.indexOf('@');
        return at < 0 ? "" : jid.substring(0, at);
    }
}
