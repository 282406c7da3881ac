package org.reconmuc.component.store;

/** The store cannot be opened or read; the message is meant for the operator. */
public final class StoreException extends Exception {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
