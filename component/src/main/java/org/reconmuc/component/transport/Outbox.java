package org.reconmuc.component.transport;

import java.util.List;

/** Where the service's stanzas go, each rendered already: the text is what the server receives. */
@FunctionalInterface
public interface Outbox {
    void send(OutgoingStanza stanza);

    /**
     * One rendering for several recipients (a room's broadcast). Where the server offers XEP-0033
     * multicast the connection sends it once with their addresses; anywhere else, a copy each.
     */
    default void broadcast(RenderedStanza stanza, List<String> recipients) {
        for (String recipient : recipients) {
            send(stanza.to(recipient));
        }
    }

    /**
     * Runs {@code then} once what {@code from} (a room's address) sent through here before has left
     * for the server — written to the connection's socket — or never, if it is dropped on the way
     * (the room moved). Where nothing is queued on the way, at once. {@code then} must not wait.
     */
    default void whenWritten(String from, Runnable then) {
        then.run();
    }
}
