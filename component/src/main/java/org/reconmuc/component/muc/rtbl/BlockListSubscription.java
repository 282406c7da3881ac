package org.reconmuc.component.muc.rtbl;

import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.dom4j.Element;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * Follows one block-list node (XEP-0060) for the service: at every connection to the server it
 * subscribes ({@code <subscribe node='' jid='SUBSCRIBER'/>}, §6.1) and then fetches the node's
 * items (§6.5), in that order, so that nothing published in between is missed; the items result
 * replaces the list (what is no longer there is unlisted, as Prosody's module does on a fetch),
 * notifications add and retract. A failed subscription or fetch is tried again a minute later, as
 * ejabberd's module does.
 *
 * <p>The subscriber is {@code DOMAIN/rtbl} (ejabberd's is {@code HOST/rtbl-NODE}). Notifications
 * are accepted from the list's service for its node whatever resource of the domain they are
 * addressed to, so a subscription left by an earlier run still counts.
 */
public final class BlockListSubscription {
    private static final Logger LOG = LoggerFactory.getLogger(BlockListSubscription.class);
    /** The subscriber's resource on the service's domain. */
    public static final String RESOURCE = "rtbl";
    static final long RETRY_MILLIS = 60_000;

    /** Where the subscription's requests go (to the server). */
    public interface Sender {
        void send(Packet packet);
    }

    /** Runs a task later (the retry). */
    public interface Timer {
        void schedule(long delayMillis, Runnable task);
    }

    private final JID service;
    private final String node;
    private final JID subscriber;
    private final BlockList list;
    private final Sender sender;
    private final Timer timer;
    /** Called when hashes were newly listed: the rooms remove the occupants now listed. */
    private final Runnable newlyListed;
    /** A retry is scheduled (a failed subscription and a failed fetch make one). */
    private final AtomicBoolean retrying = new AtomicBoolean();
    private final AtomicLong requests = new AtomicLong();
    private volatile String subscribeId;
    private volatile String itemsId;

    public BlockListSubscription(String service, String node, String domain, BlockList list, Sender sender, Timer timer,
                                 Runnable newlyListed) {
        this.service = new JID(service);
        this.node = node;
        this.subscriber = new JID(null, domain, RESOURCE);
        this.list = list;
        this.sender = sender;
        this.timer = timer;
        this.newlyListed = newlyListed;
    }

    public BlockList list() {
        return list;
    }

    /** Subscribes and fetches the items (again): at every connection, and on a retry. */
    public void start() {
        IQ subscribe = request(IQ.Type.set);
        Element s = subscribe.getChildElement().addElement("subscribe");
        s.addAttribute("node", node);
        s.addAttribute("jid", subscriber.toString());
        subscribeId = subscribe.getID();
        IQ items = request(IQ.Type.get);
        items.getChildElement().addElement(NodeItems.ELEMENT).addAttribute("node", node);
        itemsId = items.getID();
        sender.send(subscribe);
        sender.send(items);
    }

    /** Ends the subscription (the service stops), as ejabberd's module does on stop. */
    public void stop() {
        IQ unsubscribe = request(IQ.Type.set);
        Element u = unsubscribe.getChildElement().addElement("unsubscribe");
        u.addAttribute("node", node);
        u.addAttribute("jid", subscriber.toString());
        sender.send(unsubscribe);
    }

    private IQ request(IQ.Type type) {
        IQ iq = new IQ(type, "rtbl-" + requests.incrementAndGet());
        iq.setFrom(subscriber);
        iq.setTo(service);
        iq.setChildElement(NodeItems.PUBSUB, NodeItems.NAMESPACE);
        return iq;
    }

    /**
     * Takes a stanza addressed to the service's domain if it is the list's: an answer to one of its
     * requests, or a notification of its node. False: not ours, the service handles it.
     */
    public boolean handle(Packet packet) {
        if (packet.getFrom() == null || !service.equals(packet.getFrom())) {
            return false;
        }
        if (packet instanceof IQ iq && (iq.getType() == IQ.Type.result || iq.getType() == IQ.Type.error)) {
            String id = iq.getID();
            if (id != null && id.equals(itemsId)) {
                itemsId = null;
                fetched(iq);
                return true;
            }
            if (id != null && id.equals(subscribeId)) {
                subscribeId = null;
                if (iq.getType() == IQ.Type.error) {
                    LOG.warn("the block list {} node {} refused our subscription ({}); trying again in {} s",
                            service, node, describe(iq), RETRY_MILLIS / 1000);
                    retry();
                }
                return true;
            }
            return false;
        }
        if (packet instanceof Message m && m.getType() != Message.Type.error) {
            NodeItems event = NodeItems.fromEvent(m.getChildElement(NodeItems.EVENT, NodeItems.EVENT_NAMESPACE));
            if (event == null || !node.equals(event.node())) {
                return false;
            }
            if (event.purged()) {
                list.replaceAll(Set.of());
            }
            list.remove(event.retracted());
            Set<String> added = list.add(event.published());
            if (!added.isEmpty()) {
                newlyListed.run();
            }
            return true;
        }
        return false;
    }

    private void fetched(IQ answer) {
        NodeItems items = answer.getType() == IQ.Type.result ? NodeItems.fromResult(answer.getChildElement()) : null;
        if (items == null || !node.equals(items.node())) {
            LOG.warn("fetching the block list {} node {} failed ({}); trying again in {} s", service, node,
                    answer.getType() == IQ.Type.error ? describe(answer) : "no items of the node in the answer",
                    RETRY_MILLIS / 1000);
            retry();
            return;
        }
        Set<String> added = list.replaceAll(items.published());
        LOG.info("block list {} node {}: {} entries ({} new)", service, node, list.size(), added.size());
        if (!added.isEmpty()) {
            newlyListed.run();
        }
    }

    private void retry() {
        if (retrying.compareAndSet(false, true)) {
            timer.schedule(RETRY_MILLIS, () -> {
                retrying.set(false);
                start();
            });
        }
    }

    private static String describe(IQ error) {
        return error.getError() == null ? "an error" : error.getError().getCondition().toXMPP()
                + (error.getError().getText() == null ? "" : ": " + error.getError().getText());
    }
}
