package org.reconmuc.smack.provider;

import java.io.IOException;
import org.jivesoftware.smack.packet.XmlEnvironment;
import org.jivesoftware.smack.provider.ExtensionElementProvider;
import org.jivesoftware.smack.xml.XmlPullParser;
import org.jivesoftware.smack.xml.XmlPullParserException;
import org.reconmuc.smack.element.TopicElement;

/** Parses {@code <topic/>} in {@code urn:reconmuc:0} or the paper's namespace. */
public final class TopicProvider extends ExtensionElementProvider<TopicElement> {
    public static final TopicProvider INSTANCE = new TopicProvider();

    @Override
    public TopicElement parse(XmlPullParser parser, int initialDepth, XmlEnvironment xmlEnvironment)
            throws XmlPullParserException, IOException {
        String namespace = parser.getNamespace();
        return new TopicElement(namespace, parser.nextText());
    }
}
