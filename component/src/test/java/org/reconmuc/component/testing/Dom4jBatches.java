package org.reconmuc.component.testing;

import java.util.ArrayList;
import java.util.List;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.MalformedBatchException;

/** The codec's strict batch reading for the dom4j elements the service's tests hold. */
public final class Dom4jBatches {

    private Dom4jBatches() {
    }

    /** The {@code <forwarded/>} items of a batch, plain or deflate, each parsed on its own. */
    public static List<Element> items(Element batch) throws MalformedBatchException {
        return items(batch, null, new BatchDecoder());
    }

    /**
     * The {@code <forwarded/>} items of a batch of any form from {@code room}, read by the
     * recipient's own decoder (a deflate stream runs on from batch to batch).
     */
    public static List<Element> items(Element batch, String room, BatchDecoder decoder) throws MalformedBatchException {
        List<Element> items = new ArrayList<>();
        for (String item : decoder.decode(batch.asXML(), room).items()) {
            try {
                items.add(DocumentHelper.parseText(item).getRootElement());
            } catch (DocumentException e) {
                throw new AssertionError("the codec handed out an item that does not parse: " + item, e);
            }
        }
        return items;
    }
}
