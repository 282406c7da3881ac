package org.reconmuc.replay.meter;

/**
 * Finds the ends of top-level elements (stanzas, and stream-level elements such as features) in
 * an XMPP byte stream, without parsing it: a small state machine over tags, quotes, the XML
 * declaration and processing instructions. The stream's root element is depth 1; a new stream
 * header (the restart after SASL, RFC 6120 §6.4.6) opens depth 1 again.
 */
final class XmlStanzaTracker {
    private enum State { TEXT, TAG_OPEN, TAG, QUOTE, END_TAG, PI }

    private static final byte[] STREAM = "stream:stream".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final BotMeter meter;
    private State state = State.TEXT;
    private int depth;
    private boolean endTag;
    private boolean slash;
    private byte quote;
    /** While in a start tag's name: how many of its bytes matched "stream:stream" (-1: it is another name). */
    private int streamNameMatched;
    private boolean inName;

    XmlStanzaTracker(BotMeter meter) {
        this.meter = meter;
    }

    void feed(byte[] b, int off, int len) {
        meter.xmlRead(b, off, len);
        int end = off + len;
        for (int i = off; i < end; i++) {
            byte c = b[i];
            switch (state) {
                case TEXT -> {
                    if (c == '<') {
                        state = State.TAG_OPEN;
                    }
                }
                case TAG_OPEN -> {
                    if (c == '?' || c == '!') {
                        state = State.PI;
                    } else if (c == '/') {
                        state = State.END_TAG;
                    } else {
                        state = State.TAG;
                        slash = false;
                        inName = true;
                        streamNameMatched = 0;
                        name(c);
                    }
                }
                case PI -> {
                    if (c == '>') {
                        state = State.TEXT;
                    }
                }
                case TAG -> {
                    if (inName) {
                        name(c);
                    }
                    if (c == '"' || c == '\'') {
                        quote = c;
                        state = State.QUOTE;
                    } else if (c == '>') {
                        state = State.TEXT;
                        if (slash) {
                            if (depth == 1) {
                                meter.stanzaEnd(end - i - 1);
                            }
                        } else if (streamNameMatched == STREAM.length) {
                            depth = 1;   // a stream header: the first, or a restart
                        } else {
                            depth++;
                        }
                    } else {
                        slash = c == '/';
                    }
                }
                case QUOTE -> {
                    if (c == quote) {
                        state = State.TAG;
                        slash = false;
                    }
                }
                case END_TAG -> {
                    if (c == '>') {
                        state = State.TEXT;
                        depth--;
                        if (depth == 1) {
                            meter.stanzaEnd(end - i - 1);
                        } else if (depth <= 0) {
                            depth = 0;
                        }
                    }
                }
                default -> throw new IllegalStateException();
            }
        }
    }

    private void name(byte c) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '>' || c == '/') {
            inName = false;
            if (streamNameMatched != STREAM.length) {
                streamNameMatched = -1;
            }
        } else if (streamNameMatched >= 0 && streamNameMatched < STREAM.length && STREAM[streamNameMatched] == c) {
            streamNameMatched++;
        } else {
            streamNameMatched = -1;
        }
    }

    int depth() {
        return depth;
    }
}
