package org.reconmuc.joom.session;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.jivesoftware.smack.SmackException;
import org.jivesoftware.smack.XMPPException;
import org.jivesoftware.smack.packet.StanzaError;
import org.jivesoftware.smack.sasl.SASLErrorException;
import org.jivesoftware.smackx.muc.MultiUserChatException;

/** What went wrong, in the words a user understands (and can act on). */
public final class ErrorWords {

    private ErrorWords() {
    }

    /** Words for a failure to log in to {@code host}:{@code port}. */
    public static String login(Throwable t, String host, int port) {
        Throwable root = rootCause(t);
        if (t instanceof SASLErrorException || root instanceof SASLErrorException) {
            return "Wrong user name or password.";
        }
        if (root instanceof UnknownHostException) {
            return "The server " + host + " is unknown: check its name.";
        }
        if (root instanceof ConnectException || root instanceof NoRouteToHostException
                || t instanceof SmackException.EndpointConnectionException || t instanceof SmackException.ConnectionException) {
            return "The server " + host + ":" + port + " is unreachable: it is down, or the address or port is wrong.";
        }
        if (t instanceof SmackException.NoResponseException || root instanceof SocketTimeoutException) {
            return "The server " + host + ":" + port + " did not answer in time.";
        }
        if (t instanceof SmackException.SecurityRequiredByClientException) {
            return "The server " + host + " does not offer encryption (TLS), so Joom did not send the password.";
        }
        if (root instanceof javax.net.ssl.SSLException || root instanceof java.security.cert.CertificateException) {
            return "The server's certificate is not trusted: " + root.getMessage();
        }
        return general(t);
    }

    /** Words for a failure to enter a room. */
    public static String join(Throwable t, String room) {
        if (t instanceof XMPPException.XMPPErrorException e) {
            StanzaError.Condition c = e.getStanzaError().getCondition();
            switch (c) {
                case registration_required:
                    return "The room " + room + " is members-only, and you are not a member.";
                case not_authorized:
                    return "The room " + room + " needs a password.";
                case forbidden:
                    return "You are banned from the room " + room + ".";
                case conflict:
                    return "That nick is already taken in " + room + ": choose another.";
                case service_unavailable:
                    return "The room " + room + " is full.";
                case item_not_found:
                    return "The room " + room + " does not exist, or is not open yet.";
                case not_acceptable:
                    return "The room " + room + " refused that nick (it may be reserved for someone else).";
                case remote_server_not_found:
                case remote_server_timeout:
                    return "The chat service of " + room + " cannot be reached.";
                default:
                    return "The room " + room + " refused you: " + text(e);
            }
        }
        if (t instanceof MultiUserChatException.NotAMucServiceException) {
            return room + " is not a chat room.";
        }
        if (t instanceof SmackException.NoResponseException) {
            return "The room " + room + " did not answer in time.";
        }
        return general(t);
    }

    /** Words for anything else. */
    public static String general(Throwable t) {
        if (t instanceof XMPPException.XMPPErrorException e) {
            return "Refused: " + text(e);
        }
        if (t instanceof SmackException.NotConnectedException) {
            return "Not connected: wait until the connection is back.";
        }
        if (t instanceof SmackException.NoResponseException) {
            return "The server did not answer in time.";
        }
        String m = t.getMessage();
        return "Something went wrong: " + (m == null || m.isBlank() ? t.getClass().getSimpleName() : m);
    }

    private static String text(XMPPException.XMPPErrorException e) {
        StanzaError err = e.getStanzaError();
        String text = err.getDescriptiveText();
        return text != null && !text.isBlank() ? text : err.getCondition().toString().replace('_', ' ');
    }

    private static Throwable rootCause(Throwable t) {
        Throwable r = t;
        while (r.getCause() != null && r.getCause() != r) {
            r = r.getCause();
        }
        return r;
    }
}
