package org.reconmuc.component.transport;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.XmlText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.forms.DataForm;
import org.xmpp.forms.FormField;
import org.xmpp.packet.IQ;

/**
 * XEP-0033 multicast as the host server offers it to a component: found by service discovery
 * (the server's disco#items, then the server itself), and used only after a probe showed that it
 * takes the component's stanzas and hands on a clean copy (no {@code <addresses/>} left on it:
 * Openfire 5.1.1 leaves an empty one, so its multicast is not used).
 *
 * <p>Every answer discovery waits for (disco results, the probe's copy) is addressed to a <em>home</em>
 * of the asking connection: a made-up address of the component's domain that the server routes
 * back to that very connection. A server that spreads the domain over several connections (ejabberd's
 * {@code domain_balancing}, {@code bare_destination}: {@code ejabberd_router:balancing_route} picks
 * the route by {@code erlang:phash2} of the destination's bare JID) would send an answer addressed to
 * the bare domain to whichever connection holds that domain's bucket — one of all the instances' —
 * and the others would wait in vain. Which bucket a connection holds the server does not say, so the
 * connection sends itself messages to random addresses ({@value #HOME_BATCH} at a time) and keeps
 * the first that comes back to it; the others reach other connections, which drop them. Each new
 * session (a reconnect, a hand-over's or an adopter's connection) finds its own.
 *
 * <p>Whether its copies keep their order with stanzas the component sends directly is the
 * service's to say ({@link #IN_ORDER}, which ReConMUC's Prosody module advertises); ejabberd's
 * mod_multicast routes from a process of its own, so with it every stanza to an occupant goes
 * through the service, in the order sent.
 */
final class ServerMulticast {
    private static final Logger LOG = LoggerFactory.getLogger(ServerMulticast.class);
    /** disco#info feature: copies reach each recipient in order with the sender's direct stanzas. */
    static final String IN_ORDER = "urn:reconmuc:multicast:in-order:0";
    /** Addresses per stanza where the service does not say (ejabberd's default for a remote sender). */
    static final int DEFAULT_MAX_ADDRESSES = 20;
    private static final String PROBE_ID = "reconmuc-multicast-probe-";
    private static final int PROBE_TRIES = 3;
    /** Node of the addresses tried as a connection's home. */
    private static final String HOME_NODE = "reconmuc-multicast-home-";
    /** Addresses tried at once: with six buckets, the chance none of them is this connection's is 5 %. */
    static final int HOME_BATCH = 16;
    /** Batches tried before a connection is taken to hold no bucket (nothing is routed to it). */
    private static final int HOME_ROUNDS = 8;
    /**
     * The service the last verdict found, by server ({@code domain at host:port}), for the whole
     * process. A new connection uses it from its first stanza, before its own discovery: where the
     * service does not keep order with direct stanzas, a room's stanzas sent directly by a
     * connection that has just taken its bucket would overtake those still in the service from
     * the connection before. A connection to which nothing is routed (one that brings nothing
     * during a clean stop) keeps using it.
     */
    private static final Map<String, Service> KNOWN = new ConcurrentHashMap<>();
    /** Addresses being tried as a home, with the connection that tries them, for the whole process. */
    private static final Map<String, Homing> HOMINGS = new ConcurrentHashMap<>();
    /**
     * Probes waiting for their copy, by id, for the whole process: the server may hand the copy to
     * another connection of the same domain (an instance has several).
     */
    private static final Map<String, CompletableFuture<Element>> PROBES = new ConcurrentHashMap<>();
    private static final SecureRandom RANDOM = new SecureRandom();

    /** An address tried as {@code receiver}'s home: it completes {@code home} if it comes back there. */
    private record Homing(Object receiver, CompletableFuture<String> home) {
    }

    /** A multicast service this connection uses. */
    record Service(String jid, int maxAddresses, boolean inOrder) {
        /** The multicast stanzas for {@code recipients}: one per {@link #maxAddresses} of them. */
        List<String> render(RenderedStanza stanza, List<String> recipients) {
            List<String> stanzas = new ArrayList<>(1 + recipients.size() / maxAddresses);
            for (int from = 0; from < recipients.size(); from += maxAddresses) {
                stanzas.add(stanza.multicast(jid, recipients.subList(from, Math.min(recipients.size(), from + maxAddresses))));
            }
            return stanzas;
        }
    }

    /** What discovery needs of the connection. */
    interface Link {
        /** Sends a get IQ and waits for its answer; null on timeout. */
        IQ query(IQ request, Duration timeout) throws Exception;

        /** Sends raw stanza text. */
        void send(String xml);

        /** What receives for this connection: the {@code receiver} it passes to {@link #takeProbe}. */
        Object receiver();

        /** False once the connection this discovery is for has gone (its answers will not come). */
        boolean open();
    }

    private ServerMulticast() {
    }

    /** What the last verdict on {@code server} found (see {@link #KNOWN}), or null. */
    static Service known(String server) {
        return KNOWN.get(server);
    }

