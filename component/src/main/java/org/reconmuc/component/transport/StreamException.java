package org.reconmuc.component.transport;

/**
 * A problem with the XML stream received from the server that obliges us to close the stream with
 * a stream error (RFC 6120 section 4.9), e.g. {@code not-well-formed} or {@code restricted-xml}.
 */
final class StreamException extends Exception {

    private final String condition;

    StreamException(String condition, String message) {
        super(message);
        this.condition = condition;
    }

    StreamException(String condition, String message, Throwable cause) {
        super(message, cause);
        this.condition = condition;
    }

    /** The stream error condition, an element name in {@code urn:ietf:params:xml:ns:xmpp-streams}. */
    String condition() {
        return condition;
    }

    static StreamException notWellFormed(String message) {
        return new StreamException("not-well-formed", message);
    }

    static StreamException restrictedXml(String message) {
        return new StreamException("restricted-xml", message);
    }
}
