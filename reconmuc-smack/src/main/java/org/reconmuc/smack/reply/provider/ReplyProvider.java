package org.reconmuc.smack.reply.provider;

import java.io.IOException;
import org.jivesoftware.smack.packet.XmlEnvironment;
import org.jivesoftware.smack.parsing.SmackParsingException;
import org.jivesoftware.smack.provider.ExtensionElementProvider;
import org.jivesoftware.smack.xml.XmlPullParser;
import org.jivesoftware.smack.xml.XmlPullParserException;
import org.reconmuc.smack.reply.element.ReplyElement;

/** Parses {@code <reply xmlns='urn:xmpp:reply:0'/>}; one without an {@code id} is refused. */
public final class ReplyProvider extends ExtensionElementProvider<ReplyElement> {
    public static final ReplyProvider INSTANCE = new ReplyProvider();

    @Override
    public ReplyElement parse(XmlPullParser parser, int initialDepth, XmlEnvironment xmlEnvironment)
            throws XmlPullParserException, IOException, SmackParsingException {
        String id = parser.getAttributeValue("", "id");
        if (id == null || id.isEmpty()) {
            throw new SmackParsingException.RequiredAttributeMissingException("id");
        }
        return new ReplyElement(parser.getAttributeValue("", "to"), id);
    }
}
