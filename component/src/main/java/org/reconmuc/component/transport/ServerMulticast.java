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
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.XmlText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.packet.IQ;

/**
 * XEP-0033 multicast as the host server offers it to a component: found by service discovery
 * (the server's disco#items, then the server itself), and used only after a probe showed that it
 * takes the component's stanzas and hands on a clean copy (no {@code <addresses/>} left on it:
 * Openfire 5.1.1 leaves an empty one, so its multicast is not used).
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
    /**
     * Probes waiting for their copy, by id, for the whole process: the server may hand the copy to
     * another connection of the same domain (an instance has several).
     */
    private static final Map<String, CompletableFuture<Element>> PROBES = new ConcurrentHashMap<>();
    private static final SecureRandom RANDOM = new SecureRandom();

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
    }

    private ServerMulticast() {
    }

    /**
     * The multicast service {@code domain} may use on its server, or null (none offered, none that
     * takes our stanzas, or none that delivers clean copies): then every copy goes alone.
     */
    static Service discover(Link link, String domain, Duration timeout) throws InterruptedException {
        int dot = domain.indexOf('.');
        List<String> candidates = new ArrayList<>();
        if (dot > 0) {
            String server = domain.substring(dot + 1);
            candidates.addAll(items(link, domain, server, timeout));
            candidates.add(server);
        }
        for (String candidate : candidates) {
            Service service = offered(link, domain, candidate, timeout);
            if (service == null) {
                continue;
            }
            String problem = probe(link, domain, service.jid(), timeout);
            if (problem == null) {
                LOG.info("the server's XEP-0033 multicast at {} carries the rooms' broadcasts (up to {} addresses"
                        + " a stanza; {})", service.jid(), service.maxAddresses(),
                        service.inOrder() ? "in order with direct stanzas" : "every occupant's stanza goes through it, for order");
                return service;
            }
            LOG.info("not using the XEP-0033 multicast at {}: {}", service.jid(), problem);
        }
        LOG.info("no usable XEP-0033 multicast on the server: each stanza is sent to its recipient");
        return null;
    }

    private static List<String> items(Link link, String domain, String server, Duration timeout) throws InterruptedException {
        IQ answer = ask(link, domain, server, "http://jabber.org/protocol/disco#items", timeout);
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
    private static Service offered(Link link, String domain, String jid, Duration timeout) throws InterruptedException {
        IQ answer = ask(link, domain, jid, "http://jabber.org/protocol/disco#info", timeout);
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
        for (Element form : discoInfo.elements("x")) {
            if (!"jabber:x:data".equals(form.getNamespaceURI()) || !XmlNamespaces.ADDRESS.equals(fieldValue(form, "FORM_TYPE"))) {
                continue;
            }
            for (String field : List.of("message", "presence")) {
                String value = fieldValue(form, field);
                try {
                    if (value != null && Integer.parseInt(value.trim()) > 0) {
                        max = Math.min(max, Integer.parseInt(value.trim()));
                    }
                } catch (NumberFormatException notANumber) {
                    // "infinite" or junk: no limit from this field
                }
            }
        }
        return max == Integer.MAX_VALUE ? DEFAULT_MAX_ADDRESSES : max;
    }

    private static String fieldValue(Element form, String var) {
        for (Element field : form.elements("field")) {
            if (var.equals(field.attributeValue("var"))) {
                return field.elementText("value");
            }
        }
        return null;
    }

    private static IQ ask(Link link, String domain, String to, String namespace, Duration timeout) throws InterruptedException {
        IQ request = new IQ(IQ.Type.get);
        request.setFrom(domain);
        request.setTo(to);
        request.setChildElement("query", namespace);
        try {
            return link.query(request, timeout);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            LOG.debug("disco of {} failed: {}", to, e.getMessage());
            return null;
        }
    }

    /**
     * Sends the service a stanza for ourselves and reads the copy: null if it came back clean,
     * else what was wrong. A copy that went to another instance is tried again under another
     * sender (a server may balance a domain's connections by sender).
     */
    private static String probe(Link link, String domain, String service, Duration timeout) throws InterruptedException {
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
                XmlText.appendAttribute(xml, domain).append("\"/></addresses></message>");
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
            } catch (ExecutionException e) {
                return "the probe failed: " + e.getCause();
            } finally {
                PROBES.remove(id);
            }
        }
        return problem;
    }

    /**
     * True if {@code stanza} is a probe's copy (from the probe's sender) or the service's error
     * (to it): taken here, not handed to the rooms. One whose probe is not waiting here (another
     * instance's, or late) is dropped all the same. Nobody else can send from that sender.
     */
    static boolean takeProbe(Element stanza, String domain) {
        String id = stanza.attributeValue("id");
        if (!"message".equals(stanza.getName()) || id == null || !id.startsWith(PROBE_ID)) {
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
