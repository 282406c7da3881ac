package org.reconmuc.component.transport;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits the byte stream received from the server into its stream header and its top-level
 * elements (stanzas), without parsing them. It only knows XML's lexical structure (tags, quoted
 * attribute values, CDATA sections, references), which is enough to find where each top-level
 * element ends; each complete element is then parsed on its own by {@link StanzaParser}.
 *
 * <p>Why not one StAX parser over the socket: the JDK parser does hand out events without waiting
 * to fill its buffer, but (1) it reads ahead, so the bytes read from the socket cannot be
 * attributed exactly to a stanza, and (2) it would buffer a huge attribute value or text node
 * entirely. Framing here counts the real bytes of every stanza and discards an oversized stanza
 * while it streams past, keeping at most {@code maxStanzaBytes} of it in memory.
 *
 * <p>What XMPP forbids (RFC 6120 section 11.1) is rejected here, before any parser sees it: a
 * DOCTYPE or any other markup declaration, comments and processing instructions
 * ({@code restricted-xml}), and any reference to an entity other than the five predefined ones
 * and character references ({@code restricted-xml}). The XML declaration is allowed once, before
 * the stream header. Everything arriving in one stream is read by one thread; not thread-safe.
 */
final class XmlFramer {

    enum Kind {
        /** The stream's opening tag; {@link Frame#bytes()} is the whole start tag. */
        HEADER,
        /** A complete top-level element; {@link Frame#bytes()} is all of it. */
        ELEMENT,
        /**
         * A top-level element that exceeded the size or depth limit and was discarded;
         * {@link Frame#bytes()} is its start tag if that tag fit within the limit, else null.
         */
        DISCARDED,
        /** The server's closing {@code </stream:stream>}. */
        STREAM_END
    }

    /**
     * One frame. {@code name} is the element's qualified name as written (e.g. {@code message},
     * {@code stream:error}), or null if not known; {@code size} is the number of bytes the element
     * took on the wire; {@code tooDeep} tells a discarded element was nested too deeply (as opposed
     * to too large).
     */
    record Frame(Kind kind, byte[] bytes, String name, long size, boolean tooDeep) {
    }

    /** Largest stream header (and XML declaration) accepted. */
    static final int MAX_HEADER_BYTES = 16 * 1024;
    private static final int MAX_XML_DECL_BYTES = 1024;
    private static final int MAX_REFERENCE_LENGTH = 16;
    private static final byte[] CDATA_START = "[CDATA[".getBytes(StandardCharsets.US_ASCII);

    private enum State {
        TEXT, LT, START_TAG, ATTR_VALUE, END_TAG, BANG, CDATA, XML_DECL, REFERENCE
    }

    private final InputStream in;
    private final int maxStanzaBytes;
    private final int maxDepth;
    private final byte[] buf = new byte[16 * 1024];
    private int pos;
    private int end;
    private long totalBytes;

    private State state = State.TEXT;
    /** 0: before the stream header; 1: inside the stream, between stanzas; 2 or more: inside a stanza. */
    private int level;
    private boolean xmlDeclAllowed = true;
    private boolean sawNonWhitespaceText;

    // Scratch for the current token.
    private int prev;              // previous byte within a start tag
    private int quote;             // quote character of the current attribute value
    private State afterReference;  // state to return to after a reference
    private final byte[] reference = new byte[MAX_REFERENCE_LENGTH];
    private int referenceLength;
    private int bangLength;
    private int cdataBrackets;
    private int declLength;
    private boolean topTag;        // the start tag being scanned is the header's or a stanza's

    // Capture of the current top-level element.
    private boolean capturing;
    private byte[] capture = new byte[4096];
    private int captureLength;
    private long elementBytes;
    private int captureLimit;
    private boolean discarding;
    private boolean tooDeep;
    private int nameEnd;           // index in capture where the top element's name ends, or -1
    private int startTagEnd;       // length of the top element's start tag in capture, or -1

    XmlFramer(InputStream in, int maxStanzaBytes, int maxDepth) {
        this.in = in;
        this.maxStanzaBytes = maxStanzaBytes;
        this.maxDepth = maxDepth;
    }

    /** Bytes read from the stream so far. */
    long totalBytes() {
        return totalBytes;
    }

    /** True if character data other than whitespace was seen between stanzas (it is ignored). */
    boolean sawNonWhitespaceText() {
        return sawNonWhitespaceText;
    }

