package org.reconmuc.codec.batch;

import java.util.function.Consumer;
import org.reconmuc.codec.XmlElementWriter;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.XmlText;

/**
 * One logged message as an item of a {@link BatchForm#COMPACT} batch, rendered once and shared by
 * every batch that carries it: {@code <m n='nick' id='…' o='…'>children</m>}. What depends on
 * the batch — the stanza-id suffix {@code s} and the time step {@code t} — is filled in by
 * {@link Batch#compact} between {@link #head()} and {@link #rest()}.
 *
 * @param head      the start tag up to its last attribute, without {@code >}
 * @param rest      {@code >children</m>}, or {@code />}
 * @param stanzaId  the room's XEP-0359 stanza-id of the message, or null if it has none
 * @param atMillis  when the room received it (epoch milliseconds)
 */
public record CompactItem(String head, String rest, String stanzaId, long atMillis) {
    public static final String ELEMENT = "m";
    public static final String NICK = "n";
    public static final String ID = "id";
    public static final String OCCUPANT_ID = "o";
    public static final String STANZA_ID_SUFFIX = "s";
    public static final String STANZA_ID = "sid";
    public static final String TIME_STEP = "t";
    /** Marks the last item of a compact or live-stream batch as a message sent at once (reconmuc.md §5.9 rule 8.6). */
    public static final String LIVE = "l";
    public static final String LIVE_VALUE = "1";

    /**
     * Renders an item.
     *
     * @param nick       the sender's nick (its occupant JID's resource)
     * @param id         the sender's message id, or null if it gave none
     * @param occupantId the XEP-0421 occupant id the room stamped, or null
     * @param lang       the message's {@code xml:lang}, or null
     * @param children   writes the message's children (everything but the room's stanza-id and
     *                   occupant id), as they stand inside a {@code urn:reconmuc:0} element: the
     *                   writer declares every other namespace where it is needed
     */
    public static CompactItem of(String nick, String id, String occupantId, String lang, Consumer<XmlElementWriter> children,
            String stanzaId, long atMillis) {
        StringBuilder head = new StringBuilder(64).append('<').append(ELEMENT).append(' ').append(NICK).append("=\"");
        XmlText.appendAttribute(head, nick).append('"');
        attribute(head, ID, id);
        attribute(head, OCCUPANT_ID, occupantId);
        attribute(head, "xml:lang", lang);
        StringBuilder rest = new StringBuilder(256);
        XmlElementWriter writer = new XmlElementWriter(rest, XmlNamespaces.RECONMUC);
        children.accept(writer);
        if (writer.depth() != 0) {
            throw new IllegalStateException("the children of a compact item were left open");
        }
        String body = rest.toString();
        return new CompactItem(head.toString(), body.isEmpty() ? "/>" : ">" + body + "</" + ELEMENT + ">", stanzaId, atMillis);
    }

    private static void attribute(StringBuilder b, String name, String value) {
        if (value != null) {
            b.append(' ').append(name).append("=\"");
            XmlText.appendAttribute(b, value).append('"');
        }
    }
}
