package org.reconmuc.component.transport;

import static org.reconmuc.component.transport.StreamXml.CLOSE_STREAM;
import static org.reconmuc.component.transport.StreamXml.NS_STREAM;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.dom4j.Element;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.transport.ExternalComponentConnection.Tuning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection attempt's stream, on the reader thread: connect, our stream header, the
 * handshake (XEP-0114 §2), then every element read until the stream ends, an error closes it or
 * the socket fails. What it came to is an {@link Attempt}, for the reconnect loop to judge.
 */
final class ServerStream {
    private static final Logger log = LoggerFactory.getLogger(ServerStream.class);

    /** What one connection attempt came to. */
    record Attempt(boolean established, boolean authenticationFailed, String problemKind, String problem) {

        static Attempt closed(boolean established) {
            return new Attempt(established, false, null, null);
        }

        static Attempt failed(boolean established, String kind, String problem) {
            return new Attempt(established, false, kind, problem);
        }
    }

    /** The connection's side of an established stream. */
    interface Hooks {
        /** The handshake succeeded on {@code session}: its writer may start. */
        void established(ComponentSession session);

        /** The established stream is over (called before the socket is dropped). */
        void lost();
    }

    private final ServiceConfig config;
    private final Tuning tuning;
    private final String where;
    private final OutgoingQueue queue;
    private final ConnectionState state;
    private final InboundStanzas inbound;
    private final Hooks hooks;
    /** Set by {@link #holdHandshake()}: the first attempt waits for it after the server's stream header. */
    private volatile CountDownLatch handshakeHeld;
    /** Counted down once a held attempt waits at its handshake. */
    private final CountDownLatch readyForHandshake = new CountDownLatch(1);
    /** True once the server ended its stream (after ejabberd has dropped this connection's bucket). */
    private volatile boolean serverEndedStream;

    ServerStream(ServiceConfig config, Tuning tuning, String where, OutgoingQueue queue, ConnectionState state,
                 InboundStanzas inbound, Hooks hooks) {
        this.config = config;
        this.tuning = tuning;
        this.where = where;
        this.queue = queue;
        this.state = state;
        this.inbound = inbound;
        this.hooks = hooks;
    }

    /** See {@link ExternalComponentConnection#holdHandshake()}. */
    void holdHandshake() {
        handshakeHeld = new CountDownLatch(1);
    }