    /**
     * Reads until the next frame is complete. Blocks on the stream as needed, but never asks
     * for more bytes than it needs to complete the frame.
     *
     * @throws EOFException if the stream ends before the server closed the XML stream
     * @throws StreamException if the stream is not acceptable XML (the condition says why)
     */
    Frame next() throws IOException, StreamException {
        while (true) {
            if (pos == end) {
                int n = in.read(buf, 0, buf.length);
                if (n < 0) {
                    throw new EOFException(level == 0 ? "stream ended before the stream header"
                            : level == 1 ? "stream ended without </stream:stream>" : "stream ended inside a stanza");
                }
                pos = 0;
                end = n;
                totalBytes += n;
            }
            while (pos < end) {
                Frame frame = step(buf[pos++] & 0xff);
                if (frame != null) {
                    return frame;
                }
            }
        }
    }

    private Frame step(int b) throws StreamException {
        if (capturing) {
            elementBytes++;
            if (!discarding) {
                if (captureLength >= captureLimit) {
                    if (level == 0) {
                        throw new StreamException("policy-violation", "stream header longer than " + MAX_HEADER_BYTES + " bytes");
                    }
                    discarding = true;
                } else {
                    if (captureLength == capture.length) {
                        capture = Arrays.copyOf(capture, Math.min(capture.length * 2, Math.max(captureLimit, 16)));
                    }
                    capture[captureLength++] = (byte) b;
                }
            }
        }
        switch (state) {
            case TEXT:
                if (b == '<') {
                    if (level <= 1) {
                        beginCapture();   // captures this '<'
                    }
                    state = State.LT;
                } else if (b == '&' && level >= 2) {
                    beginReference(State.TEXT);
                } else if (level <= 1 && !isXmlWhitespace(b)) {
                    sawNonWhitespaceText = true;  // ignored: not part of any stanza
                }
                return null;
            case LT:
                return afterLt(b);
            case START_TAG:
                return inStartTag(b);
            case ATTR_VALUE:
                if (b == quote) {
                    state = State.START_TAG;
                    prev = b;
                } else if (b == '<') {
                    throw StreamException.notWellFormed("'<' in an attribute value");
                } else if (b == '&') {
                    beginReference(State.ATTR_VALUE);
                }
                return null;
            case END_TAG:
                if (b == '>') {
                    state = State.TEXT;
                    level--;
                    if (level == 0) {
                        capturing = false;
                        return new Frame(Kind.STREAM_END, null, null, elementBytes, false);
                    }
                    if (level == 1) {
                        return completeElement();
                    }
                } else if (b == '<') {
                    throw StreamException.notWellFormed("'<' in an end tag");
                }
                return null;
            case BANG:
                if (b != CDATA_START[bangLength]) {
                    throw StreamException.restrictedXml("comments, DOCTYPE and markup declarations are not allowed");
                }
                if (++bangLength == CDATA_START.length) {
                    if (level < 2) {
                        throw StreamException.notWellFormed("CDATA section outside any stanza");
                    }
                    state = State.CDATA;
                    cdataBrackets = 0;
                }
                return null;
            case CDATA:
                if (b == ']') {
                    cdataBrackets++;
                } else if (b == '>' && cdataBrackets >= 2) {
                    state = State.TEXT;
                } else {
                    cdataBrackets = 0;
                }
                return null;
            case XML_DECL:
                return inXmlDecl(b);
            case REFERENCE:
                inReference(b);
                return null;
            default:
                throw new IllegalStateException(state.toString());
        }
    }

    private Frame afterLt(int b) throws StreamException {
        switch (b) {
            case '/':
                if (level == 0) {
                    throw StreamException.notWellFormed("end tag before the stream header");
                }
                state = State.END_TAG;
                return null;
            case '!':
                state = State.BANG;
                bangLength = 0;
                return null;
            case '?':
                if (level == 0 && xmlDeclAllowed) {
                    state = State.XML_DECL;
                    declLength = 0;
                    capturing = false;   // the declaration is checked here, not kept
                    return null;
                }
                throw StreamException.restrictedXml("processing instructions are not allowed");
            default:
                if (isXmlWhitespace(b) || b == '>' || b == '<' || b == '=' || b == '"' || b == '\'' || b == '&') {
                    throw StreamException.notWellFormed("bad character after '<'");
                }
                state = State.START_TAG;
                topTag = level <= 1;
                prev = b;
                return null;
        }
    }

