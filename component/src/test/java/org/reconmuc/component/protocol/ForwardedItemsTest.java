package org.reconmuc.component.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.junit.jupiter.api.Test;
import org.reconmuc.codec.batch.Batch;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.DecodedBatch;
import org.reconmuc.component.testing.Dom4jBatches;

/** A logged message as a batch item: the form of reconmuc.md §5.9 rule 2, which the codec reads back. */
class ForwardedItemsTest {
    private static final String ROOM = "chat@conference.example.org";

    /** A broadcast as the service holds it: parsed from the component stream, addressed to one occupant. */
    private static Element broadcast(String body) throws Exception {
        return DocumentHelper.parseText("<message xmlns='jabber:component:accept' from='" + ROOM + "/Bob' to='alice@x/y'"
                + " type='groupchat' id='b1'><body>" + body + "</body><topic xmlns='urn:reconmuc:0'>movies</topic>"
                + "<stanza-id xmlns='urn:xmpp:sid:0' by='" + ROOM + "' id='s1'/></message>").getRootElement();
    }

    @Test
    void anItemIsTheBroadcastInJabberClientWithoutToAfterItsDelay() throws Exception {
        String item = ForwardedItems.xml(broadcast("caf\u00e9 &amp; more"), Instant.parse("2011-03-21T09:00:05Z"), ROOM);
        assertThat(item).startsWith("<forwarded xmlns=\"urn:xmpp:forward:0\"><delay xmlns=\"urn:xmpp:delay\""
                + " stamp=\"2011-03-21T09:00:05Z\" from=\"" + ROOM + "\"/><message xmlns=\"jabber:client\" from=\"" + ROOM
                + "/Bob\" type=\"groupchat\" id=\"b1\"><body>caf\u00e9 &amp; more</body><topic xmlns=\"urn:reconmuc:0\">"
                + "movies</topic><stanza-id xmlns=\"urn:xmpp:sid:0\" by=\"" + ROOM + "\" id=\"s1\"").endsWith("</message></forwarded>");
    }

    @Test
    void itemsReadBackFromPlainAndDeflateBatches() throws Exception {
        List<String> items = List.of(ForwardedItems.xml(broadcast("one"), Instant.parse("2011-03-21T09:00:00Z"), ROOM),
                ForwardedItems.xml(broadcast("two \u2603"), Instant.parse("2011-03-21T09:00:01Z"), ROOM));
        DecodedBatch plain = new BatchDecoder().decode(Batch.plain(items));
        DecodedBatch deflated = new BatchDecoder().decode(Batch.deflate(items, 6));
        assertThat(plain.items()).hasSize(2).isEqualTo(deflated.items());
        Element batch = DocumentHelper.parseText(Batch.deflate(items, 6)).getRootElement();
        assertThat(Dom4jBatches.items(batch)).extracting(f -> f.element("message").elementText("body"))
                .containsExactly("one", "two \u2603");
    }
}
