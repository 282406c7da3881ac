package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

class RenderedStanzaTest {
    private static final String ROOM = "lobby@muc.example";

    /** A message that counts how often it is serialised. */
    static final class CountedMessage extends Message {
        int serialised;

        @Override
        public String toXML() {
            serialised++;
            return super.toXML();
        }
    }

    static CountedMessage groupchat(String body) {
        CountedMessage m = new CountedMessage();
        m.setType(Message.Type.groupchat);
        m.setFrom(ROOM + "/Romeo");
        m.setTo("someone@else.example/old");
        m.setBody(body);
        return m;
    }

    @Test
    void aBroadcastIsSerialisedOnceAndAddressedToEachRecipientByItsText() {
        CountedMessage m = groupchat("Wherefore art thou?");
        RenderedStanza rendered = RenderedStanza.of(m);
        List<OutgoingStanza> copies = List.of(rendered.to("juliet@capulet.lit/balcony"),
                rendered.to("nurse@capulet.lit/kitchen"), rendered.to("romeo@montague.lit/orchard"));
        assertThat(m.serialised).isEqualTo(1);
        for (OutgoingStanza copy : copies) {
            Packet parsed = RenderedStanza.parse("message", copy.xml());
            assertThat(parsed.getTo().toString()).isEqualTo(copy.to());
            assertThat(parsed.getFrom().toString()).isEqualTo(ROOM + "/Romeo");
            assertThat(((Message) parsed).getBody()).isEqualTo("Wherefore art thou?");
            assertThat(copy.rendered()).isSameAs(rendered);
        }
        assertThat(m.getTo().toString()).isEqualTo("someone@else.example/old");   // the packet is left as it was
    }

    @Test
    void aRecipientIsEscapedInTheAttribute() {
        OutgoingStanza copy = RenderedStanza.of(groupchat("hi")).to("juliet@capulet.lit/a\"b&c<d");
        assertThat(copy.xml()).contains("to=\"juliet@capulet.lit/a&quot;b&amp;c&lt;d\"");
        assertThat(copy.toPacket().getTo().getResource()).isEqualTo("a\"b&c<d");
    }

    @Test
    void aStanzaForItsOwnAddressIsItsToXmlByteForByte() {
        CountedMessage m = groupchat("Grüße <&> \"quoted\" 𝄞");
        String expected = new Message(m.getElement().createCopy()).toXML();
        OutgoingStanza stanza = OutgoingStanza.of(m);
        assertThat(stanza.xml()).isEqualTo(expected);
        assertThat(stanza.to()).isEqualTo("someone@else.example/old");
        assertThat(stanza.toPacket().toXML()).isEqualTo(expected);
    }

    @Test
    void theDomOfABroadcastIsParsedOnceAndCopiedPerRecipient() {
        RenderedStanza rendered = RenderedStanza.of(groupchat("hi"));
        Packet first = rendered.to("a@x.example/1").toPacket();
        Packet second = rendered.to("b@x.example/2").toPacket();
        assertThat(first.getTo().toString()).isEqualTo("a@x.example/1");
        assertThat(second.getTo().toString()).isEqualTo("b@x.example/2");
        assertThat(rendered.parsed().getTo()).isNull();
        assertThat(rendered.parsed()).isSameAs(rendered.parsed());
    }

    @Test
    void aForbiddenCharacterIsFoundWhenRendered() {
        assertThat(RenderedStanza.of(groupchat("bell \u0007")).to("a@x.example/1").forbiddenCharacter()).isEqualTo(7);
        assertThat(RenderedStanza.of(groupchat("fine")).to("a@x.example/1").forbiddenCharacter()).isEqualTo(-1);
    }
}
