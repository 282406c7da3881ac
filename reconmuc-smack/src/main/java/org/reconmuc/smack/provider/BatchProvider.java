package org.reconmuc.smack.provider;

import java.io.IOException;
import org.jivesoftware.smack.packet.XmlEnvironment;
import org.jivesoftware.smack.provider.ExtensionElementProvider;
import org.jivesoftware.smack.xml.XmlPullParser;
import org.jivesoftware.smack.xml.XmlPullParserException;
import org.reconmuc.codec.XmlElementWriter;
import org.reconmuc.smack.element.BatchElement;

/**
 * Keeps a {@code <batch/>} as XML text that declares its namespaces (the codec reads it later,
 * per session, with the spec's rules): a malformed batch is refused by the reader of its
 * stanza, not here, so the stanza and the error still reach the application.
 */
public final class BatchProvider extends ExtensionElementProvider<BatchElement> {
    public static final BatchProvider INSTANCE = new BatchProvider();

    @Override
    public BatchElement parse(XmlPullParser parser, int initialDepth, XmlEnvironment xmlEnvironment)
            throws XmlPullParserException, IOException {
        StringBuilder xml = new StringBuilder(1024);
        XmlElementWriter writer = new XmlElementWriter(xml);
        XmlPullParser.Event event = parser.getEventType();
        while (true) {
            switch (event) {
                case START_ELEMENT -> {
                    writer.startElement(parser.getPrefix(), parser.getNamespace(), parser.getName());
                    for (int i = 0; i < parser.getAttributeCount(); i++) {
                        writer.attribute(parser.getAttributePrefix(i), parser.getAttributeNamespace(i),
                                parser.getAttributeName(i), parser.getAttributeValue(i));
                    }
                }
                case END_ELEMENT -> writer.endElement();
                case TEXT_CHARACTERS, IGNORABLE_WHITESPACE, ENTITY_REFERENCE -> writer.text(parser.getText());
                case COMMENT -> writer.comment(parser.getText());
                case PROCESSING_INSTRUCTION -> writer.processingInstruction(parser.getText());
                default -> {
                    // START_DOCUMENT, END_DOCUMENT, OTHER: nothing to copy
                }
            }
            if (writer.depth() == 0) {
                return new BatchElement(xml.toString());
            }
            event = parser.next();
        }
    }
}
