package org.reconmuc.component.muc.rtbl;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.xmpp.packet.JID;

/**
 * The hashes a block list names a user by: SHA-256 of the UTF-8 of the user's bare JID as
 * stringprep leaves it (lower case; Prosody's {@code sha256(jid.bare(...), true)}, ejabberd's
 * {@code sha256(jid:encode(jid:tolower(jid:remove_resource(From))))}), and of its domain alone
 * (both anchors list whole servers that way), in lower-case hex.
 */
public final class JidHashes {
    private JidHashes() {
    }

    /** The hash of {@code user}'s bare JID. */
    public static String ofBareJid(JID user) {
        return sha256Hex(prepared(user).toBareJID());
    }

    /** The hash of {@code user}'s domain. */
    public static String ofDomain(JID user) {
        return sha256Hex(prepared(user).getDomain());
    }

    /**
     * A stanza's address as it came (Tinder does not prepare it): nodeprep and nameprep now; one
     * stringprep refuses is hashed as it came (no list names it in a form it cannot have).
     */
    private static JID prepared(JID user) {
        try {
            return new JID(user.getNode(), user.getDomain(), null);
        } catch (IllegalArgumentException unpreparable) {
            return user;
        }
    }

    static String sha256Hex(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
