package org.reconmuc.component.cluster;

import org.reconmuc.component.transport.ConnectionListener;
import org.xmpp.component.Component;
import org.xmpp.component.ComponentManager;
import org.xmpp.packet.JID;
import org.xmpp.packet.Packet;

/** What one of an instance's connections hands on: stanzas tagged with the connection, and its loss. */
public record ConnectionOfInstance(ClusteredService service, int index) implements Component, ConnectionListener {
    @Override
    public String getName() {
        return service.getName();
    }

    @Override
    public String getDescription() {
        return service.getDescription();
    }

    @Override
    public void processPacket(Packet packet) {
        service.processPacket(packet, index);
    }

    @Override
    public void initialize(JID jid, ComponentManager componentManager) {
    }

    @Override
    public void start() {
    }

    @Override
    public void shutdown() {
    }

    @Override
    public void connected() {
        // Nothing to check: the rooms whose stanzas came through a lost connection were given up.
        service.connectionsChanged();
    }

    @Override
    public void disconnected() {
        LeasedRooms<?> leased = service.leasedRooms();
        if (leased != null) {
            leased.connectionLost(index);
        }
        service.connectionsChanged();
    }
}
