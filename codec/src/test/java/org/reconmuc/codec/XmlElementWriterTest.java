package org.reconmuc.codec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class XmlElementWriterTest {

    @Test
    void declaresWhatTheCopyNeedsOnceAndWritesEmptyElementsShort() {
        StringBuilder out = new StringBuilder();
        XmlElementWriter w = new XmlElementWriter(out);
        w.startElement("", "urn:a", "x");
        w.attribute("xml", "http://www.w3.org/XML/1998/namespace", "lang", "en");
        w.startElement("", "urn:a", "same");
        w.text("1 < 2 & \"q\"");
        w.endElement();
        w.startElement("p", "urn:p", "y");
        w.attribute("p", "urn:p", "k", "tab\there");
        w.attribute("q", "urn:q", "k", "v");
        w.endElement();
        w.startElement("", "", "none");
        w.endElement();
        w.endElement();
        assertThat(w.depth()).isZero();
        assertThat(out).hasToString("<x xmlns=\"urn:a\" xml:lang=\"en\"><same>1 &lt; 2 &amp; \"q\"</same>"
                + "<p:y xmlns:p=\"urn:p\" p:k=\"tab&#9;here\" xmlns:q=\"urn:q\" q:k=\"v\"/><none xmlns=\"\"/></x>");
        assertThat(SecureXml.parse(out.toString()).getDocumentElement().getLastChild().getNamespaceURI()).isNull();
    }
}
