package org.reconmuc.component.cluster;

import org.xmpp.component.Component;
import org.xmpp.packet.Packet;

/**
 * The service one instance runs (the MUC's {@code MucService}), as this package sees it: where each of the
 * instance's connections hands its stanzas, and the rooms it serves under this instance's leases.
 */
public interface ClusteredService extends Component {
    /** A stanza that came through connection {@code via}. */
    void processPacket(Packet packet, int via);

    /** One of the instance's connections came or went. */
    void connectionsChanged();

    /** From now on rooms are served only under leases {@code owner} holds. */
    LeasedRooms<?> serveUnderLeases(RoomOwnership owner);

    /** The rooms served under leases; null while the service runs alone. */
    LeasedRooms<?> leasedRooms();
}
