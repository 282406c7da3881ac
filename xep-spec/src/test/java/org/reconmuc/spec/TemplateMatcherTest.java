package org.reconmuc.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.XmlNamespaces;
import org.w3c.dom.Element;

class TemplateMatcherTest {

    static Element xml(String s) {
        return SecureXml.parse(s).getDocumentElement();
    }

    static final String SC = " xmlns:sc='urn:reconmuc:scenario:0'";

    @Test
    void m1NamesAndNamespacesNotPrefixes() {
        TemplateMatcher m = new TemplateMatcher();
        assertThat(m.matches(xml("<message xmlns='jabber:client'/>"), xml("<message/>"))).as("no namespace reads as jabber:client").isTrue();
        assertThat(m.matches(xml("<message xmlns='jabber:client'/>"), xml("<c:message xmlns:c='jabber:client'/>"))).isTrue();
        assertThat(m.matches(xml("<message xmlns='jabber:client'/>"), xml("<iq/>"))).isFalse();
        assertThat(m.matches(xml("<topic xmlns='urn:reconmuc:0'/>"), xml("<topic xmlns='http://joom.com/extensions'/>"))).isFalse();
    }

    @Test
    void m2AttributesPresentAndEqualExtraAllowed() {
        TemplateMatcher m = new TemplateMatcher();
        assertThat(m.matches(xml("<iq type='result'/>"), xml("<iq type='result' id='1' from='r'/>"))).isTrue();
        assertThat(m.matches(xml("<iq type='result' id='*'/>"), xml("<iq type='result'/>"))).as("* needs presence").isFalse();
        assertThat(m.matches(xml("<iq type='result'/>"), xml("<iq type='error'/>"))).isFalse();
    }

    @Test
    void m3ChildrenInOrderAsASubsequenceWithoutBacktracking() {
        TemplateMatcher m = new TemplateMatcher();
        Element received = xml("<m><a/><b/><c/></m>");
        assertThat(m.matches(xml("<m><a/><c/></m>"), received)).isTrue();
        assertThat(m.matches(xml("<m><c/><a/></m>"), received)).isFalse();
        assertThat(m.matches(xml("<m><a/><a/></m>"), received)).isFalse();
        // greedy: the first <x> takes the first candidate even though a later choice would work
        assertThat(m.matches(xml("<m><x/><x k='1'/></m>"), xml("<m><x k='1'/><x k='2'/></m>"))).isFalse();
    }

    @Test
    void m3AbsentMeansNoChildMatchesAnywhere() {
        TemplateMatcher m = new TemplateMatcher();
        assertThat(m.matches(xml("<m" + SC + "><b sc:absent='true'/></m>"), xml("<m><a/></m>"))).isTrue();
        assertThat(m.matches(xml("<m" + SC + "><b sc:absent='true'/><a/></m>"), xml("<m><a/><b/></m>"))).isFalse();
        assertThat(m.matches(xml("<m" + SC + "><b k='2' sc:absent='true'/></m>"), xml("<m><b k='1'/></m>"))).isTrue();
    }

    @Test
    void m4TextTrimmedAndOnlyOnLeaves() {
        TemplateMatcher m = new TemplateMatcher();
        assertThat(m.matches(xml("<body>Hi there</body>"), xml("<body>\n  Hi there \n</body>"))).isTrue();
        assertThat(m.matches(xml("<body>Hi there</body>"), xml("<body>Hi  there</body>"))).isFalse();
        assertThat(m.matches(xml("<body/>"), xml("<body>anything</body>"))).isTrue();
        assertThat(m.matches(xml("<body" + SC + " sc:exact='true'/>"), xml("<body>anything</body>"))).isFalse();
    }

    @Test
    void m5WildcardsCapturesAndStamps() {
        TemplateMatcher m = new TemplateMatcher();
        assertThat(m.matches(xml("<s id='{p}'/>"), xml("<s id='abc'/>"))).isTrue();
        assertThat(m.captures()).containsEntry("p", "abc");
        assertThat(m.matches(xml("<s id='{p}'/>"), xml("<s id='abd'/>"))).isFalse();
        assertThat(m.matches(xml("<s>{p}</s>"), xml("<s>abc</s>"))).isTrue();
        assertThat(m.substitute("{p}")).isEqualTo("abc");
        assertThat(m.substitute("literal")).isEqualTo("literal");
        // a failed match keeps no capture
        assertThat(m.matches(xml("<s a='{q}' b='x'/>"), xml("<s a='1' b='y'/>"))).isFalse();
        assertThat(m.captures()).doesNotContainKey("q");
        // a failed child attempt keeps no capture either
        assertThat(m.matches(xml("<m><s a='{r}' b='2'/></m>"), xml("<m><s a='1' b='1'/><s a='2' b='2'/></m>"))).isTrue();
        assertThat(m.captures()).containsEntry("r", "2");
        Element d = xml("<delay xmlns='urn:xmpp:delay' stamp='2011-03-21T09:00:05Z'/>");
        assertThat(m.matches(d, xml("<delay xmlns='urn:xmpp:delay' stamp='2011-03-21T09:00:05.000Z'/>"))).isTrue();
        assertThat(m.matches(d, xml("<delay xmlns='urn:xmpp:delay' stamp='2011-03-21T10:00:05+01:00'/>"))).isTrue();
        assertThat(m.matches(d, xml("<delay xmlns='urn:xmpp:delay' stamp='2011-03-21T09:00:06Z'/>"))).isFalse();
        assertThat(m.matches(xml("<x stamp='2011-03-21T09:00:05Z'/>"), xml("<x stamp='2011-03-21T09:00:05.000Z'/>")))
                .as("only delay stamps are instants").isFalse();
    }

