package org.reconmuc.smack;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jivesoftware.smack.ConnectionListener;
import org.jivesoftware.smack.Manager;
import org.jivesoftware.smack.SmackException.NoResponseException;
import org.jivesoftware.smack.SmackException.NotConnectedException;
import org.jivesoftware.smack.XMPPConnection;
import org.jivesoftware.smack.XMPPException.XMPPErrorException;
import org.jivesoftware.smack.filter.AndFilter;
import org.jivesoftware.smack.filter.StanzaExtensionFilter;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.IQ;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smackx.delay.packet.DelayInformation;
import org.jivesoftware.smackx.disco.ServiceDiscoveryManager;
import org.jivesoftware.smackx.disco.packet.DiscoverInfo;
import org.jivesoftware.smackx.forward.packet.Forwarded;
import org.jivesoftware.smackx.xdata.FormField;
import org.jivesoftware.smackx.xdata.packet.DataForm;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.Jid;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.MalformedBatchException;
import org.reconmuc.smack.element.BatchElement;
import org.reconmuc.smack.element.ConsistencyRequirements;
import org.reconmuc.smack.element.ConsistencyRequirementsIQ;
import org.reconmuc.smack.element.FilterEntry;
import org.reconmuc.smack.provider.ReconMucProviders;

/**
 * ReConMUC for one connection (reconmuc.md §4, §5.13, §7): discovers whether a room supports the
 * protocol and its limits, states and updates this occupant's consistency requirements, and reads
 * the batches the room flushes, handing each of their messages to {@link RetainedMessageListener}s
 * as an ordinary message with its XEP-0203 delay (a live item, §5.9 rule 8.6, without one, to
 * {@link RetainedMessageListener#liveMessage}). Batches are accepted only from the bare JID of
 * a room this connection opted in with; they are read on Smack's ordered stanza thread, by one
 * codec decoder per room (each room runs its own deflate stream for this session, §5.9 rule 8).
 */
public final class ReconMucManager extends Manager {
    private static final Map<XMPPConnection, ReconMucManager> INSTANCES = new WeakHashMap<>();

    static {
        ReconMucProviders.register();
    }

    /** Rooms this connection opted in with; a room's batches count from the first request on (§5.13 rule 2). */
    private final Set<EntityBareJid> optedIn = ConcurrentHashMap.newKeySet();
    /** Per room, the decoder of the deflate stream it runs for this session (two rooms' streams never mix). */
    private final Map<EntityBareJid, BatchDecoder> decoders = new ConcurrentHashMap<>();
    private final List<RetainedMessageListener> listeners = new CopyOnWriteArrayList<>();

    private ReconMucManager(XMPPConnection connection) {
        super(connection);
        connection.addSyncStanzaListener(this::onBatchMessage,
                new AndFilter(StanzaTypeFilter.MESSAGE, new StanzaExtensionFilter(BatchElement.ELEMENT, BatchElement.NAMESPACE)));
        connection.addConnectionListener(new ConnectionListener() {
            @Override
            public void connectionClosed() {
                forgetRooms();
            }

            @Override
            public void connectionClosedOnError(Exception e) {
                forgetRooms();
            }
        });
    }

    /** The session ended: a new one starts in standard mode everywhere, its streams at 1. */
    private void forgetRooms() {
        optedIn.clear();
        decoders.clear();
    }

    /** The manager of {@code connection}, made on first use. */
    public static synchronized ReconMucManager forConnection(XMPPConnection connection) {
        return INSTANCES.computeIfAbsent(connection, ReconMucManager::new);
    }

    public void addRetainedMessageListener(RetainedMessageListener listener) {
        listeners.add(listener);
    }

    public void removeRetainedMessageListener(RetainedMessageListener listener) {
        listeners.remove(listener);
    }

    /**
     * Whether {@code room} supports ReConMUC and its limits (XEP-0030 disco#info, the XEP-0128
     * form {@code urn:reconmuc:0#limits}). A client must check before its first request (§5.13).
     */
    public RoomSupport discoverSupport(EntityBareJid room)
            throws NoResponseException, XMPPErrorException, NotConnectedException, InterruptedException {
        DiscoverInfo info = ServiceDiscoveryManager.getInstanceFor(connection()).discoverInfo(room);
        if (!info.containsFeature(XmlNamespaces.RECONMUC)) {
            return RoomSupport.UNSUPPORTED;
        }
        DataForm limits = DataForm.from(info, XmlNamespaces.LIMITS_FORM_TYPE);
        return new RoomSupport(true, limit(limits, "history-size"), limit(limits, "max-volume"),
                limit(limits, "max-time"), limit(limits, "max-filter-entries"),
                info.containsFeature(XmlNamespaces.FEATURE_COMPACT), info.containsFeature(XmlNamespaces.FEATURE_COMPACT_DEFLATE),
                info.containsFeature(XmlNamespaces.FEATURE_COMPACT_DEFLATE_LIVE), info.containsFeature(XmlNamespaces.FEATURE_COMPACT_LIVE));
    }

    private static Integer limit(DataForm form, String field) {
        FormField f = form == null ? null : form.getField(field);
        if (f == null || f.getFirstValue() == null) {
            return null;
        }
        try {
            return Integer.valueOf(f.getFirstValue().strip());
        } catch (NumberFormatException e) {
            return null; // a room that states a limit it cannot write has stated none
        }
    }

