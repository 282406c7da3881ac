package org.reconmuc.component.muc.rtbl;

import java.util.ArrayList;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.Affiliation;
import org.reconmuc.component.muc.MucPresences;
import org.reconmuc.component.muc.Occupant;
import org.reconmuc.component.muc.Role;
import org.reconmuc.component.muc.Room;
import org.reconmuc.component.muc.RoomEvent;
import org.reconmuc.component.muc.RoomFeature;
import org.reconmuc.component.muc.ServiceHooks;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * The block list as a feature of the service and its rooms, attached only where the operator names
 * one ({@code --rtbl-service}): the service follows it ({@link BlockListSubscription}, at every
 * connection, and from an address of its own among several instances) and publishes its
 * {@link BlockList}; a room refuses a listed user who is not a member or more before it looks at the
 * stanza, and removes those already in when their hash comes.
 */
public final class RealTimeBlockList {
    public static final RoomFeature FEATURE = events -> {
        ServiceConfig config = events.config();
        if (config.rtblService() == null) {
            return;
        }
        ServiceHooks service = events.service();
        BlockList list = new BlockList();
        BlockListSubscription subscription = new BlockListSubscription(config.rtblService(), config.rtblNode(),
                config.domain(), list, service::send, service::schedule,
                () -> service.eachRoom(room -> true, room -> removeListed(room, list)));
        service.publish(list);
        // The list's answers and notifications, and its search for an address: before any room sees them.
        service.beforeRouting(subscription::handle);
        service.onConnected(subscription::start);   // again at every connection: what was published or retracted meanwhile
        service.onConnectionsChanged(subscription::followFromHome);
        service.onShutdown(subscription::stop);
        events.on(RoomEvent.ARRIVING, arriving -> refuseListed(arriving, list));
    };

    private RealTimeBlockList() {
    }

    /**
     * A listed sender, unless a member or more, may not enter nor send messages ({@code forbidden},
     * as Prosody's mod_muc_rtbl refuses joins, groupchat and private messages).
     */
    private static void refuseListed(RoomEvent.Arriving arriving, BlockList list) {
        Packet packet = arriving.packet();
        boolean entersOrSpeaks = packet instanceof Presence p
                ? p.getType() == null && arriving.occupant() == null
                : packet instanceof Message m && m.getType() != Message.Type.error;
        RealJid session = arriving.session();
        if (entersOrSpeaks && list.lists(session.jid()) && !arriving.room().affiliationOf(session).atLeast(Affiliation.MEMBER)) {
            arriving.refuse(Condition.FORBIDDEN, "cancel", BlockList.REFUSAL);
        }
    }

    /**
     * The list has new entries: occupants it now lists are removed (kicked, 307, with ejabberd's
     * reason), but for moderators (as ejabberd's module) and members or more (whom Prosody's module
     * never checks).
     */
    private static void removeListed(Room room, BlockList list) {
        for (Occupant o : new ArrayList<>(room.occupants())) {
            if (o.role() != Role.MODERATOR && !room.affiliationOf(o.bareJid()).atLeast(Affiliation.MEMBER)
                    && list.lists(o.bareJid().jid())) {
                room.remove(o, MucPresences.KICKED, BlockList.REMOVAL_REASON);
            }
        }
    }
}
