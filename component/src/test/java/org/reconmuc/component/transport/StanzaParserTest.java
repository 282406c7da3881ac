package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import org.dom4j.Element;
import org.junit.jupiter.api.Test;

class StanzaParserTest {

    private static final byte[] HEADER = ("<stream:stream xmlns='jabber:component:accept'"
            + " xmlns:stream='http://etherx.jabber.org/streams' xmlns:h='urn:header' id='abc'>").getBytes(StandardCharsets.UTF_8);

    private final StanzaParser parser = new StanzaParser();

    private StanzaParser.Parsed parse(String element) throws StreamException {
        return parser.parseElement(HEADER, "stream:stream", element.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void headerAttributesAndNamespace() throws Exception {
        StanzaParser.Parsed h = parser.parseHeader(HEADER, "stream:stream");
        assertThat(h.is("stream", StreamXml.NS_STREAM)).isTrue();
        assertThat(h.element().attributeValue("id")).isEqualTo("abc");
        assertThat(h.element().elements()).isEmpty();
    }

    @Test
    void contentNamespaceIsLeftImplicitOtherNamespacesAreKept() throws Exception {
        StanzaParser.Parsed p = parse("<message to='r@d' xml:lang='en'><body>hi</body>"
                + "<x xmlns='http://jabber.org/protocol/muc'><item><body>inner</body></item></x>"
                + "<h:thing h:a='1'/><f:foo xmlns:f='urn:f'><f:bar/></f:foo></message>");
        assertThat(p.namespace()).isEqualTo("jabber:component:accept");
        Element e = p.element();
        assertThat(e.getNamespaceURI()).isEmpty();
        assertThat(e.element("body").getNamespaceURI()).isEmpty();
        Element item = e.element("x").element("item");
        assertThat(item.getNamespaceURI()).isEqualTo("http://jabber.org/protocol/muc");
        assertThat(item.element("body").getNamespaceURI()).isEqualTo("http://jabber.org/protocol/muc");
        assertThat(e.asXML()).isEqualTo("<message to=\"r@d\" xml:lang=\"en\"><body>hi</body>"
                + "<x xmlns=\"http://jabber.org/protocol/muc\"><item><body>inner</body></item></x>"
                + "<h:thing xmlns:h=\"urn:header\" h:a=\"1\"/><f:foo xmlns:f=\"urn:f\"><f:bar/></f:foo></message>");
    }

    @Test
    void theContentNamespaceInsideAForeignElementIsKept() throws Exception {
        Element e = parse("<message><forwarded xmlns='urn:xmpp:forward:0'>"
                + "<message xmlns='jabber:component:accept'><body>b</body></message></forwarded></message>").element();
        assertThat(e.asXML()).isEqualTo("<message><forwarded xmlns=\"urn:xmpp:forward:0\">"
                + "<message xmlns=\"jabber:component:accept\"><body>b</body></message></forwarded></message>");
    }

    @Test
    void jabberClientStanzasAreTreatedAlike() throws Exception {
        StanzaParser.Parsed p = parse("<message xmlns='jabber:client'><body>x</body></message>");
        assertThat(p.namespace()).isEqualTo("jabber:client");
        assertThat(p.element().asXML()).isEqualTo("<message><body>x</body></message>");
    }

    @Test
    void textAndCdataAndReferencesAreDecoded() throws Exception {
        Element e = parse("<message><body>a &amp; b <![CDATA[<c>]]> &#x1F600;</body></message>").element();
        assertThat(e.elementText("body")).isEqualTo("a & b <c> \uD83D\uDE00");
    }

    @Test
    void startTagOfADiscardedStanza() throws Exception {
        Element e = parser.parseStartTag(HEADER, "stream:stream",
                "<iq type='set' id='7' from='a@b/c' to='d'>".getBytes(StandardCharsets.UTF_8), "iq").element();
        assertThat(e.getName()).isEqualTo("iq");
        assertThat(e.attributeValue("id")).isEqualTo("7");
        assertThat(e.elements()).isEmpty();
    }

    @Test
    void malformedInputIsNotWellFormed() {
        assertThatThrownBy(() -> parse("<message><body>x</bdy></message>"))
                .isInstanceOfSatisfying(StreamException.class, e -> assertThat(e.condition()).isEqualTo("not-well-formed"));
        assertThatThrownBy(() -> parse("<message><u:x/></message>"))   // unbound prefix
                .isInstanceOfSatisfying(StreamException.class, e -> assertThat(e.condition()).isEqualTo("not-well-formed"));
        assertThatThrownBy(() -> parse("<message><body>&#0;</body></message>"))
                .isInstanceOfSatisfying(StreamException.class, e -> assertThat(e.condition()).isEqualTo("not-well-formed"));
        assertThatThrownBy(() -> parse("<message/><presence/>"))
                .isInstanceOfSatisfying(StreamException.class, e -> assertThat(e.condition()).isEqualTo("not-well-formed"));
    }

    @Test
    void entitiesAreNeverExpanded() {
        // Even if a reference got past the framer, the parser does not resolve it.
        assertThatThrownBy(() -> parse("<message><body>&lol;</body></message>")).isInstanceOf(StreamException.class);
    }

    @Test
    void theHardenedFactoryDoesNotExpandABillionLaughs() throws Exception {
        StringBuilder doc = new StringBuilder("<?xml version='1.0'?><!DOCTYPE lolz [<!ENTITY lol0 'lol'>");
        for (int i = 1; i < 10; i++) {
            doc.append("<!ENTITY lol").append(i).append(" '").append(("&lol" + (i - 1) + ";").repeat(10)).append("'>");
        }
        doc.append("]><lolz>&lol9;</lolz>");
        XMLStreamReader r = StanzaParser.newHardenedFactory().createXMLStreamReader(new StringReader(doc.toString()));
        long textChars = 0;
        try {
            while (r.hasNext()) {
                int event = r.next();
                if (event == XMLStreamConstants.CHARACTERS) {
                    textChars += r.getTextLength();
                }
            }
        } catch (XMLStreamException expected) {
            // "The entity lol9 was referenced, but not declared": fine
        }
        assertThat(textChars).isLessThan(100);
    }
}
