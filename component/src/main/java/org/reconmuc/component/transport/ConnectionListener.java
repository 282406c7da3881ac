package org.reconmuc.component.transport;

/** Optional: a Component that also implements this is told about (re)connections. */
public interface ConnectionListener {
    /** After every successful handshake (first and after reconnects). */
    void connected();

    /** When an established connection is lost. */
    void disconnected();
}
