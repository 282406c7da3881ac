package org.reconmuc.spec;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.MalformedBatchException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** The codec's strict batch reading ({@link BatchDecoder}) for W3C DOM trees: the matcher and tests. */
public final class DomBatches {

    private DomBatches() {
    }

    /**
     * The {@code <forwarded/>} items of a batch element, plain or deflate, each parsed on its own.
     *
     * @throws MalformedBatchException naming the first rule the batch breaks
     */
    public static List<Element> items(Element batch) throws MalformedBatchException {
        return items(batch, new BatchDecoder());
    }

    /**
     * The items of a batch of any form, read by the recipient's own decoder (a deflate stream runs
     * on from batch to batch); the room is the {@code from} of the message the batch is in.
     */
    public static List<Element> items(Element batch, BatchDecoder decoder) throws MalformedBatchException {
        String room = batch.getParentNode() instanceof Element message ? message.getAttribute("from") : null;
        List<Element> items = new ArrayList<>();
        for (String item : decoder.decode(xml(batch), room == null || room.isEmpty() ? null : room).items()) {
            items.add(SecureXml.parse(item).getDocumentElement());
        }
        return items;
    }

    /** A node as XML text; an element declares the namespaces it uses from its ancestors. */
    public static String xml(Node node) {
        try {
            TransformerFactory tf = TransformerFactory.newInstance();
            tf.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            Transformer t = tf.newTransformer();
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            t.setOutputProperty(OutputKeys.INDENT, "no");
            StringWriter w = new StringWriter();
            t.transform(new DOMSource(node), new StreamResult(w));
            return w.toString();
        } catch (TransformerException e) {
            throw new IllegalStateException(e);
        }
    }
}
