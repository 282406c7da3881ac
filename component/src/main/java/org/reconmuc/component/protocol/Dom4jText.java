package org.reconmuc.component.protocol;

import java.io.StringReader;
import org.dom4j.Document;
import org.dom4j.DocumentException;
import org.dom4j.Element;
import org.dom4j.io.SAXReader;

/**
 * XML text the service wrote itself (archived messages, stored room state, a rendering) read back
 * into dom4j, by one hardened reader per thread ({@link SAXReader#createDefault()}: no DOCTYPE,
 * no external entities). {@code DocumentHelper.parseText} looks up and builds a SAX parser on
 * every call, about a millisecond each: restoring a room's 100-message history took 100 ms of a
 * room thread when a room moved; a reused reader takes about a tenth of that.
 */
public final class Dom4jText {
    private static final ThreadLocal<SAXReader> READER = ThreadLocal.withInitial(() -> {
        SAXReader reader = SAXReader.createDefault();
        reader.setEncoding("UTF-8");
        return reader;
    });

    private Dom4jText() {
    }

    /** The root element of {@code xml}. */
    public static Element parse(String xml) throws DocumentException {
        Document document = READER.get().read(new StringReader(xml));
        return document.getRootElement();
    }
}
