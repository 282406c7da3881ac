package org.reconmuc.component.protocol;

/** A request that cannot be accepted as written; carries the XMPP error condition to answer with. */
public final class ProtocolException extends Exception {
    /** RFC 6120 condition names used by the protocol. */
    public enum Kind {
        BAD_REQUEST, POLICY_VIOLATION
    }

    private final Kind kind;

    public ProtocolException(Kind kind, String text) {
        super(text, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