    /**
     * States or updates this occupant's requirements in {@code room} (a partial update changes
     * only what it names, §4.2) and returns the effective requirements. A refusal is an
     * {@link XMPPErrorException} whose error has the condition and text the spec names (§6); the
     * previous requirements then stay in force.
     */
    public ConsistencyRequirements setRequirements(EntityBareJid room, ConsistencyRequirements requirements)
            throws NoResponseException, XMPPErrorException, NotConnectedException, InterruptedException {
        // Before sending: what a change releases comes right after the result, maybe before this thread resumes.
        boolean added = optedIn.add(room);
        try {
            return request(ConsistencyRequirementsIQ.set(room, requirements));
        } catch (NoResponseException | XMPPErrorException | NotConnectedException | InterruptedException | RuntimeException e) {
            if (added) {
                optedIn.remove(room);
            }
            throw e;
        }
    }

    /** Moves the occupant's only active topic filter from {@code from} (may be null) to {@code to}: the update Joom sends on a topic switch. */
    public ConsistencyRequirements switchTopic(EntityBareJid room, String from, String to)
            throws NoResponseException, XMPPErrorException, NotConnectedException, InterruptedException {
        ConsistencyRequirements.Builder b = ConsistencyRequirements.builder();
        if (from != null && !from.equals(to)) {
            b.addFilterEntry(FilterEntry.topic(from, false));
        }
        return setRequirements(room, b.addFilterEntry(FilterEntry.topic(to, true)).build());
    }

    /** Returns to standard MUC in {@code room} (§4.4); what was retained follows in a batch. */
    public void returnToStandard(EntityBareJid room)
            throws NoResponseException, XMPPErrorException, NotConnectedException, InterruptedException {
        setRequirements(room, ConsistencyRequirements.standard());
    }

    /** The occupant's effective requirements in {@code room} ({@code standard} when it never opted in). */
    public ConsistencyRequirements getRequirements(EntityBareJid room)
            throws NoResponseException, XMPPErrorException, NotConnectedException, InterruptedException {
        return request(ConsistencyRequirementsIQ.get(room));
    }

    /** Forgets a room this occupant left: its batches are no longer accepted. */
    public void leftRoom(EntityBareJid room) {
        optedIn.remove(room);
        decoders.remove(room);
    }

    private ConsistencyRequirements request(ConsistencyRequirementsIQ iq)
            throws NoResponseException, XMPPErrorException, NotConnectedException, InterruptedException {
        IQ result = connection().createStanzaCollectorAndSend(iq).nextResultOrThrow();
        if (!(result instanceof ConsistencyRequirementsIQ r)) {
            throw new IllegalStateException("the room answered without <consistency-requirements/>: " + result.toXML());
        }
        return r.getRequirements();
    }

    /**
     * The messages of a batch message, in room order, each addressed as the batch was and carrying
     * the XEP-0203 delay of its item — except a live last item (§5.9 rule 8.6), which has none:
     * it is the message as the room broadcast it at once. Read with the decoder of the room it
     * comes from (its stream for this session). For callers that read batches themselves;
     * listeners get the same.
     */
    public List<Message> unpack(Message batchMessage) throws MalformedBatchException {
        if (batchMessage.getFrom() == null) {
            throw new MalformedBatchException("a batch comes from its room's bare JID; this one has no 'from'");
        }
        EntityBareJid room = batchMessage.getFrom().asEntityBareJidIfPossible();
        if (room == null) {
            throw new MalformedBatchException("a batch comes from its room's bare JID, not " + batchMessage.getFrom());
        }
        BatchDecoder decoder = decoders.computeIfAbsent(room, r -> new BatchDecoder());
        synchronized (decoder) {
            return unpack(batchMessage, decoder);
        }
    }

    /** {@link #unpack(Message)} with the given session's decoder. */
    public static List<Message> unpack(Message batchMessage, BatchDecoder decoder) throws MalformedBatchException {
        BatchElement batch = BatchElement.from(batchMessage);
        if (batch == null) {
            return List.of();
        }
        if (batchMessage.getFrom() == null) {
            throw new MalformedBatchException("a batch comes from its room's bare JID; this one has no 'from'");
        }
        List<Forwarded<Message>> items = batch.getForwardedMessages(decoder, batchMessage.getFrom().asBareJid().toString());
        List<Message> messages = new ArrayList<>(items.size());
        for (Forwarded<Message> f : items) {
            DelayInformation delay = f.getDelayInformation();
            var message = f.getForwardedStanza().asBuilder()
                    .to(batchMessage.getTo())
                    .removeExtension(DelayInformation.ELEMENT, DelayInformation.NAMESPACE);
            if (delay != null) {
                message.addExtension(delay);
            }
            messages.add(message.build());
        }
        return messages;
    }

    private void onBatchMessage(Stanza stanza) {
        Message message = (Message) stanza;
        Jid from = message.getFrom();
        EntityBareJid room = from == null ? null : from.asEntityBareJidIfPossible();
        if (room == null || from.hasResource() || !optedIn.contains(room)) {
            return; // not from a room we opted in with: ignored (§5.13 rule 2, §8.2)
        }
        List<Message> messages;
        try {
            messages = unpack(message);
        } catch (MalformedBatchException e) {
            for (RetainedMessageListener l : listeners) {
                l.malformedBatch(room, message, e);
            }
            return;
        }
        for (Message m : messages) {
            boolean live = m.getExtension(DelayInformation.class) == null;
            for (RetainedMessageListener l : listeners) {
                if (live) {
                    l.liveMessage(room, m);
                } else {
                    l.retainedMessage(room, m);
                }
            }
        }
    }
}
