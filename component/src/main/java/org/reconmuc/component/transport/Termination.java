package org.reconmuc.component.transport;

/** Why {@link ExternalComponentConnection#awaitTermination()} returned. */
public enum Termination {
    /** {@link ExternalComponentConnection#close()} was called. */
    CLOSED,
    /** The server refused the handshake ({@code not-authorized}): the secret is wrong. Main exits with code 2. */
    AUTHENTICATION_FAILED
}
