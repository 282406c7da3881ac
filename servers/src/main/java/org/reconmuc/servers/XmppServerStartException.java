package org.reconmuc.servers;

/** A server did not come up; the message carries the tail of its logs. */
public class XmppServerStartException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean portConflict;

    public XmppServerStartException(String message, boolean portConflict) {
        super(message);
        this.portConflict = portConflict;
    }

    /** True when one of the chosen ports was taken by someone else meanwhile: worth a retry. */
    public boolean isPortConflict() {
        return portConflict;
    }
}
