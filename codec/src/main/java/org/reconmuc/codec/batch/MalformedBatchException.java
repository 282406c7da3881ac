package org.reconmuc.codec.batch;

/**
 * A batch that breaks a rule of reconmuc.md §5.9 / §5.13: the receiver discards it whole. The
 * message names the first rule it breaks.
 */
public final class MalformedBatchException extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedBatchException(String message) {
        super(message);
    }

    public MalformedBatchException(String message, Throwable cause) {
        super(message, cause);
    }
}