    @Test
    void m6ExactIsShallow() {
        TemplateMatcher m = new TemplateMatcher();
        assertThat(m.matches(xml("<f" + SC + " sc:exact='true' a='1'><e/></f>"), xml("<f a='1'><e x='y'/></f>"))).isTrue();
        assertThat(m.matches(xml("<f" + SC + " sc:exact='true' a='1'><e/></f>"), xml("<f a='1' b='2'><e/></f>"))).isFalse();
        assertThat(m.matches(xml("<f" + SC + " sc:exact='true'><e/></f>"), xml("<f><e/><e/></f>"))).isFalse();
        assertThat(m.matches(xml("<f" + SC + " sc:exact='true'><e/><g/></f>"), xml("<f><g/><e/></f>"))).isFalse();
        assertThat(m.matches(xml("<f xmlns='urn:a'" + SC + " sc:exact='true'/>"), xml("<f xmlns='urn:a' xmlns:z='urn:z'/>")))
                .as("namespace declarations are not attributes").isTrue();
    }

    /** M7 and the scenario templates against the vectors they mirror. */
    @Test
    void scenarioTemplatesMatchTheVectorsTheyMirror() {
        Element plain = TestVectorsTest.root("batch-plain-3");
        Element deflate = TestVectorsTest.root("batch-deflate-3");
        Element volume = batchTemplate("volume-flush");
        Element compressed = batchTemplate("deflate-batch");

        TemplateMatcher m = new TemplateMatcher();
        assertThat(m.mismatch(volume, plain)).isEmpty();
        assertThat(m.captures()).containsKeys("m1", "m2", "m3");
        assertThat(new TemplateMatcher().mismatch(compressed, deflate)).isEmpty();
        // the captures of one batch bind the other: same stanza-ids
        assertThat(m.mismatch(compressed, deflate)).isEmpty();
        assertThat(new TemplateMatcher().matches(volume, deflate)).as("plain template, compressed batch").isFalse();
        assertThat(new TemplateMatcher().matches(compressed, plain)).as("compressed template, plain batch").isFalse();

        Element single = receives("no-aggregation").get(1);
        assertThat(new TemplateMatcher().mismatch(single, TestVectorsTest.root("delivery-no-aggregation"))).isEmpty();

        List<Element> legacy = receives("partial-update");
        assertThat(new TemplateMatcher().mismatch(legacy.get(0), TestVectorsTest.root("paper-listing-1-result"))).isEmpty();
        assertThat(new TemplateMatcher().mismatch(legacy.get(2), TestVectorsTest.root("paper-listing-2-result"))).isEmpty();
        assertThat(new TemplateMatcher().matches(legacy.get(0), TestVectorsTest.root("paper-listing-2-result"))).isFalse();
    }

    @Test
    void aCorruptedDeflateBatchDoesNotMatch() {
        Element deflate = TestVectorsTest.root("batch-deflate-3");
        Element batch = Dom.all(deflate, XmlNamespaces.RECONMUC, "batch").get(0);
        batch.setAttribute("size", "1000");
        assertThat(new TemplateMatcher().mismatch(batchTemplate("deflate-batch"), deflate)).get().asString()
                .contains("deflate batch");
    }

    static List<Element> receives(String scenario) {
        return TemplateMatcher.children(ScenariosTest.root(scenario)).stream()
                .filter(s -> "receive".equals(s.getLocalName()))
                .map(s -> TemplateMatcher.children(s).get(0)).toList();
    }

    static Element batchTemplate(String scenario) {
        return receives(scenario).stream()
                .filter(t -> !Dom.all(t, XmlNamespaces.RECONMUC, "batch").isEmpty()
                        && !Dom.all(t, XmlNamespaces.FORWARD, "forwarded").isEmpty())
                .findFirst().orElseThrow();
    }
}
