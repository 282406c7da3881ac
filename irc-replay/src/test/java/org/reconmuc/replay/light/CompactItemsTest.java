package org.reconmuc.replay.light;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.batch.BatchDecoder;

/** The light reading of compact batches agrees with the codec's on the spec's vectors, and refuses what the codec refuses of them. */
class CompactItemsTest {
    private static String batchOf(String vector) throws Exception {
        try (InputStream in = CompactItemsTest.class.getResourceAsStream("/reconmuc/vectors/" + vector)) {
            String xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return xml.substring(xml.indexOf("<batch"), xml.lastIndexOf("</batch>") + "</batch>".length());
        }
    }

    @Test
    void theSpecsCompactVectorsReadAsTheCodecReadsThem() throws Exception {
        for (String vector : List.of("batch-compact-3.xml", "batch-compact-live-1.xml")) {
            String batch = batchOf(vector);
            List<CompactItems.Item> light = CompactItems.read(batch);
            List<String> decoded = new BatchDecoder().decode(batch, "chat@conference.example.org").items();
            assertThat(light).as(vector).hasSize(decoded.size());
            for (int i = 0; i < decoded.size(); i++) {
                String item = decoded.get(i);
                int message = StanzaText.element(item, 0, "message", null);
                assertThat(light.get(i).id()).isEqualTo(StanzaText.attribute(item, message, "id"));
                assertThat(light.get(i).live()).isEqualTo(StanzaText.element(item, 0, "delay", "urn:xmpp:delay") < 0);
            }
        }
        assertThat(CompactItems.read(batchOf("batch-compact-live-1.xml"))).last().extracting(CompactItems.Item::live).isEqualTo(true);
    }

    @Test
    void otherFormsAreTheCodecsAndAWrongCountIsRefused() throws Exception {
        assertThat(CompactItems.read(batchOf("batch-plain-3.xml"))).isNull();
        assertThat(CompactItems.read(batchOf("batch-compact-deflate-1.xml"))).isNull();
        String three = batchOf("batch-compact-3.xml");
        assertThatThrownBy(() -> CompactItems.read(three.replace("count='3'", "count='4'"))).hasMessageContaining("count is 4");
        assertThatThrownBy(() -> CompactItems.read(three.replaceFirst("<m ", "<x ").replaceFirst("</m>", "</x>")))
                .hasMessageContaining("only <m/>");
    }
}
