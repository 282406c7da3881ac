package org.reconmuc.joom.model;

/** The connection as the status bar says it. */
public enum ConnectionState {
    DISCONNECTED("Not connected"),
    CONNECTING("Connecting…"),
    CONNECTED("Connected"),
    RECONNECTING("Connection lost, reconnecting…");

    private final String words;

    ConnectionState(String words) {
        this.words = words;
    }

    /** What the status bar says. */
    public String words() {
        return words;
    }
}
