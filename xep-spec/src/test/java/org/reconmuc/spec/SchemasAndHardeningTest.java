package org.reconmuc.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamSource;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.XmlNamespaces;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;

class SchemasAndHardeningTest {

    @Test
    void theSchemasCompile() {
        assertThat(Schemas.reconmuc0()).isNotNull();
        assertThat(Schemas.joomExtensions()).isNotNull();
        assertThat(Schemas.scenario()).isNotNull();
        assertThat(Schemas.forNamespace(XmlNamespaces.JOOM)).isSameAs(Schemas.joomExtensions());
        assertThatThrownBy(() -> Schemas.forNamespace("jabber:client")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theLegacySchemaJudgesEveryRequestLikeTheUrnSchema() {
        int compared = 0;
        List<String> requests = new ArrayList<>();
        for (String name : TestVectors.list()) {
            String text = TestVectors.stanza(name);
            if (Dom.outermostOurs(SecureXml.parse(text).getDocumentElement()).stream()
                    .noneMatch(e -> "consistency-requirements".equals(e.getLocalName()))) {
                continue;
            }
            requests.add(name);
            // The same stanza in both namespaces must get the same verdict from both schemas.
            String urn = text.replace(XmlNamespaces.JOOM, XmlNamespaces.RECONMUC);
            String joom = text.replace(XmlNamespaces.RECONMUC, XmlNamespaces.JOOM);
            Element a = Dom.outermostOurs(SecureXml.parse(urn).getDocumentElement()).get(0);
            Element b = Dom.outermostOurs(SecureXml.parse(joom).getDocumentElement()).get(0);
            if (Dom.all(a, XmlNamespaces.RECONMUC, "presences").isEmpty()) {
                assertThat(Dom.validationError(a) == null).as(name).isEqualTo(Dom.validationError(b) == null);
            } else {
                // Presence levels are urn:reconmuc:0's only (reconmuc.md §5.17): the paper's namespace has none.
                assertThat(Dom.validationError(a)).as(name).isNull();
                assertThat(Dom.validationError(b)).as(name + " in the legacy namespace").isNotNull();
            }
            compared++;
        }
        assertThat(compared).isGreaterThan(20);
        // and the legacy schema has no batch: batches are always urn:reconmuc:0
        assertThat(Schemas.text("joom-extensions.xsd")).doesNotContain("name=\"batch\"");
    }

    @Test
    void requestSyntaxIsWhatTheSchemaSays() {
        assertThat(valid("<time>60</time>")).isTrue();
        assertThat(valid("<time> 60 </time>")).as("white space collapses").isTrue();
        assertThat(valid("<time>0</time>")).isFalse();
        assertThat(valid("<time>1.5</time>")).isFalse();
        assertThat(valid("<volume>99999999999999999999</volume>")).as("too large is policy, not syntax").isTrue();
        assertThat(valid("<volume>20</volume><time>60</time>")).as("any order").isTrue();
        assertThat(valid("<time>60</time><time>30</time>")).as("each at most once").isFalse();
        assertThat(valid("<filter><filter-entry element='nick' value='Bob' active='0'/></filter>")).isTrue();
        assertThat(valid("<filter><filter-entry element='nick' value='Bob' active='yes'/></filter>")).isFalse();
        assertThat(valid("<filter><filter-entry element='topic' value=''/></filter>")).isFalse();
        assertThat(valid("<filter><filter-entry element='topic' value='x' colour='red'/></filter>")).isFalse();
        assertThat(valid("<filter><filter-entry xmlns:o='urn:other' element='topic' value='x' o:colour='red'/></filter>"))
                .as("foreign attributes are ignored").isTrue();
        assertThat(valid("<aggregation>deflate</aggregation>")).isTrue();
        assertThat(valid("<aggregation>DEFLATE</aggregation>")).isFalse();
        assertThat(valid("<standard/>")).isTrue();
        assertThat(valid("<x xmlns='urn:other'/>")).as("no foreign children").isFalse();
        assertThat(valid("text")).isFalse();
    }

    private static boolean valid(String inner) {
        Element e = SecureXml.parse("<consistency-requirements xmlns='urn:reconmuc:0'>" + inner
                + "</consistency-requirements>").getDocumentElement();
        return Dom.validationError(e) == null;
    }

    @Test
    void theParserRefusesDoctypesAndEntities() {
        String external = "<?xml version='1.0'?><!DOCTYPE iq [<!ENTITY x SYSTEM 'file:///etc/passwd'>]><iq>&x;</iq>";
        String laughs = "<!DOCTYPE l [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'>]><l>&b;</l>";
        String dtd = "<!DOCTYPE iq SYSTEM 'http://127.0.0.1:9/evil.dtd'><iq/>";
        assertThatThrownBy(() -> SecureXml.parse(external)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DOCTYPE");
        assertThatThrownBy(() -> SecureXml.parse(laughs)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SecureXml.parse(dtd)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theValidatorRefusesDoctypesAndFetchesNothing() {
        String external = "<!DOCTYPE consistency-requirements [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>"
                + "<consistency-requirements xmlns='urn:reconmuc:0'><time>&x;</time></consistency-requirements>";
        assertThatThrownBy(() -> Schemas.validator(Schemas.reconmuc0())
                .validate(new StreamSource(new StringReader(external))))
                .isInstanceOf(SAXException.class);
        String schemaLocation = "<consistency-requirements xmlns='urn:reconmuc:0' "
                + "xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' "
                + "xsi:schemaLocation='urn:other http://127.0.0.1:9/other.xsd'><time>5</time></consistency-requirements>";
        Document d = SecureXml.parse(schemaLocation);
        // The xsi attribute is foreign (allowed); the hint must not be fetched: validation succeeds offline.
        assertThat(Dom.validationError(d.getDocumentElement())).isNull();
    }

    @Test
    void vectorsValidateAsDomSourcesOfElements() throws Exception {
        Element batch = Dom.all(TestVectorsTest.root("batch-plain-3"), XmlNamespaces.RECONMUC, "batch").get(0);
        Schemas.validator(Schemas.reconmuc0()).validate(new DOMSource(batch));
        // A topic of the wrong type inside a forwarded message is caught through lax processing.
        Element bad = SecureXml.parse("<batch xmlns='urn:reconmuc:0' count='1'><forwarded xmlns='urn:xmpp:forward:0'>"
                + "<message xmlns='jabber:client'><topic xmlns='urn:reconmuc:0'><b/></topic></message></forwarded></batch>")
                .getDocumentElement();
        assertThat(Dom.validationError(bad)).isNotNull();
    }
}
