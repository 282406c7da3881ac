package org.reconmuc.component.transport;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import org.dom4j.Element;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing (Jazzer) of what the reader thread does with the bytes after the
 * server's stream header: frames from {@link XmlFramer}, each whole one parsed by
 * {@link StanzaParser}, each refused one's head read by {@link StanzaHead} and answered by
 * {@link StreamXml#errorReply}. Only the framer may end the stream ({@link StreamException},
 * or the end of the input); the parser refuses a stanza only with a {@link StreamException} whose
 * cause is the XML parser's, a decoding error or dom4j refusing a name, never with anything
 * else; the head reader and the error reply never throw; whatever parses keeps within the
 * framer's depth; and a stream that is well-formed XML without RFC 6120's restricted XML (as the
 * JDK's parser judges the whole of it) is never ended by the framer, nor any of its stanzas
 * refused by the parser (other than for size or depth). {@code mvn test} replays {@code StanzaPipelineFuzzTestInputs}; {@code JAZZER_FUZZ=1} fuzzes.
 */
class StanzaPipelineFuzzTest {

    private static final byte[] HEADER = ("<stream:stream xmlns='jabber:component:accept'"
            + " xmlns:stream='http://etherx.jabber.org/streams' from='reconmuc.localhost' id='f1'>")
            .getBytes(StandardCharsets.UTF_8);
    private static final byte[] CLOSE = "</stream:stream>".getBytes(StandardCharsets.UTF_8);
    private static final String DOMAIN = "reconmuc.localhost";

    @FuzzTest(maxDuration = "30s")
    void onlyTheFramerEndsTheStream(byte[] input) throws IOException {
        byte[] stream = new byte[HEADER.length + input.length + CLOSE.length];
        System.arraycopy(HEADER, 0, stream, 0, HEADER.length);
        System.arraycopy(input, 0, stream, HEADER.length, input.length);
        System.arraycopy(CLOSE, 0, stream, HEADER.length + input.length, CLOSE.length);
        // What XMPP allows on a stream (well-formed, none of RFC 6120's restricted XML) must be
        // framed whole and each of its stanzas parsed: the component must not be stricter than XML.
        boolean xmppWellFormed = acceptableXmpp(stream);
        XmlFramer framer = new XmlFramer(new ByteArrayInputStream(stream), 4096, XmlLimits.MAX_DEPTH);
        StanzaParser parser = new StanzaParser();
        try {
            XmlFramer.Frame header = framer.next();
            for (int i = 0; i <= input.length + 1; i++) {
                XmlFramer.Frame f = framer.next();
                switch (f.kind()) {
                    case ELEMENT -> parseOrRefuse(parser, header, f, xmppWellFormed);
                    case DISCARDED -> answer(f, "policy-violation");
                    case STREAM_END -> {
                        return;
                    }
                    default -> { }
                }
            }
            throw new AssertionError("more frames than bytes");
        } catch (StreamException e) {
            // the framer ended the stream: allowed for what is not acceptable XMPP
            if (xmppWellFormed) {
                throw new AssertionError("the framer refused a well-formed stream", e);
            }
        } catch (EOFException e) {
            if (xmppWellFormed) {
                throw new AssertionError("the framer did not see the end of a well-formed stream", e);
            }
        }
    }

    /**
     * The element's name and its attributes' are QNames (Namespaces in XML §4; XMPP is namespace-well-formed):
     * the JDK's parser reads {@code <:n>} as the local name ":n" where dom4j refuses it, as it should
     * (Jazzer's finding of 2026-11-29).
     */
    private static boolean namespaceWellFormed(XMLStreamReader r) {
        if (r.getLocalName().indexOf(':') >= 0) {
            return false;
        }
        for (int i = 0; i < r.getAttributeCount(); i++) {
            if (r.getAttributeLocalName(i).indexOf(':') >= 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The stream is well-formed XML, namespace-well-formed, without comments, PIs, DTDs or entity
     * references, and with nothing but whitespace between its stanzas.
     */
    private static boolean acceptableXmpp(byte[] stream) {
        String document;
        try {
            document = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(stream)).toString();
        } catch (CharacterCodingException e) {
            return false;
        }
        try {
            XMLStreamReader r = FACTORY.createXMLStreamReader(new StringReader(document));
            int rootsClosed = 0;
            int depth = 0;
            while (r.hasNext()) {
                switch (r.next()) {
                    case XMLStreamConstants.START_ELEMENT -> {
                        if (rootsClosed > 0 || !namespaceWellFormed(r)) {
                            return false;
                        }
                        depth++;
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        if (--depth == 0) {
                            rootsClosed++;
                        }
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
                        // Between stanzas XMPP allows whitespace only (the framer ignores stray text,
                        // and refuses a CDATA section there: Jazzer's first finding for this check).
                        if (depth == 1 && !r.getText().chars().allMatch(XmlFramer::isXmlWhitespace)) {
                            return false;
                        }
                    }
                    case XMLStreamConstants.COMMENT, XMLStreamConstants.PROCESSING_INSTRUCTION, XMLStreamConstants.DTD,
                            XMLStreamConstants.ENTITY_REFERENCE -> {
                        return false;
                    }
                    default -> { }
                }
            }
            return rootsClosed == 1;
        } catch (XMLStreamException | RuntimeException e) {
            return false;
        }
    }

    private static final XMLInputFactory FACTORY = StanzaParser.newHardenedFactory();

    private static void parseOrRefuse(StanzaParser parser, XmlFramer.Frame header, XmlFramer.Frame f, boolean xmppWellFormed) {
        try {
            Element e = parser.parseElement(header.bytes(), header.name(), f.bytes()).element();
            if (depth(e) > XmlLimits.MAX_DEPTH) {
                throw new AssertionError("parsed deeper than the framer's limit: " + depth(e));
            }
        } catch (StreamException e) {
            if (xmppWellFormed) {
                throw new AssertionError("the parser refused a stanza of a well-formed stream", e);
            }
            Throwable cause = e.getCause();
            if (cause != null && !(cause instanceof XMLStreamException) && !(cause instanceof CharacterCodingException)
                    && !(cause instanceof IllegalArgumentException)) {
                throw new AssertionError("the parser failed unexpectedly", cause);
            }
            answer(f, "bad-request");
        }
    }

    private static void answer(XmlFramer.Frame f, String condition) {
        Element head = StanzaHead.read(f.bytes());
        if (head != null) {
            Element reply = StreamXml.errorReply(head, DOMAIN, condition, "fuzz");
            if (reply != null) {
                String xml = reply.asXML();
                StreamXml.outgoingProblem(DOMAIN, reply.attributeValue("from"), xml);
            }
        }
    }

    private static int depth(Element e) {
        int max = 0;
        for (Element child : e.elements()) {
            max = Math.max(max, depth(child));
        }
        return max + 1;
    }
}
