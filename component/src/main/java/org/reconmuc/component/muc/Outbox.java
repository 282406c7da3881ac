package org.reconmuc.component.muc;

import org.reconmuc.component.transport.OutgoingStanza;

/** Where the service's stanzas go, each rendered already: the text is what the server receives. */
@FunctionalInterface
public interface Outbox {
    void send(OutgoingStanza stanza);
}
