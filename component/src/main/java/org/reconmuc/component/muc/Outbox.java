package org.reconmuc.component.muc;

import org.xmpp.packet.Packet;

/**
 * Where the service's stanzas go. Implementations serialise the packet before returning, so a
 * caller may change and reuse the same packet for the next recipient.
 */
@FunctionalInterface
public interface Outbox {
    void send(Packet packet);
}
