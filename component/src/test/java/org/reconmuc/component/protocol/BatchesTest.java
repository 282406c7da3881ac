package org.reconmuc.component.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.junit.jupiter.api.Test;

/** Batches as a client decodes them: good ones round-trip, malformed ones are refused with a reason. */
class BatchesTest {
    private static final String ROOM = "chat@conference.example.org";

    private static Element message(String body) throws Exception {
        return DocumentHelper.parseText("<message from='" + ROOM + "/Bob' type='groupchat' id='x'><body>" + body
                + "</body></message>").getRootElement();
    }

    private static List<Element> items() throws Exception {
        return List.of(Batches.forwarded(message("one"), Instant.parse("2011-03-21T09:00:00Z"), ROOM),
                Batches.forwarded(message("two \u2603"), Instant.parse("2011-03-21T09:00:01Z"), ROOM));
    }

    private static Element parse(String xml) throws Exception {
        return DocumentHelper.parseText(xml).getRootElement();
    }

    @Test
    void plainAndDeflateCarryTheSameItems() throws Exception {
        List<Element> items = items();
        Element plain = Batches.plain(items);
        Element deflated = Batches.deflate(items.stream().map(Element::asXML).toList(), 6);
        assertThat(Batches.items(plain)).hasSize(2);
        assertThat(Batches.items(deflated)).extracting(f -> f.element("message").elementText("body"))
                .containsExactly("one", "two \u2603");
        assertThat(items.get(0).element("message").attributeValue("to")).as("forwarded copies carry no 'to'").isNull();
    }

    @Test
    void malformedBatchesAreRefusedWithAReason() throws Exception {
        Element good = Batches.deflate(items().stream().map(Element::asXML).toList(), 6);
        String payload = good.getTextTrim();
        String ns = "xmlns='urn:reconmuc:0'";
        assertRefused("<batch " + ns + " count='3'>" + Batches.plain(items()).elements().get(0).asXML() + "</batch>", "count");
        assertRefused("<batch " + ns + " count='1'><forwarded-not/></batch>", "forwarded");
        assertRefused("<batch " + ns + " count='2' encoding='deflate' size='" + good.attributeValue("size")
                + "' compressed-size='5'>" + payload + "</batch>", "compressed-size");
        assertRefused("<batch " + ns + " count='2' encoding='deflate' size='7' compressed-size='"
                + good.attributeValue("compressed-size") + "'>" + payload + "</batch>", "size");
        assertRefused("<batch " + ns + " count='2' encoding='deflate' size='10' compressed-size='3'>@@@</batch>", "base64");
        assertRefused("<batch " + ns + " count='1' encoding='gzip' size='1' compressed-size='1'>AA==</batch>", "encoding");
        assertRefused("<batch " + ns + " count='-1'/>", "count");
        byte[] junk = {1, 2, 3, 4, 5};
        assertRefused("<batch " + ns + " count='1' encoding='deflate' size='100' compressed-size='5'>"
                + Base64.getEncoder().encodeToString(junk) + "</batch>", "DEFLATE");
        assertRefused("<batch " + ns + " count='1' encoding='deflate' size='999999999' compressed-size='5'>"
                + Base64.getEncoder().encodeToString(junk) + "</batch>", "larger");
    }

    @Test
    void aDeflateBombOrADtdInsideIsRefused() throws Exception {
        String withDtd = "<!DOCTYPE x [<!ENTITY a 'aaaa'>]><forwarded xmlns='urn:xmpp:forward:0'/>";
        Element dtd = Batches.deflate(List.of(withDtd), 6);
        dtd.addAttribute("count", "1");
        assertThatThrownBy(() -> Batches.items(dtd)).isInstanceOf(ProtocolException.class).hasMessageContaining("DTD");
    }

    private static void assertRefused(String xml, String reason) {
        assertThatThrownBy(() -> Batches.items(parse(xml)))
                .isInstanceOfSatisfying(ProtocolException.class, e -> assertThat(e.getMessage()).containsIgnoringCase(reason));
    }
}
