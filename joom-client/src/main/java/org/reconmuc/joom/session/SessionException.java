package org.reconmuc.joom.session;

/** Something the user asked for failed; the message says what in plain words. */
public final class SessionException extends Exception {
    private static final long serialVersionUID = 1L;

    public SessionException(String plainWords, Throwable cause) {
        super(plainWords, cause);
    }
}
