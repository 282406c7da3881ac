package org.reconmuc.component.muc;

import java.util.function.Consumer;
import java.util.function.Predicate;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.jid.RoomJid;
import org.xmpp.packet.Packet;

/**
 * What a feature may do on the whole service, beside its rooms' events (as a Prosody module hooks
 * its MUC host): take stanzas before the service routes them, or those to the service's own address;
 * act when the service connects, when its connections change and when it stops; send from the
 * service; run a task later, or in rooms on their own threads; add to the service's disco#info;
 * and publish what it keeps for the whole service, which the service hands out by type
 * ({@link MucService#feature}: the operator's metrics, tests).
 */
public interface ServiceHooks {
    ServiceConfig config();

    /** {@code handler} sees each stanza to the service's domain before it is routed, and takes it by answering true. */
    void beforeRouting(Predicate<Packet> handler);

    /** {@code handler} sees each stanza to the service's own address (no node) before the service answers it, and takes it by answering true. */
    void toService(Predicate<Packet> handler);

    /** Runs {@code action} at each connection to the server. */
    void onConnected(Runnable action);

    /** Runs {@code action} when one of the connections of an instance among several came or went. */
    void onConnectionsChanged(Runnable action);

    /** Runs {@code action} when the service stops. */
    void onShutdown(Runnable action);

    /** Sends {@code packet} (from the service or a room's address) to the server. */
    void send(Packet packet);

    /** Runs {@code task} on the service's timer after {@code delayMillis}. */
    void schedule(long delayMillis, Runnable task);

    /** Runs {@code task} in each room in memory that {@code which} names, on the room's own thread. */
    void eachRoom(Predicate<RoomJid> which, Consumer<Room> task);

    /** Adds {@code var} to the features of the service's disco#info. */
    void discoFeature(String var);

    /** Hands {@code kept} out to whoever asks the service for its type. */
    void publish(Object kept);
}
