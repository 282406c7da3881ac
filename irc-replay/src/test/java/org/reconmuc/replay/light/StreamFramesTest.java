package org.reconmuc.replay.light;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A client stream cut into its header and elements, whatever the reads split: every split of a
 * real server's opening (Prosody's, with a SASL success and the restart) gives the same elements,
 * and what is kept between reads is only the element not yet complete.
 */
class StreamFramesTest {
    private static final String PROSODY = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' version='1.0'"
            + " from='insecure.localhost' id='a1' xmlns:stream='http://etherx.jabber.org/streams'>"
            + "<stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism>"
            + "</mechanisms></stream:features>"
            + "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>"
            + "<?xml version='1.0'?><stream:stream xmlns='jabber:client' version='1.0' id='a2'"
            + " xmlns:stream='http://etherx.jabber.org/streams'>"
            + "<stream:features><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></stream:features> \n"
            + "<message from='r@m/x' type='groupchat' id=\"q>1\"><body>a &gt; b &amp; 'c' &lt;/body&gt;</body>"
            + "<x a='>' b=\"/>\"/><![CDATA[</message>]]><!-- </message> --></message>"
            + "</stream:stream>";

    /** What a handler saw: "open", each element's text, "close"; restarts after SASL success. */
    private static final class Seen implements StreamFrames.Handler {
        final List<String> events = new ArrayList<>();

        @Override
        public void streamOpened(byte[] buf, int from, int to) {
            events.add("open");
        }

        @Override
        public boolean element(byte[] buf, int from, int to) {
            String e = new String(buf, from, to - from, StandardCharsets.UTF_8);
            events.add(e);
            return e.startsWith("<success");
        }

        @Override
        public void streamClosed() {
            events.add("close");
        }
    }

    /** Feeds {@code bytes} in reads of the given sizes, keeping only the unfinished rest between reads. */
    private static List<String> feed(byte[] bytes, int[] cuts) {
        Seen seen = new Seen();
        byte[] pending = new byte[0];
        boolean open = false;
        int at = 0;
        for (int i = 0; at < bytes.length; i++) {
            int n = Math.min(cuts[i % cuts.length], bytes.length - at);
            byte[] buf = new byte[pending.length + n];
            System.arraycopy(pending, 0, buf, 0, pending.length);
            System.arraycopy(bytes, at, buf, pending.length, n);
            at += n;
            long r = StreamFrames.scan(buf, 0, buf.length, open, seen);
            open = StreamFrames.open(r);
            pending = java.util.Arrays.copyOfRange(buf, StreamFrames.rest(r), buf.length);
            assertThat(pending.length).as("only an unfinished element is kept").isLessThan(400);
        }
        assertThat(pending).isEmpty();
        return seen.events;
    }

    @Test
    void everySplitOfAServersOpeningGivesTheSameElements() {
        byte[] bytes = PROSODY.getBytes(StandardCharsets.UTF_8);
        List<String> whole = feed(bytes, new int[] {bytes.length});
        assertThat(whole).hasSize(7);
        assertThat(whole.get(0)).isEqualTo("open");
        assertThat(whole.get(1)).startsWith("<stream:features><mechanisms").endsWith("</stream:features>");
        assertThat(whole.get(2)).isEqualTo("<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>");
        assertThat(whole.get(3)).isEqualTo("open");
        assertThat(whole.get(5)).startsWith("<message").endsWith("<!-- </message> --></message>");
        assertThat(whole.get(6)).isEqualTo("close");
        for (int size = 1; size < 64; size++) {
            assertThat(feed(bytes, new int[] {size})).as("reads of %d bytes", size).isEqualTo(whole);
        }
        assertThat(feed(bytes, new int[] {3, 17, 1, 250, 2})).isEqualTo(whole);
    }

    @Test
    void aStanzaReadsItsNameAttributesChildrenAndText() {
        String m = "<message from='r@m/It&apos;s' type=\"groupchat\" id='r1.a'><body>a &lt; b</body>"
                + "<stanza-id xmlns='urn:xmpp:sid:0' id='P-1' by='r@m'/><delay xmlns='urn:xmpp:delay' stamp='x'/></message>";
        assertThat(StanzaText.name(m)).isEqualTo("message");
        assertThat(StanzaText.attribute(m, "from")).isEqualTo("r@m/It's");
        assertThat(StanzaText.attribute(m, "type")).isEqualTo("groupchat");
        assertThat(StanzaText.attribute(m, "to")).isNull();
        int sid = StanzaText.element(m, 0, "stanza-id", "urn:xmpp:sid:0");
        assertThat(StanzaText.attribute(m, sid, "id")).isEqualTo("P-1");
        assertThat(StanzaText.element(m, 0, "stanza-id", "urn:xmpp:sid:1")).isNegative();
        assertThat(StanzaText.element(m, 0, "delay", "urn:xmpp:delay")).isPositive();
        assertThat(StanzaText.text(m, StanzaText.element(m, 0, "body", null))).isEqualTo("a < b");
        assertThat(StanzaText.escape("a<b & 'c'\u0001")).isEqualTo("a&lt;b &amp; &apos;c&apos;");
    }
}
