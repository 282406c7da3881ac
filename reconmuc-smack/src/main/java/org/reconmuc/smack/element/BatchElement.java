package org.reconmuc.smack.element;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.xml.namespace.QName;
import org.jivesoftware.smack.packet.ExtensionElement;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.packet.XmlEnvironment;
import org.jivesoftware.smack.parsing.SmackParsingException;
import org.jivesoftware.smack.util.PacketParserUtils;
import org.jivesoftware.smack.xml.XmlPullParser;
import org.jivesoftware.smack.xml.XmlPullParserException;
import org.jivesoftware.smackx.forward.packet.Forwarded;
import org.jivesoftware.smackx.forward.provider.ForwardedProvider;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.DecodedBatch;
import org.reconmuc.codec.batch.MalformedBatchException;

/**
 * {@code <batch xmlns='urn:reconmuc:0'/>} (reconmuc.md §5.9): the retained messages a room flushes
 * to an occupant in one message, in any form and encoding the codec reads. Held as the XML text it arrived as,
 * because reading it is the codec's job ({@link BatchDecoder}, one per session: an encoding may
 * carry state from one batch to the next); {@link #getForwardedMessages} reads it with the spec's
 * strict rules into Smack's forwarded messages. Immutable.
 */
public final class BatchElement implements ExtensionElement {
    public static final String ELEMENT = Batch.ELEMENT;
    public static final String NAMESPACE = Batch.NAMESPACE;
    public static final QName QNAME = new QName(NAMESPACE, ELEMENT);

    private final String xml;

    /** A batch from its XML text, which declares its own namespace. */
    public BatchElement(String xml) {
        this.xml = Objects.requireNonNull(xml, "xml");
    }

    /** A plain batch of these {@code <forwarded/>} items (XML text, each declaring its namespaces). */
    public static BatchElement plain(List<String> items) {
        return new BatchElement(Batch.plain(items));
    }

    /** A deflate batch of these items, compressed at {@code level}. */
    public static BatchElement deflate(List<String> items, int level) {
        return new BatchElement(Batch.deflate(items, level));
    }

    /** The batch of a message, or null. */
    public static BatchElement from(Stanza stanza) {
        return stanza.getExtension(BatchElement.class);
    }

    /** The element as XML text. */
    public String getXml() {
        return xml;
    }

    /**
     * The batch checked and decoded: its items as XML text ({@code <forwarded/>}, whatever the form
     * on the wire). {@code room} is the bare JID the batch came from, which compact items name.
     */
    public DecodedBatch decode(BatchDecoder decoder, String room) throws MalformedBatchException {
        return decoder.decode(xml, room);
    }

    /**
     * The batch checked, decoded and parsed by Smack: each item an XEP-0297 forwarded message with
     * its XEP-0203 delay, in room order — but a live last item (§5.9 rule 8.6) has no delay.
     *
     * @throws MalformedBatchException if the batch breaks a rule of the spec, or Smack cannot parse an item
     */
    public List<Forwarded<Message>> getForwardedMessages(BatchDecoder decoder, String room) throws MalformedBatchException {
        List<Forwarded<Message>> messages = new ArrayList<>();
        for (String item : decode(decoder, room).items()) {
            try {
                XmlPullParser parser = PacketParserUtils.getParserFor(item);
                messages.add(ForwardedProvider.parseForwardedMessage(parser, XmlEnvironment.EMPTY));
            } catch (XmlPullParserException | IOException | SmackParsingException | RuntimeException e) {
                throw new MalformedBatchException("an item is not a forwarded message Smack can read: " + e.getMessage(), e);
            }
        }
        return messages;
    }

    @Override
    public String getElementName() {
        return ELEMENT;
    }

    @Override
    public String getNamespace() {
        return NAMESPACE;
    }

    @Override
    public CharSequence toXML(XmlEnvironment enclosingNamespace) {
        return xml;
    }
}
