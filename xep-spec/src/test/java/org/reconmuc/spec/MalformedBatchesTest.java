package org.reconmuc.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.MalformedBatchException;
import org.w3c.dom.Element;

/** Every malformed batch is refused whole, for the rule its comment names; a reset stream reads again. */
class MalformedBatchesTest {

    static List<String> cases() {
        return MalformedBatches.list();
    }

    private static Element batch(String stanza) {
        return Dom.all(SecureXml.parse(stanza).getDocumentElement(), XmlNamespaces.RECONMUC, "batch").get(0);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void isRefusedForTheRuleItsCommentNames(String name) throws Exception {
        MalformedBatches.Case c = MalformedBatches.read(name);
        BatchDecoder session = new BatchDecoder(1_000_000);
        for (String before : c.after()) {
            DomBatches.items(batch(TestVectors.stanza(before)), session);
        }
        assertThatThrownBy(() -> DomBatches.items(batch(c.stanza()), session)).as(name)
                .isInstanceOf(MalformedBatchException.class).hasMessageContaining(c.refusedBecause());
    }

    @Test
    void thereIsOneForEveryKindOfBrokenStreamAndItem() {
        assertThat(cases()).contains("deflate-stream-bomb", "deflate-stream-truncated", "deflate-stream-gap",
                "deflate-stream-skipped-number", "deflate-bomb", "compact-missing-nick", "compact-text-in-item");
    }

    @Test
    void aStreamThatStartsAgainIsReadAgainAfterItWasLost() throws Exception {
        BatchDecoder alice = new BatchDecoder();
        DomBatches.items(batch(TestVectors.stanza("batch-compact-deflate-1")), alice);
        DomBatches.items(batch(TestVectors.stanza("batch-compact-deflate-2")), alice);
        assertThatThrownBy(() -> DomBatches.items(batch(MalformedBatches.read("deflate-stream-truncated").stanza()), alice))
                .isInstanceOf(MalformedBatchException.class);
        assertThat(DomBatches.items(batch(TestVectors.stanza("batch-compact-deflate-1")), alice)).as("n='1' starts anew")
                .hasSize(3);
        assertThat(DomBatches.items(batch(TestVectors.stanza("batch-compact-deflate-2")), alice)).hasSize(2);
    }
}
