package org.reconmuc.component.muc.rtbl;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * <p>The subscriber: a service alone is {@code DOMAIN/rtbl} (ejabberd's is {@code HOST/rtbl-NODE}).
 * One of several instances behind a server that spreads the domain over connections by bare
 * destination (ejabberd's {@code domain_balancing}) would get nothing there: every stanza for the
 * bare domain reaches the one connection holding its bucket. So it first finds an address of its
 * own ({@link #followFromHome()}): it sends itself messages to {@value #HOMES_PER_ROUND} random
 * {@code rtbl-home-…@DOMAIN} addresses and subscribes from the first that comes back to it (the
 * others reach other instances, which drop them); it looks again whenever its connections change.
 * Notifications are accepted from the list's service for its node whatever address of the domain
 * they reach, so a subscription left by an earlier run, or by an instance whose bucket moved here,
 * still counts.
 */
public final class BlockListSubscription {
    private static final Logger LOG = LoggerFactory.getLogger(BlockListSubscription.class);
    /** The subscriber's resource on the service's domain, for a service alone. */
    public static final String RESOURCE = "rtbl";
    /** Node of the addresses an instance of several tries as its own. */
    static final String HOME_NODE = "rtbl-home-";
    static final int HOMES_PER_ROUND = 16;
    static final long HOME_ROUND_MILLIS = 2_000;
    static final int HOME_ROUNDS = 8;
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
    private final String domain;
    private final BlockList list;
    private final Sender sender;
    private final Timer timer;
    /** Called when hashes were newly listed: the rooms remove the occupants now listed. */
    private final Runnable newlyListed;
    /** A retry is scheduled (a failed subscription and a failed fetch make one). */
    private final AtomicBoolean retrying = new AtomicBoolean();
    /** Ids of this process's requests: instances of one domain may see each other's answers. */
    private final String idPrefix = "rtbl-" + HexFormat.of().formatHex(new SecureRandom().generateSeed(4)) + "-";
    private final AtomicLong requests = new AtomicLong();
    private final SecureRandom random = new SecureRandom();
    /** Addresses of the current search for a home; the first that comes back wins. */
    private final Set<String> homesTried = ConcurrentHashMap.newKeySet();
    private final AtomicLong search = new AtomicLong();
    private volatile JID subscriber;
    private volatile String subscribeId;
    private volatile String itemsId;

    public BlockListSubscription(String service, String node, String domain, BlockList list, Sender sender, Timer timer,
                                 Runnable newlyListed) {
        this.service = new JID(service);
        this.node = node;
        this.domain = domain;
        this.subscriber = new JID(null, domain, RESOURCE);
        this.list = list;
        this.sender = sender;
        this.timer = timer;
        this.newlyListed = newlyListed;
    }

    public BlockList list() {
        return list;
    }

    /** The address the list's notifications go to now. */
    public JID subscriber() {
        return subscriber;
    }

    /** Subscribes and fetches the items (again) as the current subscriber: at every connection, and on a retry. */
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

    /** One of several instances: finds an address that reaches it, then subscribes from there (see above). */
    public void followFromHome() {
        searchRound(search.incrementAndGet(), 1);
    }

    private void searchRound(long searchNumber, int round) {
        if (searchNumber != search.get()) {
            return;   // a newer search (the connections changed again) or a home found
        }
        if (round > HOME_ROUNDS) {
            LOG.warn("no address of {} came back to this instance in {} rounds; looking again in {} s",
                    domain, HOME_ROUNDS, RETRY_MILLIS / 1000);
            timer.schedule(RETRY_MILLIS, () -> searchRound(searchNumber, 1));
            return;
        }
        homesTried.clear();
        for (int i = 0; i < HOMES_PER_ROUND; i++) {
            String home = HOME_NODE + Long.toHexString(random.nextLong() & Long.MAX_VALUE) + "@" + domain;
            homesTried.add(home);
            Message probe = new Message();
            probe.setFrom(domain);
            probe.setTo(home);
            probe.setType(Message.Type.headline);
            sender.send(probe);
        }
        timer.schedule(HOME_ROUND_MILLIS, () -> searchRound(searchNumber, round + 1));
    }

    /** Ends the subscription (the service stops), as ejabberd's module does on stop. */
    public void stop() {
        unsubscribe(subscriber);
    }

    private void unsubscribe(JID who) {
        IQ unsubscribe = request(IQ.Type.set);
        unsubscribe.setFrom(who);
        Element u = unsubscribe.getChildElement().addElement("unsubscribe");
        u.addAttribute("node", node);
        u.addAttribute("jid", who.toString());
        sender.send(unsubscribe);
    }

    private IQ request(IQ.Type type) {
        IQ iq = new IQ(type, idPrefix + requests.incrementAndGet());
        iq.setFrom(subscriber);
        iq.setTo(service);
        iq.setChildElement(NodeItems.PUBSUB, NodeItems.NAMESPACE);
        return iq;
    }

    /**
     * Takes a stanza addressed to the service's domain if it is the list's: an answer to one of its
     * requests, a notification of its node, or a message of an instance looking for its address.
     * False: not ours, the service handles it.
     */
    public boolean handle(Packet packet) {
        JID from = packet.getFrom();
        if (from == null) {
            return false;
        }
        if (packet instanceof Message probe && domain.equals(from.toString()) && packet.getTo() != null
                && packet.getTo().getNode() != null && packet.getTo().getNode().startsWith(HOME_NODE)) {
            homeCameBack(probe.getTo().toBareJID());
            return true;   // ours or another instance's: never a room
        }
        if (!service.equals(from)) {
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
            return id != null && id.startsWith("rtbl-");   // an answer to another instance, or to an earlier request
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
            LOG.info("block list {} node {}: {} entries after a notification to {}", service, node, list.size(), packet.getTo());
            if (!added.isEmpty()) {
                newlyListed.run();
            }
            return true;
        }
        return false;
    }

    /** An address came back to this instance: the first of a search becomes the subscriber. */
    private void homeCameBack(String home) {
        if (!homesTried.contains(home)) {
            return;   // another instance's, or a late one of a finished search
        }
        homesTried.clear();
        search.incrementAndGet();   // the search is over
        JID previous = subscriber;
        subscriber = new JID(home);
        LOG.info("block list {} node {}: this instance subscribes as {}", service, node, home);
        if (!previous.equals(subscriber) && previous.getNode() != null) {
            unsubscribe(previous);
        }
        start();
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