    boolean awaitReadyForHandshake(java.time.Duration timeout) throws InterruptedException {
        return readyForHandshake.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    void releaseHandshake() {
        CountDownLatch held = handshakeHeld;
        if (held != null) {
            held.countDown();
        }
    }

    boolean serverEndedStream() {
        return serverEndedStream;
    }

    /** Connects on {@code s}, shakes hands and reads until the stream is over. */
    Attempt serve(ComponentSession s) {
        if (state.closed()) {
            s.abort(tuning.closeFlushTimeout());
            return Attempt.closed(false);
        }
        boolean established = false;
        try {
            s.connect(new InetSocketAddress(config.serverHost(), config.serverPort()), tuning.connectTimeout());
            s.socket.setSoTimeout((int) tuning.handshakeTimeout().toMillis());
            s.writeNow(StreamXml.streamHeader(config.domain()));

            XmlFramer framer = new XmlFramer(s.socket.getInputStream(), config.maxStanzaBytes(),
                    XmlLimits.MAX_DEPTH);
            StanzaParser parser = new StanzaParser();
            XmlFramer.Frame headerFrame = framer.next();   // the framer returns the header first
            StanzaParser.Parsed header = parser.parseHeader(headerFrame.bytes(), headerFrame.name());
            if (!header.is("stream", NS_STREAM)) {
                throw new StreamException("invalid-namespace", "the server's stream header is <"
                        + headerFrame.name() + "> in namespace " + header.namespace());
            }
            String id = header.element().attributeValue("id");
            if (id == null || id.isEmpty()) {
                s.closeGracefully(CLOSE_STREAM, tuning.closeFlushTimeout());
                return Attempt.failed(false, "protocol", "the server's stream header has no id");
            }
            CountDownLatch held = handshakeHeld;
            if (held != null && readyForHandshake.getCount() > 0) {   // only the first attempt waits
                readyForHandshake.countDown();
                while (!held.await(50, TimeUnit.MILLISECONDS)) {
                    if (state.closed()) {
                        return Attempt.closed(false);
                    }
                }
            }
            s.writeNow(StreamXml.handshake(id, config.secret()));

            while (true) {
                XmlFramer.Frame f = framer.next();
                if (f.kind() == XmlFramer.Kind.STREAM_END) {
                    s.closeGracefully(CLOSE_STREAM, tuning.closeFlushTimeout());
                    return Attempt.failed(false, "closed", "the server closed the stream during the handshake");
                }
                if (f.kind() != XmlFramer.Kind.ELEMENT) {
                    continue;
                }
                StanzaParser.Parsed p = parser.parseElement(headerFrame.bytes(), headerFrame.name(), f.bytes());
                if (p.is("handshake", StreamXml.NS_ACCEPT)) {
                    break;
                }
                if (p.is("error", NS_STREAM)) {
                    return onServerStreamError(s, p.element(), false);
                }
                log.debug("ignoring <{}> received before the handshake completed", p.element().getName());
            }

            s.socket.setSoTimeout(0);
            established = true;
            hooks.established(s);
            boolean reportedStrayText = false;

            // Reads until the stream ends, also while a local close() is under way: stopping at
            // the close could reset the connection before the server has read our last stanzas.
            while (true) {
                XmlFramer.Frame f = framer.next();
                switch (f.kind()) {
                    case ELEMENT -> {
                        StanzaParser.Parsed p = parseOrRefuse(parser, headerFrame, f);   // null: refused, answered
                        if (p != null && p.is("error", NS_STREAM)) {
                            return onServerStreamError(s, p.element(), true);
                        } else if (p != null) {
                            inbound.element(p);
                        }
                    }
                    case DISCARDED -> inbound.discarded(f);
                    case STREAM_END -> {
                        serverEndedStream = true;
                        s.closeGracefully(CLOSE_STREAM, tuning.closeFlushTimeout());
                        return Attempt.failed(true, "closed", "the server closed the stream");
                    }
                    default -> log.debug("ignoring a second stream header");
                }
                if (!reportedStrayText && framer.sawNonWhitespaceText()) {
                    reportedStrayText = true;
                    log.debug("ignoring character data between stanzas");
                }
            }
        } catch (StreamException e) {
            if (state.closed()) {
                return Attempt.closed(established);
            }
            s.closeGracefully(StreamXml.streamError(e.condition(), null) + CLOSE_STREAM, tuning.closeFlushTimeout());
            return Attempt.failed(established, "local:" + e.condition(),
                    "closed the stream with stream error '" + e.condition() + "': " + e.getMessage());
        } catch (SocketTimeoutException e) {
            if (state.closed()) {
                return Attempt.closed(established);
            }
            s.closeGracefully(CLOSE_STREAM, tuning.closeFlushTimeout());
            return Attempt.failed(established, "io", "no answer from the server within "
                    + tuning.handshakeTimeout().toSeconds() + " s during the handshake");
        } catch (IOException e) {
            if (state.closed()) {
                return Attempt.closed(established);
            }
            return Attempt.failed(established, "io", describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Attempt.closed(established);
        } finally {
            if (established) {
                hooks.lost();
            }
            s.abort(tuning.closeFlushTimeout());
            if (established && !state.closed() && !queue.isEmpty()) {
                log.info("{} stanzas wait for the next connection to {}", queue.size(), where);
            }
        }
    }

    /**
     * The element parsed, or null when the parser refused it; then it is answered as a stanza
     * that costs only itself. What ends the stream is what the framer throws: it can no longer
     * tell where stanzas begin and end (a '<' inside a tag, an unterminated CDATA section,
     * a stray end tag), or the server sent what no server writes of a client's stanza (comments,
     * processing instructions, DTDs and entity references: servers write stanzas from their
     * parsed tree). Skipping those would mean trusting a stream that is already broken.
     * Invalid UTF-8 in the stream header ends the stream too; inside a stanza it is that
     * stanza's problem: the framer only looks at ASCII bytes, which UTF-8 never uses inside a
     * multi-byte character, so the frame boundary holds.
     */
    private StanzaParser.Parsed parseOrRefuse(StanzaParser parser, XmlFramer.Frame header, XmlFramer.Frame f) {
        try {
            return parser.parseElement(header.bytes(), header.name(), f.bytes());
        } catch (StreamException e) {
            inbound.unparsable(f, e);
            return null;
        }
    }

    private Attempt onServerStreamError(ComponentSession s, Element error, boolean established) {
        StreamXml.ServerStreamError e = StreamXml.ServerStreamError.of(error);
        s.closeGracefully(CLOSE_STREAM, tuning.closeFlushTimeout());
        if ("not-authorized".equals(e.condition()) && !established) {
            log.error("component handshake refused: wrong secret for {} at {}", config.domain(), where);
            return new Attempt(false, true, "not-authorized", "not-authorized");
        }
        return Attempt.failed(established, "stream-error:" + e.condition(), e.describe());
    }

    private static String describe(IOException e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