    /**
     * The multicast service {@code domain} may use on its {@code server} ({@code domain at
     * host:port}), or null (none offered, none that takes our stanzas, or none that delivers clean
     * copies): then every copy goes alone. A connection that cannot ask (nothing comes back to it)
     * gets what the process knows.
     */
    static Service discover(Link link, String server, String domain, Duration timeout) throws InterruptedException {
        String home = home(link, domain, timeout);
        if (home == null) {
            Service known = KNOWN.get(server);
            if (link.open()) {
                LOG.info("nothing sent to {} comes back to this connection (it holds none of the server's buckets): {}",
                        domain, known == null ? "each stanza is sent to its recipient"
                                : "it uses the multicast at " + known.jid() + " as this instance's other connections do");
            }
            return known;
        }
        Service found = verdict(link, home, domain, timeout);
        if (!link.open()) {
            LOG.debug("discovery on {} ended without a verdict: the connection it was for has gone", server);
        } else if (found == null) {
            KNOWN.remove(server);
        } else {
            KNOWN.put(server, found);
        }
        return found;
    }

    private static Service verdict(Link link, String home, String domain, Duration timeout) throws InterruptedException {
        int dot = domain.indexOf('.');
        List<String> candidates = new ArrayList<>();
        if (dot > 0) {
            String server = domain.substring(dot + 1);
            candidates.addAll(items(link, home, domain, server, timeout));
            candidates.add(server);
        }
        for (String candidate : candidates) {
            Service service = offered(link, home, candidate, timeout);
            if (service == null) {
                continue;
            }
            String problem = probe(link, home, domain, service.jid(), timeout);
            if (problem == null) {
                LOG.info("the server's XEP-0033 multicast at {} carries the rooms' broadcasts (up to {} addresses"
                        + " a stanza; {})", service.jid(), service.maxAddresses(),
                        service.inOrder() ? "in order with direct stanzas" : "every occupant's stanza goes through it, for order");
                return service;
            }
            LOG.info("not using the XEP-0033 multicast at {}: {}", service.jid(), problem);
        }
        if (link.open()) {
            LOG.info("no usable XEP-0033 multicast on the server: each stanza is sent to its recipient");
        }
        return null;
    }

    /**
     * An address of {@code domain} the server routes to this connection, or null if none came
     * back within {@code timeout} (the connection holds no bucket, or has gone).
     */
    private static String home(Link link, String domain, Duration timeout) throws InterruptedException {
        CompletableFuture<String> home = new CompletableFuture<>();
        List<String> tried = new ArrayList<>();
        try {
            for (int round = 0; round < HOME_ROUNDS && link.open(); round++) {
                StringBuilder xml = new StringBuilder();
                for (int i = 0; i < HOME_BATCH; i++) {
                    String jid = HOME_NODE + Long.toHexString(RANDOM.nextLong()) + "@" + domain;
                    HOMINGS.put(jid, new Homing(link.receiver(), home));
                    tried.add(jid);
                    xml.append("<message from=\"");
                    XmlText.appendAttribute(xml, domain).append("\" to=\"");
                    XmlText.appendAttribute(xml, jid).append("\"/>");
                }
                link.send(xml.toString());
                try {
                    // Earlier rounds' addresses stay in the running: a late one is as good.
                    String found = home.get(timeout.toMillis() / HOME_ROUNDS, TimeUnit.MILLISECONDS);
                    LOG.debug("answers to this connection go to {} (found in round {})", found, round + 1);
                    return found;
                } catch (TimeoutException notYet) {
                    // none of these is ours (yet): more addresses
                } catch (ExecutionException impossible) {
                    throw new IllegalStateException(impossible);
                }
            }
            return null;
        } finally {
            tried.forEach(HOMINGS::remove);
        }
    }

    private static List<String> items(Link link, String home, String domain, String server, Duration timeout)
            throws InterruptedException {
        IQ answer = ask(link, home, server, "http://jabber.org/protocol/disco#items", timeout);
        List<String> jids = new ArrayList<>();
        if (answer != null && answer.getType() == IQ.Type.result && answer.getChildElement() != null) {
            for (Element item : answer.getChildElement().elements("item")) {
                String jid = item.attributeValue("jid");
                if (jid != null && item.attributeValue("node") == null && !jid.equals(domain)) {
                    jids.add(jid);
                }
            }
        }
        return jids;
    }

    /** The service at {@code jid} if its disco#info offers multicast, with its limit. */
    private static Service offered(Link link, String home, String jid, Duration timeout) throws InterruptedException {
        IQ answer = ask(link, home, jid, "http://jabber.org/protocol/disco#info", timeout);
        if (answer == null || answer.getType() != IQ.Type.result || answer.getChildElement() == null) {
            return null;
        }
        Element query = answer.getChildElement();
        boolean multicast = false;
        boolean inOrder = false;
        for (Element feature : query.elements("feature")) {
            multicast |= XmlNamespaces.ADDRESS.equals(feature.attributeValue("var"));
            inOrder |= IN_ORDER.equals(feature.attributeValue("var"));
        }
        return multicast ? new Service(jid, maxAddresses(query), inOrder) : null;
    }

