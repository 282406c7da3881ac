package org.reconmuc.component.transport;

import static org.reconmuc.component.transport.LogThrottle.suppressedNote;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.dom4j.Element;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.component.Component;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * What arrives on an established connection, on its reader thread: a stanza goes to the answer
 * it waits for ({@link PendingQueries}), is taken as our multicast probe's copy, or is handed to
 * the component; one the component will not get (an unusable address, too large, too deep) is
 * answered with an error of its kind. The component's failures are logged, never fatal.
 */
final class InboundStanzas {
    private static final Logger log = LoggerFactory.getLogger(InboundStanzas.class);

    private final String domain;
    private final int maxStanzaBytes;
    private final Component component;
    private final PendingQueries queries;
    private final OutboundStanzas outbound;
    private final ConnectionState state;
    private final AtomicLong discarded = new AtomicLong();
    private final LogThrottle processingErrors = new LogThrottle(Duration.ofSeconds(10));
    private final LogThrottle discardReports = new LogThrottle(Duration.ofSeconds(10));

    InboundStanzas(String domain, int maxStanzaBytes, Component component, PendingQueries queries,
                   OutboundStanzas outbound, ConnectionState state) {
        this.domain = domain;
        this.maxStanzaBytes = maxStanzaBytes;
        this.component = component;
        this.queries = queries;
        this.outbound = outbound;
        this.state = state;
    }

    /** A complete element arrived on an established connection. */
    void element(StanzaParser.Parsed parsed) {
        Element e = parsed.element();
        String name = e.getName();
        boolean stanza = (name.equals("message") || name.equals("presence") || name.equals("iq"))
                && parsed.namespace() != null && StanzaParser.CONTENT_NAMESPACES.contains(parsed.namespace());
        if (!stanza) {
            log.debug("ignoring top-level element <{}> in namespace {}", name, parsed.namespace());
            return;
        }
        if (state.closed() || ServerMulticast.takeProbe(e, domain, this)) {
            return;
        }
        Packet packet;
        try {
            packet = switch (name) {
                case "message" -> new Message(e, true);
                case "presence" -> new Presence(e, true);
                default -> new IQ(e, true);
            };
        } catch (RuntimeException ex) {
            // Tinder still splits the addresses and refuses e.g. "a@" or "b/".
            log.debug("dropping a received <{}> with an unusable address: {}", name, ex.getMessage());
            bounce(e, "jid-malformed", "Malformed address");
            return;
        }
        if (log.isTraceEnabled()) {
            log.trace("RECV {}", packet.toXML());
        }
        if (packet instanceof IQ iq && queries.deliver(e, iq)) {
            return;
        }
        try {
            component.processPacket(packet);
        } catch (RuntimeException | StackOverflowError | AssertionError ex) {
            long suppressed = processingErrors.acquire();
            if (suppressed >= 0) {
                log.error("the component failed to process a <{}>; the connection carries on{}",
                        name, suppressedNote(suppressed), ex);
            }
        }
    }

    /** A stanza the framer cut short (too large or too deep): counted, logged, answered if it can be. */
    void discarded(XmlFramer.Frame f) {
        String text = f.tooDeep()
                ? "Stanza nested too deeply: limit is " + XmlLimits.MAX_DEPTH + " levels"
                : "Stanza too large: limit is " + maxStanzaBytes + " bytes";
        refuse(f, "policy-violation", text);
    }

    /**
     * A stanza the framer cut out whole but the parser refused (over one of {@link XmlLimits},
     * or not well-formed XML inside it): counted, logged, answered if it can be. The stream goes
     * on: the framer knows where the next stanza starts, whatever this one held. An XML error's
     * reason is logged, not sent: its wording differs between JDKs and its positions are in a
     * document the sender never wrote.
     */
    void unparsable(XmlFramer.Frame f, StreamException e) {
        if ("policy-violation".equals(e.condition())) {
            refuse(f, "policy-violation", e.getMessage());
            return;
        }
        log.debug("the parser refused a received <{}>: {}", abbreviate(f.name()), abbreviate(String.valueOf(e.getMessage())));
        refuse(f, "bad-request", "Stanza is not well-formed XML");
    }

    private void refuse(XmlFramer.Frame f, String condition, String text) {
        discarded.incrementAndGet();
        long suppressed = discardReports.acquire();
        if (suppressed >= 0) {
            log.info("discarded a received <{}> of {} bytes: {}{}", abbreviate(f.name()), f.size(), text,
                    suppressedNote(suppressed));
        }
        Element head = StanzaHead.read(f.bytes());
        if (head == null) {
            log.debug("cannot answer the discarded <{}>: no sender and kind can be read safely from its start tag",
                    abbreviate(f.name()));
            return;
        }
        bounce(head, condition, text);
    }

    /** Names and parser messages quote what the sender wrote, which may be huge. */
    private static String abbreviate(String s) {
        return s == null || s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    /** Answers a received stanza we will not hand to the component with an error of the same kind. */
    private void bounce(Element original, String condition, String text) {
        Element reply = StreamXml.errorReply(original, domain, condition, text);
        if (reply == null) {
            return;
        }
        String xml = reply.asXML();
        String problem = StreamXml.outgoingProblem(domain, reply.attributeValue("from"), xml);
        if (problem != null) {
            log.debug("not answering a discarded stanza: {}", problem);
            return;
        }
        outbound.enqueue(xml);
    }

    /** Received stanzas discarded for being too large or nested too deeply. */
    long discardedCount() {
        return discarded.get();
    }
}
