package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.reconmuc.component.transport.XmlFramer.Frame;
import org.reconmuc.component.transport.XmlFramer.Kind;

class XmlFramerTest {

    private static final String HEADER = "<stream:stream xmlns='jabber:component:accept'"
            + " xmlns:stream='http://etherx.jabber.org/streams' id='abc'>";

    /** Hands out at most one byte per read, like a very slow network. */
    private static InputStream trickle(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1));
            }
        };
    }

    private static List<Frame> frames(String stream, int maxStanzaBytes, boolean oneByteAtATime) throws Exception {
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        XmlFramer framer = new XmlFramer(oneByteAtATime ? trickle(bytes) : new ByteArrayInputStream(bytes), maxStanzaBytes, 8);
        List<Frame> out = new ArrayList<>();
        while (true) {
            Frame f;
            try {
                f = framer.next();
            } catch (EOFException e) {
                return out;
            }
            out.add(f);
            if (f.kind() == Kind.STREAM_END) {
                return out;
            }
        }
    }

    private static String text(Frame f) {
        return new String(f.bytes(), StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void splitsHeaderStanzasAndStreamEnd(boolean oneByteAtATime) throws Exception {
        String s1 = "<message to='a@b' x='>/&amp;'><body>é€𝄞 &lt; > <![CDATA[</message> ]]]></body><x xmlns='urn:x'/></message>";
        String s2 = "<presence/>";
        String s3 = "<iq type=\"get\" id='1'><q xmlns='urn:q'><a/><b>t</b></q></iq>";
        List<Frame> frames = frames("\uFEFF".substring(1) + "<?xml version='1.0' encoding='UTF-8'?>\n" + HEADER
                + " " + s1 + "\n\t" + s2 + s3 + " </stream:stream>", 4096, oneByteAtATime);

        assertThat(frames).extracting(Frame::kind)
                .containsExactly(Kind.HEADER, Kind.ELEMENT, Kind.ELEMENT, Kind.ELEMENT, Kind.STREAM_END);
        assertThat(text(frames.get(0))).isEqualTo(HEADER);
        assertThat(frames.get(0).name()).isEqualTo("stream:stream");
        assertThat(text(frames.get(1))).isEqualTo(s1);
        assertThat(frames.get(1).name()).isEqualTo("message");
        assertThat(frames.get(1).size()).isEqualTo(s1.getBytes(StandardCharsets.UTF_8).length);
        assertThat(text(frames.get(2))).isEqualTo(s2);
        assertThat(frames.get(2).name()).isEqualTo("presence");
        assertThat(text(frames.get(3))).isEqualTo(s3);
    }

    @Test
    void discardsAStanzaOverTheLimitKeepingItsStartTag() throws Exception {
        String start = "<message from='a@b/c' to='r@d' id='1'>";
        String big = start + "<body>" + "€".repeat(2000) + "</body></message>";
        List<Frame> frames = frames(HEADER + big + "<presence/>", 1024, false);
        assertThat(frames).extracting(Frame::kind).containsExactly(Kind.HEADER, Kind.DISCARDED, Kind.ELEMENT);
        Frame discarded = frames.get(1);
        assertThat(text(discarded)).isEqualTo(start);
        assertThat(discarded.name()).isEqualTo("message");
        assertThat(discarded.size()).isEqualTo(big.getBytes(StandardCharsets.UTF_8).length);
        assertThat(discarded.tooDeep()).isFalse();
    }

    @Test
    void aStartTagOverTheLimitIsDiscardedWithoutIt() throws Exception {
        String big = "<message from='" + "a".repeat(3000) + "'><body/></message>";
        List<Frame> frames = frames(HEADER + big + "<presence/>", 1024, false);
        assertThat(frames).extracting(Frame::kind).containsExactly(Kind.HEADER, Kind.DISCARDED, Kind.ELEMENT);
        assertThat(frames.get(1).bytes()).isNull();
        assertThat(frames.get(1).name()).isEqualTo("message");
    }

    @Test
    void theLimitIsInclusive() throws Exception {
        String base = "<message><body></body></message>";
        String exact = "<message><body>" + "x".repeat(1024 - base.length()) + "</body></message>";
        String over = "<message><body>" + "x".repeat(1025 - base.length()) + "</body></message>";
        assertThat(frames(HEADER + exact + over, 1024, false)).extracting(Frame::kind)
                .containsExactly(Kind.HEADER, Kind.ELEMENT, Kind.DISCARDED);
    }

    @Test
    void discardsAStanzaNestedTooDeeply() throws Exception {
        String ok = "<m>" + "<a>".repeat(7) + "</a>".repeat(7) + "</m>";        // depth 8: allowed
        String deep = "<m>" + "<a>".repeat(8) + "</a>".repeat(8) + "</m>";      // depth 9
        List<Frame> frames = frames(HEADER + ok + deep + "<presence/>", 4096, false);
        assertThat(frames).extracting(Frame::kind).containsExactly(Kind.HEADER, Kind.ELEMENT, Kind.DISCARDED, Kind.ELEMENT);
        assertThat(frames.get(2).tooDeep()).isTrue();
        assertThat(text(frames.get(2))).isEqualTo("<m>");
    }

    @Test
    void anEmptyElementPastTheDepthIsTooDeepToo() throws Exception {
        String ok = "<m>" + "<a>".repeat(6) + "<b/>" + "</a>".repeat(6) + "</m>";     // <b/> at depth 8: allowed
        String deep = "<m>" + "<a>".repeat(7) + "<b/>" + "</a>".repeat(7) + "</m>";   // <b/> at depth 9
        List<Frame> frames = frames(HEADER + ok + deep, 4096, false);
        assertThat(frames).extracting(Frame::kind).containsExactly(Kind.HEADER, Kind.ELEMENT, Kind.DISCARDED);
        assertThat(frames.get(2).tooDeep()).isTrue();
    }

    @Test
    void aCharacterReferenceMayHaveAnyNumberOfLeadingZeros() throws Exception {
        String s = "<message><body>&#x" + "0".repeat(40) + "41;&#" + "0".repeat(40) + "65;</body></message>";
        assertThat(frames(HEADER + s, 4096, false)).extracting(Frame::kind).containsExactly(Kind.HEADER, Kind.ELEMENT);
        assertThatThrownBy(() -> frames(HEADER + "<message><body>&#x" + "0".repeat(40) + "g;</body></message>", 4096, false))
                .isInstanceOfSatisfying(StreamException.class, e -> assertThat(e.condition()).isEqualTo("not-well-formed"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "<!DOCTYPE stream>" + HEADER,
            HEADER + "<!DOCTYPE x [<!ENTITY a 'b'>]>",
            HEADER + "<!ENTITY a 'b'>",
            HEADER + "<message><!-- c --></message>",
            HEADER + "<!-- c -->",
            HEADER + "<?pi data?>",
            "<?xml-stylesheet href='x'?>" + HEADER,
            "<?xml version='1.0'?><?xml version='1.0'?>" + HEADER,
            HEADER + "<message><body>&lol;</body></message>",
            HEADER + "<message to='&xxe;'/>",
            HEADER + "<message><body>&averyveryverylongentityname;</body></message>",
    })
    void restrictedXmlIsRefused(String stream) {
        assertThatThrownBy(() -> frames(stream, 4096, false))
                .isInstanceOfSatisfying(StreamException.class, e -> assertThat(e.condition()).isEqualTo("restricted-xml"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            HEADER + "<message><body>a & b</body></message>",
            HEADER + "<message><body>&#xZZ;</body></message>",
            HEADER + "<message a='<'/>",
            HEADER + "<![CDATA[x]]>",
            "</stream:stream>",
            "<stream:stream/>",
            HEADER + "< message/>",
    })
    void malformedXmlIsRefused(String stream) {
        assertThatThrownBy(() -> frames(stream, 4096, false))
                .isInstanceOfSatisfying(StreamException.class, e -> assertThat(e.condition()).isEqualTo("not-well-formed"));
    }

    @Test
    void predefinedAndCharacterReferencesAreAllowed() throws Exception {
        String s = "<message a='&quot;&apos;'><body>&lt;&gt;&amp;&#65;&#x1F600;</body></message>";
        assertThat(frames(HEADER + s, 4096, false)).extracting(Frame::kind).containsExactly(Kind.HEADER, Kind.ELEMENT);
    }

    @Test
    void anOverlongHeaderIsAPolicyViolation() {
        String header = "<stream:stream xmlns='jabber:component:accept' junk='" + "x".repeat(20_000) + "'>";
        assertThatThrownBy(() -> frames(header, 4096, false))
                .isInstanceOfSatisfying(StreamException.class, e -> assertThat(e.condition()).isEqualTo("policy-violation"));
    }

    @Test
    void endOfInputIsAnEofException() throws IOException, StreamException {
        XmlFramer framer = new XmlFramer(new ByteArrayInputStream((HEADER + "<message><bo").getBytes(StandardCharsets.UTF_8)), 4096, 8);
        assertThat(framer.next().kind()).isEqualTo(Kind.HEADER);
        assertThatThrownBy(framer::next).isInstanceOf(EOFException.class);
    }

    @Test
    void doesNotReadBeyondTheFrameItReturns() throws Exception {
        // A stream that fails if read past the first stanza: the framer must not need more bytes.
        byte[] first = (HEADER + "<presence/>").getBytes(StandardCharsets.UTF_8);
        InputStream in = new InputStream() {
            int at;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (at == first.length) {
                    throw new IOException("read past the stanza");
                }
                int n = Math.min(len, first.length - at);
                System.arraycopy(first, at, b, off, n);
                at += n;
                return n;
            }
        };
        XmlFramer framer = new XmlFramer(in, 4096, 8);
        assertThat(framer.next().kind()).isEqualTo(Kind.HEADER);
        assertThat(framer.next().kind()).isEqualTo(Kind.ELEMENT);
        assertThat(framer.totalBytes()).isEqualTo(first.length);
    }
}
