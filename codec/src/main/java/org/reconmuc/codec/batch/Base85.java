package org.reconmuc.codec.batch;

/**
 * The text of a {@link BatchEncoding#DEFLATE_LIVE} batch (reconmuc.md §5.9 rule 8.7): bytes in base
 * 85, five characters for four bytes where base64 spends five and a third. The alphabet is the 85
 * printable ASCII characters that no XML serialiser escapes in text or attributes and that need no
 * escaping anywhere ({@code " & ' < >} are left out, and {@code \ ` | ~}): a server that parses
 * and writes the stanza again passes it on byte for byte.
 *
 * <p>Each group of four bytes, read as a big-endian unsigned number, is written as five digits,
 * most significant first; a last group of k &lt; 4 bytes is padded with zero bytes and written as
 * its first k + 1 digits (as Ascii85 does). A reader pads a last group of m digits with the highest
 * digit and keeps its first m - 1 bytes.
 */
public final class Base85 {
    /** The 85 digits, in order of value. */
    public static final String ALPHABET =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%()*+,-./:;=?@[]^_{}";

    private static final int[] VALUE = new int[128];

    static {
        java.util.Arrays.fill(VALUE, -1);
        for (int i = 0; i < ALPHABET.length(); i++) {
            VALUE[ALPHABET.charAt(i)] = i;
        }
    }

    private Base85() {
    }

    /** The base-85 text of {@code bytes}. */
    public static String encode(byte[] bytes) {
        StringBuilder text = new StringBuilder((bytes.length * 5 + 3) / 4);
        char[] digits = new char[5];
        for (int i = 0; i < bytes.length; i += 4) {
            int k = Math.min(4, bytes.length - i);
            long value = 0;
            for (int j = 0; j < 4; j++) {
                value = value << 8 | (j < k ? bytes[i + j] & 0xFF : 0);
            }
            for (int d = 4; d >= 0; d--) {
                digits[d] = ALPHABET.charAt((int) (value % 85));
                value /= 85;
            }
            text.append(digits, 0, k + 1);
        }
        return text.toString();
    }

    /**
     * The bytes of base-85 {@code text}, XML white space ignored.
     *
     * @throws IllegalArgumentException if a character is not a digit, a group is worth more than
     *     four bytes, or the last group has a single digit
     */
    public static byte[] decode(CharSequence text) {
        StringBuilder digits = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                continue;
            }
            if (c >= 128 || VALUE[c] < 0) {
                throw new IllegalArgumentException("'" + c + "' is not a base-85 digit");
            }
            digits.append(c);
        }
        int length = digits.length();
        if (length % 5 == 1) {
            throw new IllegalArgumentException("a last group of one digit");
        }
        byte[] bytes = new byte[length / 5 * 4 + Math.max(0, length % 5 - 1)];
        int out = 0;
        for (int i = 0; i < length; i += 5) {
            int m = Math.min(5, length - i);
            long value = 0;
            for (int d = 0; d < 5; d++) {
                value = value * 85 + (d < m ? VALUE[digits.charAt(i + d)] : 84);
            }
            if (value > 0xFFFF_FFFFL) {
                throw new IllegalArgumentException("a group worth more than four bytes");
            }
            for (int j = 0; j < m - 1; j++) {
                bytes[out++] = (byte) (value >>> (24 - 8 * j));
            }
        }
        return bytes;
    }
}