    private Frame inStartTag(int b) throws StreamException {
        if (topTag && nameEnd < 0 && (isXmlWhitespace(b) || b == '/' || b == '>') && !discarding) {
            nameEnd = captureLength - 1;
        }
        if (b == '"' || b == '\'') {
            quote = b;
            state = State.ATTR_VALUE;
            return null;
        }
        if (b == '<') {
            throw StreamException.notWellFormed("'<' in a start tag");
        }
        if (b != '>') {
            prev = b;
            return null;
        }
        boolean empty = prev == '/';
        state = State.TEXT;
        if (level == 0) {
            if (empty || discarding) {
                throw StreamException.notWellFormed("empty stream header");
            }
            level = 1;
            topTag = false;
            xmlDeclAllowed = false;
            capturing = false;
            return new Frame(Kind.HEADER, Arrays.copyOf(capture, captureLength), topName(), elementBytes, false);
        }
        if (topTag) {
            topTag = false;
            if (!discarding) {
                startTagEnd = captureLength;
            }
            if (empty) {
                return completeElement();
            }
            level = 2;
            return null;
        }
        // An element at 'level' is at depth 'level' (the stanza is depth 1); an empty one counts
        // too, so that no element the parser sees is deeper than the framer's limit.
        if (level > maxDepth && !discarding) {
            discarding = true;
            tooDeep = true;
        }
        if (!empty) {
            level++;
        }
        return null;
    }

    private Frame inXmlDecl(int b) throws StreamException {
        declLength++;
        if (declLength <= 4) {
            // "<?" must be followed by "xml" and whitespace: any other target is a processing instruction.
            boolean ok = declLength == 4 ? isXmlWhitespace(b) : b == "xml".charAt(declLength - 1);
            if (!ok) {
                throw StreamException.restrictedXml("processing instructions are not allowed");
            }
        } else if (b == '>' && prev == '?') {
            state = State.TEXT;
            xmlDeclAllowed = false;
        } else if (declLength > MAX_XML_DECL_BYTES) {
            throw StreamException.notWellFormed("XML declaration too long");
        }
        prev = b;
        return null;
    }

    private void beginReference(State returnTo) {
        afterReference = returnTo;
        referenceLength = 0;
        state = State.REFERENCE;
    }

    private void inReference(int b) throws StreamException {
        if (b != ';') {
            if (referenceLength == MAX_REFERENCE_LENGTH && reference[0] == '#' && isDigitOf(reference, b)) {
                return;   // a character reference may have any number of leading zeros: checked, not kept
            }
            if (referenceLength == MAX_REFERENCE_LENGTH) {
                throw isNameByte(reference[0] & 0xff)
                        ? StreamException.restrictedXml("entity references are not allowed")
                        : StreamException.notWellFormed("bad reference");
            }
            if (isXmlWhitespace(b) || b == '<' || b == '&' || b == '"' || b == '\'' || b == '>') {
                throw StreamException.notWellFormed("'&' that does not start a reference");
            }
            reference[referenceLength++] = (byte) b;
            return;
        }
        String name = new String(reference, 0, referenceLength, StandardCharsets.ISO_8859_1);
        switch (name) {
            case "lt", "gt", "amp", "quot", "apos":
                break;
            default:
                if (name.isEmpty()) {
                    throw StreamException.notWellFormed("empty reference");
                }
                if (name.charAt(0) == '#') {
                    boolean hex = name.length() > 1 && name.charAt(1) == 'x';
                    String digits = name.substring(hex ? 2 : 1);
                    if (digits.isEmpty() || !digits.chars().allMatch(c -> hex ? Character.digit(c, 16) >= 0 : c >= '0' && c <= '9')) {
                        throw StreamException.notWellFormed("bad character reference");
                    }
                    break;  // the parser checks the value is an allowed character
                }
                throw StreamException.restrictedXml("entity references are not allowed (&" + name + ";)");
        }
        state = afterReference;
    }

    /** True if {@code b} is a digit of the character reference begun in {@code ref} (decimal, or hex after "#x"). */
    private static boolean isDigitOf(byte[] ref, int b) {
        return ref[1] == 'x' ? Character.digit(b, 16) >= 0 : b >= '0' && b <= '9';
    }

    private void beginCapture() {
        capturing = true;
        captureLength = 0;
        elementBytes = 0;
        captureLimit = level == 0 ? MAX_HEADER_BYTES : maxStanzaBytes;
        discarding = false;
        tooDeep = false;
        nameEnd = -1;
        startTagEnd = -1;
        // Don't keep a huge buffer around because of one big stanza.
        if (capture.length > 64 * 1024) {
            capture = new byte[4096];
        }
        capture[captureLength++] = '<';
        elementBytes = 1;
    }

    private Frame completeElement() {
        capturing = false;
        String name = topName();
        if (discarding) {
            byte[] startTag = startTagEnd > 0 ? Arrays.copyOf(capture, startTagEnd) : null;
            return new Frame(Kind.DISCARDED, startTag, name, elementBytes, tooDeep);
        }
        return new Frame(Kind.ELEMENT, Arrays.copyOf(capture, captureLength), name, elementBytes, false);
    }

    private String topName() {
        return nameEnd > 1 ? new String(capture, 1, nameEnd - 1, StandardCharsets.UTF_8) : null;
    }

    static boolean isXmlWhitespace(int b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    private static boolean isNameByte(int b) {
        return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' || b == ':' || b >= 0x80;
    }
}
