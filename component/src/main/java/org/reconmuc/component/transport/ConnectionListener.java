package org.reconmuc.component.transport;

/**
 * Optional interface for a {@link org.xmpp.component.Component} driven by an
 * {@link ExternalComponentConnection}: if the component also implements it, it is told about
 * (re)connections. Both methods are called on the connection's reader thread, the same thread
 * that calls {@code processPacket}, so they are ordered with respect to incoming packets.
 */
public interface ConnectionListener {

    /**
     * Called after every successful handshake, the first one and every one after a reconnect.
     * On the first one it is called after {@code Component.start()}. No packet is handed to the
     * component before this call returns.
     */
    void connected();

    /**
     * Called when an established connection (one whose handshake succeeded) is lost. Not called
     * when the connection is closed on purpose by {@link ExternalComponentConnection#close()};
     * the component's {@code shutdown()} is called then.
     */
    void disconnected();
}