    /**
     * The limit the service publishes (XEP-0128 form of type {@link XmlNamespaces#ADDRESS}, fields
     * {@code message} and {@code presence}, as ejabberd does): the smaller of the two.
     */
    static int maxAddresses(Element discoInfo) {
        int max = Integer.MAX_VALUE;
        for (Element x : discoInfo.elements(QName.get(DataForm.ELEMENT_NAME, DataForm.NAMESPACE))) {
            DataForm form = new DataForm(x);
            if (!XmlNamespaces.ADDRESS.equals(fieldValue(form, "FORM_TYPE"))) {
                continue;
            }
            for (String field : List.of("message", "presence")) {
                String value = fieldValue(form, field);
                try {
                    if (value != null && Integer.parseInt(value) > 0) {
                        max = Math.min(max, Integer.parseInt(value));
                    }
                } catch (NumberFormatException notANumber) {
                    // "infinite" or junk: no limit from this field
                }
            }
        }
        return max == Integer.MAX_VALUE ? DEFAULT_MAX_ADDRESSES : max;
    }

    /** The field's first value, trimmed; null if the form has no such field or it no value. */
    private static String fieldValue(DataForm form, String var) {
        FormField field = form.getField(var);
        return field == null ? null : field.getFirstValue();
    }

    /** Asks {@code to} from {@code home}, so that the answer comes back to this connection. */
    private static IQ ask(Link link, String home, String to, String namespace, Duration timeout) throws InterruptedException {
        IQ request = new IQ(IQ.Type.get);
        request.setFrom(home);
        request.setTo(to);
        request.setChildElement("query", namespace);
        try {
            long start = System.nanoTime();
            IQ answer = link.query(request, timeout);
            LOG.debug("{} of {}: {}", namespace.substring(namespace.indexOf('#') + 1), to, answer == null
                    ? "no answer within " + timeout.toMillis() + " ms"
                    : answer.getType() + " after " + (System.nanoTime() - start) / 1_000_000 + " ms");
            return answer;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            LOG.debug("disco of {} failed: {}", to, e.getMessage());
            return null;
        }
    }

    /**
     * Sends the service a stanza for our {@code home} and reads the copy: null if it came back
     * clean, else what was wrong. A copy that went to another instance is tried again under
     * another sender (a server may balance a domain's connections by sender).
     */
    private static String probe(Link link, String home, String domain, String service, Duration timeout)
            throws InterruptedException {
        String problem = null;
        for (int attempt = 0; attempt < PROBE_TRIES; attempt++) {
            String id = PROBE_ID + Long.toHexString(RANDOM.nextLong());
            CompletableFuture<Element> copy = new CompletableFuture<>();
            PROBES.put(id, copy);
            try {
                StringBuilder xml = new StringBuilder("<message from=\"");
                XmlText.appendAttribute(xml, id + "@" + domain).append("\" to=\"");
                XmlText.appendAttribute(xml, service).append("\" id=\"").append(id).append("\"><addresses xmlns=\"")
                        .append(XmlNamespaces.ADDRESS).append("\"><address type=\"bcc\" jid=\"");
                XmlText.appendAttribute(xml, home).append("\"/></addresses></message>");
                link.send(xml.toString());
                Element got = copy.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if ("error".equals(got.attributeValue("type"))) {
                    Element error = got.element("error");
                    return "it refused our stanza (" + (error == null ? "an error" : error.asXML()) + ")";
                }
                if (got.element("addresses") != null) {
                    return "it leaves <addresses/> on the copies it delivers";
                }
                return null;
            } catch (TimeoutException e) {
                problem = "no copy of a probe came back within " + timeout.toSeconds() + " s";
                LOG.debug("probe {} of {}: {}", attempt + 1, service, problem);
            } catch (ExecutionException e) {
                return "the probe failed: " + e.getCause();
            } finally {
                PROBES.remove(id);
            }
        }
        return problem;
    }

    /**
     * True if {@code stanza}, received by {@code receiver}, is a message a connection sent itself
     * to find its home, a probe's copy (from the probe's sender) or the service's error (to it):
     * taken here, not handed to the rooms. One that nobody here waits for (another connection's,
     * another instance's, or late) is dropped all the same. Nobody else can send from our domain.
     */
    static boolean takeProbe(Element stanza, String domain, Object receiver) {
        if (!"message".equals(stanza.getName())) {
            return false;
        }
        String to = stanza.attributeValue("to");
        if (domain.equals(stanza.attributeValue("from")) && to != null && to.startsWith(HOME_NODE)
                && to.endsWith("@" + domain)) {
            Homing homing = HOMINGS.get(to);
            if (homing != null && homing.receiver() == receiver) {
                homing.home().complete(to);
            }
            return true;
        }
        String id = stanza.attributeValue("id");
        if (id == null || !id.startsWith(PROBE_ID)) {
            return false;
        }
        String sender = id + "@" + domain;
        if (!sender.equals(stanza.attributeValue("from")) && !sender.equals(stanza.attributeValue("to"))) {
            return false;
        }
        CompletableFuture<Element> probe = PROBES.get(id);
        if (probe != null) {
            probe.complete(stanza);
        }
        return true;
    }
}
