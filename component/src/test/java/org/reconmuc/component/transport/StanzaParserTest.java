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
    void theHeadOfAStanzaIsReadFromItsStartTagAlone() {
        Element e = StanzaHead.read("<iq type='set' id='7&amp;8' from='a@b/c' to=\"d\" x:y='z'><query xmlns='urn:x'/></iq>"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(e.asXML()).isEqualTo("<iq from=\"a@b/c\" to=\"d\" id=\"7&amp;8\" type=\"set\"/>");
        String longName = "a".repeat(1100);
        assertThat(StanzaHead.read(("<message from='a@b/c' " + longName + "='1' " + longName + "='2'>")
                .getBytes(StandardCharsets.UTF_8))).as("a start tag the parser refuses").isNotNull();
    }

    @Test
    void aHeadThatCannotBeReadSafelyIsNull() {
        for (String tag : new String[] {
                "<message to='d' id='1'>",                              // no sender
                "<message from='a@b/c' from='e@f/g'>",                  // which sender?
                "<message from='a@b/c' to='d' to='e'>",
                "<message from='a@@b'>",                                // not an address
                "<message from='a@b/c' xmlns='urn:other'>",             // not a stanza
                "<stream:message from='a@b/c'>",
                "<foo from='a@b/c'>",
                "<message from='a@b/c' id='&bogus;'>",
                "<message from='a@b/c' id='1'",                         // no end
        }) {
            assertThat(StanzaHead.read(tag.getBytes(StandardCharsets.UTF_8))).as(tag).isNull();
        }
        byte[] badUtf8 = "<message from='a@b/c\u00e9'>".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(StanzaHead.read(badUtf8)).isNull();
        assertThat(StanzaHead.read(null)).isNull();
    }

    /**
     * Newer JDKs lower their parser's limits (JDK 24: 100 levels, 200 attributes, entity sizes
     * of 100,000); here set as system properties, as an operator or a newer JDK would. The
     * component's own limits hold regardless.
     */
    @Test
    void theParsersLimitsAreTheSameOnEveryJdk() throws Exception {
        String[][] newerJdk = {
                {"jdk.xml.maxElementDepth", "100"}, {"jdk.xml.elementAttributeLimit", "200"},
                {"jdk.xml.maxXMLNameLimit", "1000"}, {"jdk.xml.totalEntitySizeLimit", "100000"},
                {"jdk.xml.maxGeneralEntitySizeLimit", "100000"}};
        try {
            for (String[] p : newerJdk) {
                System.setProperty(p[0], p[1]);
            }
            StanzaParser fresh = new StanzaParser();
            String deep = "<a>".repeat(XmlLimits.MAX_DEPTH - 1) + "</a>".repeat(XmlLimits.MAX_DEPTH - 1);
            StringBuilder attrs = new StringBuilder();
            for (int i = 0; i < XmlLimits.MAX_ATTRIBUTES; i++) {
                attrs.append(" a").append(i).append("=''");
            }
            String[] stanzas = {
                    "<message>" + deep + "</message>",
                    "<message><x" + attrs + "/></message>",
                    "<message><" + "n".repeat(1100) + "/></message>",
                    "<message " + "n".repeat(1100) + "='1'/>",
                    "<message><body>" + "&lt;&#65;".repeat(60_000) + "</body></message>",
            };
            for (String stanza : stanzas) {
                assertThat(fresh.parseElement(HEADER, "stream:stream", stanza.getBytes(StandardCharsets.UTF_8)).element()
                        .getName()).isEqualTo("message");
            }
        } finally {
            for (String[] p : newerJdk) {
                System.clearProperty(p[0]);
            }
        }
    }

    /** dom4j copies attributes in quadratic time: thousands on one element are refused, by us, on every JDK. */
    @Test
    void moreAttributesOnOneElementThanTheLimitAreAPolicyViolation() {
        StringBuilder attrs = new StringBuilder();
        for (int i = 0; i <= XmlLimits.MAX_ATTRIBUTES; i++) {
            attrs.append(" a").append(i).append("=''");
        }
        assertThatThrownBy(() -> parse("<message><x" + attrs + "/></message>"))
                .isInstanceOfSatisfying(StreamException.class, e -> assertThat(e.condition()).isEqualTo("policy-violation"))
                .hasMessage("Too many attributes on one element: limit is 1000");
    }

    @Test
    void theParserAgreesWithTheFramersDepth() {
        String tooDeep = "<message>" + "<a>".repeat(XmlLimits.MAX_DEPTH - 1) + "<b/>" + "</a>".repeat(XmlLimits.MAX_DEPTH - 1)
                + "</message>";
        assertThatThrownBy(() -> parse(tooDeep)).isInstanceOf(StreamException.class).hasMessageContaining("maxElementDepth");
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
