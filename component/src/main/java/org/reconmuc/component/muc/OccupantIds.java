package org.reconmuc.component.muc;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.limits.BoundedMap;
import org.xmpp.packet.Packet;

/**
 * XEP-0421 anonymous unique occupant identifiers: the same id for the same real bare JID in this
 * room, across nick changes and sessions, and nothing an outsider can turn back into the JID
 * (an HMAC-SHA-256 of the bare JID under a random key of the room, as Prosody does).
 */
public final class OccupantIds {
    public static final String NAMESPACE = "urn:xmpp:occupant-id:0";
    public static final String ELEMENT = "occupant-id";
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * Ids kept, the least recently used out: an id is a function of the key and the JID, so this
     * is only a cache, and bounded — a room that lives for months sees every user who ever came.
     */
    static final int IDS_CACHED = 1_024;

    private final SecretKeySpec key;
    private final BoundedMap<RealJid, String> ids = BoundedMap.leastRecentlyUsedOut(IDS_CACHED);

    public OccupantIds() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        this.key = new SecretKeySpec(bytes, "HmacSHA256");
    }

    private OccupantIds(byte[] keyBytes) {
        this.key = new SecretKeySpec(keyBytes, "HmacSHA256");
    }

    /** The ids of a restored room: its old key, so everyone keeps their id across restarts. */
    public static OccupantIds withKey(String base64) {
        return new OccupantIds(Base64.getDecoder().decode(base64));
    }

    /** The key, for the store (base64). */
    public String key() {
        return Base64.getEncoder().encodeToString(key.getEncoded());
    }

    /** The id of the occupant whose real bare JID is {@code bare}. */
    String of(RealJid bare) {
        return ids.computeIfAbsent(bare, b -> {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(key);
                byte[] digest = mac.doFinal(b.toString().getBytes(StandardCharsets.UTF_8));
                // 144 of the 256 bits: unique enough within a room, 24 characters on every stanza.
                return Base64.getEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(digest, 18));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 is always available", e);
            }
        });
    }

    /** Sets the room's occupant id on a stanza it sends from an occupant. */
    public void stamp(Packet packet, RealJid bare) {
        strip(packet.getElement());
        packet.getElement().addElement(ELEMENT, NAMESPACE).addAttribute("id", of(bare));
    }

    /** How many ids are cached (tests). */
    int cached() {
        return ids.size();
    }

    /** Removes occupant ids a client put on its own stanza: only the room may say who is who. */
    public static void strip(Element stanza) {
        for (Element child : stanza.elements()) {
            if (ELEMENT.equals(child.getName()) && NAMESPACE.equals(child.getNamespaceURI())) {
                stanza.remove(child);
            }
        }
    }
}
