package org.reconmuc.component.muc.avatar;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import org.dom4j.Element;

/**
 * A room's vCard (XEP-0054) as an owner set it, checked: its {@code PHOTO/BINVAL} is base64 of at
 * most the service's {@code max-avatar-bytes}, the rest of it at most {@link #MAX_OTHER_CHARS}.
 * Immutable: the element is a copy, handed out as copies.
 *
 * @param hash SHA-1 of the decoded image in lower-case hex (XEP-0153 §4.2), or null without a photo
 */
public record RoomAvatar(Element vcard, String hash, int imageBytes) {
    public static final String ELEMENT = "vCard";
    public static final String NAMESPACE = "vcard-temp";
    /** The disco#info field (XEP-0486 §4, in the {@code muc#roominfo} form): Conversations reads it. */
    public static final String DISCO_FIELD = "muc#roominfo_avatarhash";
    /** The field of Prosody's older mod_vcard_muc, which Gajim reads instead (text-single). */
    public static final String LEGACY_DISCO_FIELD = "{http://modules.prosody.im/mod_vcard_muc}avatar#sha1";
    /** What a room's vCard may hold besides its photo: a name, a description, a URL. */
    public static final int MAX_OTHER_CHARS = 8192;

    /** Why a vCard is refused: the condition of the error, and its text. */
    public static final class Refusal extends Exception {
        private final String condition;

        Refusal(String condition, String text) {
            super(text);
            this.condition = condition;
        }

        /** {@code bad-request} or {@code not-acceptable}. */
        public String condition() {
            return condition;
        }
    }

    public RoomAvatar {
        vcard = vcard.createCopy();
    }

    @Override
    public Element vcard() {
        return vcard.createCopy();
    }

    /** The vCard an owner sent, within {@code maxImageBytes} of image. */
    public static RoomAvatar of(Element vcard, int maxImageBytes) throws Refusal {
        Element copy = vcard.createCopy();
        Element photo = copy.element("PHOTO");
        byte[] image = null;
        if (photo != null) {
            String binval = photo.elementText("BINVAL");
            if (binval == null || binval.isBlank()) {
                throw new Refusal("bad-request", "The vCard's PHOTO needs a BINVAL: the image in base64");
            }
            try {
                image = Base64.getMimeDecoder().decode(binval.strip());
            } catch (IllegalArgumentException e) {
                throw new Refusal("bad-request", "The vCard's PHOTO/BINVAL is not base64");
            }
            if (image.length == 0) {
                throw new Refusal("bad-request", "The vCard's PHOTO/BINVAL holds no image");
            }
            if (image.length > maxImageBytes) {
                throw new Refusal("not-acceptable", "The avatar has " + image.length + " bytes; this service takes"
                        + " room avatars of at most " + maxImageBytes + " bytes (max-avatar-bytes)");
            }
            copy.remove(photo);
        }
        int otherChars = copy.asXML().length();
        if (otherChars > MAX_OTHER_CHARS) {
            throw new Refusal("not-acceptable", "A room's vCard may hold at most " + MAX_OTHER_CHARS
                    + " characters besides its PHOTO; this one has " + otherChars);
        }
        return new RoomAvatar(vcard, image == null ? null : sha1Hex(image), image == null ? 0 : image.length);
    }

    /** A vCard kept in the store (checked when it was set, whatever the bound is today); null if unreadable. */
    public static RoomAvatar restored(Element vcard) {
        try {
            return of(vcard, Integer.MAX_VALUE);
        } catch (Refusal unreadable) {
            return null;
        }
    }

    /** The presence element that tells occupants of this avatar. */
    public AvatarUpdate update() {
        return new AvatarUpdate(hash);
    }

    private static String sha1Hex(byte[] image) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(image));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }

    /** For logs: never the image. */
    @Override
    public String toString() {
        return "RoomAvatar[hash=" + hash + ", " + imageBytes + " bytes, vCard "
                + vcard.asXML().getBytes(StandardCharsets.UTF_8).length + " bytes]";
    }
}
